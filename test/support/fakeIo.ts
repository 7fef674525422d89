import type { Io } from '../../src/cli/io.js';

/** An in-memory {@link Io} for running the CLI in process. */
export interface FakeIo extends Io {
  /** Everything written to stdout. */
  out(): string;
  /** Everything written to stderr. */
  err(): string;
  /** Presses Ctrl-C. */
  interrupt(): void;
}

/**
 * Builds a fake process for `main(argv, io)`.
 *
 * @param env - the environment (nothing from the real one leaks in)
 * @param options - stdin contents (undefined: a terminal), and whether the streams are terminals
 * @returns the fake Io
 */
export function fakeIo(env: Record<string, string | undefined> = {}, options: { stdin?: string; tty?: boolean } = {}): FakeIo {
  let stdout = '';
  let stderr = '';
  const handlers = new Set<() => void>();
  return {
    stdout: { write: (s: string) => (stdout += s), isTTY: options.tty ?? false },
    stderr: { write: (s: string) => (stderr += s), isTTY: options.tty ?? false },
    env,
    stdinIsTTY: options.stdin === undefined,
    readStdin: async () => options.stdin ?? '',
    onInterrupt: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    out: () => stdout,
    err: () => stderr,
    interrupt: () => [...handlers].forEach((h) => h()),
  };
}

/** argv as process.argv has it. */
export const argv = (...args: string[]) => ['node', 'labelkit', ...args];
