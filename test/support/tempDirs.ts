import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Temporary folders for one test file, each removed after the file's (or the describe block's)
 * tests: every test removes what it creates in the temporary folder (test/support/tempFolderCheck.ts
 * fails the run otherwise).
 *
 * @returns `make(prefix)`: a new folder `<tmpdir>/<prefix>XXXXXX`, removed in afterAll
 * @remarks Call it where hooks may be declared (a file's top level or a describe block), not
 * inside a test; `make` may be called anywhere after.
 * @example
 * ```ts
 * const tempDir = useTempDirs();
 * const dir = tempDir('labelkit-secret-');
 * ```
 */
export function useTempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
