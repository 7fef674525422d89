// Vitest global setup: the run gets a temporary folder of its own (TMPDIR, which os.tmpdir(),
// mktemp and the tests' child processes follow), and the run fails when a test left a `labelkit-*`
// entry in it: every test removes what it creates in the temporary folder. A folder of its own
// counts only this run's leftovers, not those of another run on the same machine.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set while a run's folder is in use: the setup of the run's second project finds it and does nothing. */
const RUN_FOLDER = 'LABELKIT_TEST_RUN_TMPDIR';

/**
 * Gives the run a temporary folder of its own, and checks it after the run.
 *
 * @returns the teardown: lists what the tests left behind, removes the folder, and throws (failing
 * the run) when a `labelkit-*` entry was left
 */
export function setup(): (() => void) | undefined {
  if (process.env[RUN_FOLDER]) return undefined;
  const before = { TMPDIR: process.env.TMPDIR };
  const run = mkdtempSync(join(tmpdir(), 'labelkit-test-run-'));
  // As /tmp: other users may write here (the test PostgreSQL runs as the postgres user).
  chmodSync(run, 0o1777);
  process.env.TMPDIR = run;
  process.env[RUN_FOLDER] = run;
  return () => {
    const left = readdirSync(run).filter((name) => name.startsWith('labelkit-')).sort();
    rmSync(run, { recursive: true, force: true });
    if (before.TMPDIR === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before.TMPDIR;
    delete process.env[RUN_FOLDER];
    if (left.length > 0) {
      // Vitest reports an error thrown here but still exits 0: the exit code is set as well.
      process.exitCode = 1;
      throw new Error(`the tests left ${left.length} labelkit-* entr${left.length === 1 ? 'y' : 'ies'} in the temporary folder (each test removes what it creates, in afterAll/afterEach or finally): ${left.join(', ')}`);
    }
  };
}
