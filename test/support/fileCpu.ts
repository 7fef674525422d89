// A setup file (vitest.config.ts `setupFiles`, every project): measures the CPU time each test file
// costs, for the report at the end of the run (test/support/cpuReporter.ts). In the worker process
// that runs the file, from before the file is imported to after its last afterAll: the worker's
// own CPU (process.cpuUsage: user + system) plus the CPU of the child processes it started and that
// ended meanwhile (the cutime + cstime of /proc/self/stat, which the kernel adds when a child is
// reaped, with everything that child reaped in turn: tsc, npm, the CLI, Chromium and its helpers).
// Not counted: a daemon that leaves its parent (the PostgreSQL server that pg_ctl starts) and a
// child still running when the file ends. Files of one worker run one after another, so the
// difference belongs to this file.
import { readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/** What the file's meta carries to the reporter: CPU in microseconds, children's in clock ticks. */
export interface FileCpu {
  /** The worker's own user + system CPU, microseconds. */
  selfMicros: number;
  /** Reaped children's user + system CPU in clock ticks (the reporter converts); null without /proc. */
  childTicks: number | null;
}

declare module 'vitest' {
  interface TaskMeta {
    cpu?: FileCpu;
  }
}

/** cutime + cstime of /proc/self/stat (fields 16 and 17), or null where there is no /proc. */
function childTicks(): number | null {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[16 - 3]) + Number(fields[17 - 3]);
}

const selfMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const start = { self: selfMicros(), children: childTicks() };

// Vitest reads the first argument's pattern for fixtures; this hook takes none, only the file (the second).
// eslint-disable-next-line no-empty-pattern
afterAll(({}, file) => {
  // The file's suite (vitest's second argument): meta set here travels with its result to the reporter.
  const children = childTicks();
  file.meta.cpu = {
    selfMicros: selfMicros() - start.self,
    childTicks: children === null || start.children === null ? null : children - start.children,
  };
});
