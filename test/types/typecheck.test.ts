// The type check of the whole project (src/, generated/, test/, bench/ and the configs), as
// `npm run typecheck` runs it: `tsc --noEmit -p tsconfig.json`, with no error. It is a test file
// rather than vitest's `typecheck`, which runs after every test file has finished: there its tsc
// (the longest single step of npm test) was the last seconds of the run, alone on one core. Here it
// starts first (vitest.config.ts: SLOWEST_FIRST) and runs beside the other files. It type-checks
// the type tests (*.test-d.ts) too, which vitest's `typecheck` used to check a second time with the
// same options (test/build/testTiers.test.ts checks that each is one of this program's files).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { within } from '../support/testEnvironment.js';

const repo = join(import.meta.dirname, '..', '..');

describe('the whole project', () => {
  it('type-checks with no error (tsc --noEmit -p tsconfig.json)', { timeout: within(180_000) }, async () => {
    const tsc = join(repo, 'node_modules', '.bin', 'tsc');
    const outcome = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(tsc, ['--noEmit', '--pretty', 'false', '-p', join(repo, 'tsconfig.json')], { cwd: repo, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
      ),
    );
    expect(outcome.output).toBe('');
    expect(outcome.code).toBe(0);
  });
});
