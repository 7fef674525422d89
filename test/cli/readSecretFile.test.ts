import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { readSecretFile } from '../../src/cli/readSecretFile.js';
import type { UsageProblem } from '../../src/cli/usageError.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

const dir = tempDir('labelkit-secret-');
const SENTINEL = 'SENTINEL-file-secret-41c2';

describe('readSecretFile', () => {
  it('returns the trimmed contents and records nothing when the file holds a secret', async () => {
    const path = join(dir, 'ok');
    writeFileSync(path, `  ${SENTINEL}\r\n`);
    const problems: UsageProblem[] = [];
    expect(await readSecretFile(path, '--secret-key-file', problems)).toBe(SENTINEL);
    expect(problems).toEqual([]);
  });

  it('records an empty-file problem under the flag when the file is only white space', async () => {
    const path = join(dir, 'blank');
    writeFileSync(path, ' \n');
    const problems: UsageProblem[] = [];
    expect(await readSecretFile(path, '--token-file', problems)).toBeUndefined();
    expect(problems).toEqual([{ field: '--token-file', message: `the file ${path} is empty` }]);
  });

  it('records the error code, not the contents, when the file cannot be read', async () => {
    const path = join(dir, 'missing');
    const problems: UsageProblem[] = [];
    expect(await readSecretFile(path, '--client-secret-file', problems)).toBeUndefined();
    expect(problems).toEqual([{ field: '--client-secret-file', message: `cannot read the file ${path} (ENOENT)` }]);
  });
});
