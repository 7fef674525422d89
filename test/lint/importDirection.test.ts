// The import direction of docs/ARCHITECTURE.md is enforced by eslint.config.js; these cases prove
// the rule refuses each forbidden arrow and accepts the allowed ones (lintText, nothing written).
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
let eslint: ESLint;

/** The no-restricted-imports messages for one import line placed in a file of src/. */
async function refusals(file: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const used = value;\n`, { filePath: join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

describe('the import direction between the rooms of src/', () => {
  it.each([
    ['src/client/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/client/x.ts', "import { value } from '../model/index.js';"],
    ['src/client/x.ts', "import { value } from '../cli/api.js';"],
    ['src/client/x.ts', "import { value } from '../../src/emulator/store.js';"],
    ['src/client/x.ts', "import { value } from 'graphql';"],
    ['src/client/x.ts', "import { value } from 'node:http';"],
    ['src/client/x.ts', "import { value } from '../shared/serveFetchHandler.js';"],
    ['src/client/x.ts', "import { value } from '../shared/schemaGeneration.js';"],
    ['src/model/x.ts', "import { value } from '../emulator/serveFetchHandler.js';"],
    ['src/model/x.ts', "import { value } from '../cli/io.js';"],
    ['src/emulator/x.ts', "import { value } from '../client/index.js';"],
    ['src/emulator/x.ts', "import { value } from '../cli/io.js';"],
    ['src/shared/x.ts', "import { value } from '../client/errors.js';"],
    ['src/shared/x.ts', "import { value } from '../../generated/graphql.js';"],
    ['src/demo/x.ts', "import { value } from '../cli/api.js';"],
    ['src/client/x.ts', "import { value } from '../journal/index.js';"],
    ['src/journal/x.ts', "import { value } from '../emulator/index.js';"],
  ])('refuses, in %s, %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([expect.stringContaining('docs/ARCHITECTURE.md')]);
  });

  it.each([
    ['src/client/x.ts', "import { value } from '../shared/constants.js';"],
    ['src/client/x.ts', "import { value } from './model.js';"],
    ['src/client/x.ts', "import type { value } from 'graphql';"],
    ['src/client/x.ts', "import type { value } from '../shared/schemaGeneration.js';"],
    ['src/client/x.ts', "import { value } from '../../generated/graphql.js';"],
    ['src/model/x.ts', "import { value } from '../client/index.js';"],
    ['src/model/x.ts', "import { value } from '../shared/serveFetchHandler.js';"],
    ['src/emulator/x.ts', "import { value } from '../model/contract.js';"],
    ['src/shared/x.ts', "import { value } from './redact.js';"],
    ['src/demo/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/journal/x.ts', "import { value } from '../client/errors.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../emulator/index.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../demo/index.js';"],
  ])('accepts, in %s, %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([]);
  });
});
