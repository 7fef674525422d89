// The labelSets room sits above the client (docs/ARCHITECTURE.md): eslint.config.js refuses what
// it may not import (the client only by its published name `labelkit`), and keeps the other rooms (but the CLI) from importing it. lintText only.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
let eslint: ESLint;

async function refusals(file: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const used = value;\n`, { filePath: join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

describe('the imports of the labelSets room', () => {
  it.each([
    ['src/labelSets/x.ts', "import { value } from '../client/client.js';"],
    ['src/labelSets/x.ts', "import { value } from '../client/errors.js';"],
    ['src/labelSets/x.ts', "import type { value } from '../client/types.js';"],
    ['src/labelSets/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/labelSets/x.ts', "import { value } from '../cli/io.js';"],
    ['src/labelSets/x.ts', "import { value } from '../bulk/index.js';"],
    ['src/labelSets/x.ts', "import { value } from '../client/index.js';"],
    ['src/labelSets/x.ts', "import type { value } from '../client/index.js';"],
    ['src/labelSets/x.ts', "import { value } from '../../generated/graphql.js';"],
    ['src/client/x.ts', "import { value } from '../labelSets/index.js';"],
    ['src/emulator/x.ts', "import { value } from '../labelSets/index.js';"],
    ['src/demo/x.ts', "import { value } from '../labelSets/plan.js';"],
  ])('refuses, in %s, %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([expect.stringContaining('docs/ARCHITECTURE.md')]);
  });

  it.each([
    ['src/labelSets/x.ts', "import { value } from 'labelkit';"],
    ['src/labelSets/x.ts', "import type { value } from 'labelkit';"],
    ['src/labelSets/x.ts', "import { value } from '../shared/constants.js';"],
    ['src/labelSets/x.ts', "import { value } from './plan.js';"],
    ['src/cli/commands/labelSets/runner.ts', "import { value } from '../../../labelSets/index.js';"],
  ])('accepts, in %s, %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([]);
  });
});
