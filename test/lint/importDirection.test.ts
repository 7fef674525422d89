// The import direction of docs/ARCHITECTURE.md is enforced by eslint.config.js; these cases prove
// the rule refuses each forbidden arrow and accepts the allowed ones (lintText, nothing written).
// Above the client, the client package is reached only by its published names (labelkit, …).
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
    ['src/client/x.ts', "import { value } from '../cli/main.js';"],
    ['src/client/x.ts', "import { value } from '../../src/emulator/store.js';"],
    ['src/client/x.ts', "import { value } from 'graphql';"],
    ['src/client/x.ts', "import { value } from 'node:http';"],
    ['src/client/x.ts', "import { value } from '../shared/serveFetchHandler.js';"],
    ['src/client/x.ts', "import { value } from '../shared/schemaGeneration.js';"],
    ['src/client/x.ts', "import { value } from '../bulk/index.js';"],
    ['src/client/x.ts', "import { value } from '../labelSets/index.js';"],
    ['src/client/x.ts', "import { value } from 'labelkit-tools/emulator';"],
    ['src/model/x.ts', "import { value } from '../emulator/serveFetchHandler.js';"],
    ['src/model/x.ts', "import { value } from '../cli/io.js';"],
    ['src/model/x.ts', "import { value } from '../client/index.js';"],
    ['src/model/x.ts', "import { value } from 'labelkit';"],
    ['src/model/x.ts', "import { value } from '@urql/core';"],
    ['src/emulator/x.ts', "import { value } from '../client/index.js';"],
    ['src/emulator/x.ts', "import { value } from 'labelkit';"],
    ['src/emulator/x.ts', "import { value } from '../model/contract.js';"],
    ['src/emulator/x.ts', "import type { value } from '../../generated/tags/graphql.js';"],
    ['src/emulator/x.ts', "import { value } from '../../generated/tags/resolvers.js';"],
    ['src/emulator/x.ts', "import { value } from '../cli/io.js';"],
    ['src/emulator/x.ts', "import { value } from '../bulk/index.js';"],
    ['src/shared/x.ts', "import { value } from '../client/errors.js';"],
    ['src/shared/x.ts', "import { value } from '../../generated/tags/graphql.js';"],
    ['src/shared/x.ts', "import { value } from 'labelkit';"],
    ['src/demo/x.ts', "import { value } from '../cli/main.js';"],
    ['src/demo/x.ts', "import { value } from '../client/index.js';"],
    ['src/demo/x.ts', "import { value } from '../model/index.js';"],
    ['src/demo/x.ts', "import { value } from '../bulk/index.js';"],
    ['src/bulk/x.ts', "import { value } from '../client/index.js';"],
    ['src/bulk/x.ts', "import type { value } from '../client/errors.js';"],
    ['src/bulk/x.ts', "import { value } from '../../generated/tags/graphql.js';"],
    ['src/bulk/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/bulk/x.ts', "import { value } from '../cli/io.js';"],
    ['src/bulk/x.ts', "import { value } from 'labelkit/model';"],
    ['src/labelSets/x.ts', "import { value } from '../client/index.js';"],
    ['src/labelSets/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/labelSets/x.ts', "import { value } from '../bulk/index.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../client/index.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../model/index.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../../generated/labels/graphql.js';"],
    ['src/cli/x.ts', "import { value } from '../client/errors.js';"],
    ['src/labelSets/x.ts', "import { value } from '../client/client.js';"],
    ['src/labelSets/x.ts', "import { value } from '../client/errors.js';"],
    ['src/labelSets/x.ts', "import type { value } from '../client/types.js';"],
    ['src/labelSets/x.ts', "import { value } from '../cli/io.js';"],
    ['src/labelSets/x.ts', "import type { value } from '../client/index.js';"],
    ['src/labelSets/x.ts', "import { value } from '../../generated/tags/graphql.js';"],
    ['src/emulator/x.ts', "import { value } from '../labelSets/index.js';"],
    ['src/demo/x.ts', "import { value } from '../labelSets/plan.js';"],
    ['src/eval/x.ts', "import { value } from '../client/readLabels.js';"],
    ['src/eval/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/eval/x.ts', "import { value } from '../cli/io.js';"],
    ['src/eval/x.ts', "import { value } from '../../generated/tags/graphql.js';"],
    ['src/eval/x.ts', "import { value } from 'labelkit/model';"],
    ['src/client/x.ts', "import { value } from '../eval/index.js';"],
    ['src/emulator/x.ts', "import { value } from '../eval/index.js';"],
    ['src/emulator/pages/x.ts', "import { value } from '../../eval/findCopies.js';"],
    ['src/eval/scoreLabels.ts', "import { value } from 'labelkit';"],
    ['src/eval/matchSpans.ts', "import { value } from '../shared/constants.js';"],
    ['src/eval/maxMatching.ts', "import { value } from '../shared/constants.js';"],
    ['src/eval/schemes.ts', "import { value } from './listLabels.js';"],
    ['src/export/x.ts', "import { value } from '../client/readLabels.js';"],
    ['src/export/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/export/x.ts', "import { value } from '../cli/io.js';"],
    ['src/export/x.ts', "import { value } from 'labelkit/model';"],
    ['src/eval/x.ts', "import { value } from '../export/index.js';"],
    ['src/client/x.ts', "import { value } from '../export/index.js';"],
  ])('refuses, in %s, %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([expect.stringContaining('docs/ARCHITECTURE.md')]);
  });

  it.each([
    ['src/client/x.ts', "import { value } from '../shared/constants.js';"],
    ['src/client/x.ts', "import { value } from './model.js';"],
    ['src/client/x.ts', "import type { value } from 'graphql';"],
    ['src/client/x.ts', "import type { value } from '../shared/schemaGeneration.js';"],
    ['src/client/x.ts', "import { value } from '../../generated/tags/graphql.js';"],
    ['src/model/x.ts', "import { value } from '../shared/serveFetchHandler.js';"],
    ['src/model/x.ts', "import { value } from 'node:http';"],
    ['src/emulator/x.ts', "import { value } from 'labelkit/model';"],
    ['src/emulator/x.ts', "import type { value } from 'labelkit/documents';"],
    ['src/emulator/x.ts', "import type { value } from '../../generated/tags/resolvers.js';"],
    ['src/emulator/x.ts', "import { value } from 'graphql-yoga';"],
    ['src/shared/x.ts', "import { value } from './redact.js';"],
    ['src/demo/x.ts', "import { value } from '../emulator/index.js';"],
    ['src/demo/x.ts', "import { value } from 'labelkit';"],
    ['src/demo/x.ts', "import { value } from 'labelkit/model';"],
    ['src/bulk/x.ts', "import { value } from 'labelkit';"],
    ['src/bulk/x.ts', "import { value } from '../shared/redact.js';"],
    ['src/labelSets/x.ts', "import { value } from 'labelkit';"],
    ['src/labelSets/x.ts', "import { value } from 'labelkit/documents/labels';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../emulator/index.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../demo/index.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from '../../../bulk/index.js';"],
    ['src/cli/commands/x/runner.ts', "import { value } from 'labelkit/documents';"],
    ['src/cli/main.ts', "import { value } from './commands/model/index.js';"],
    ['src/labelSets/x.ts', "import type { value } from 'labelkit';"],
    ['src/labelSets/x.ts', "import { value } from '../shared/constants.js';"],
    ['src/labelSets/x.ts', "import { value } from './plan.js';"],
    ['src/cli/commands/labelSets/runner.ts', "import { value } from '../../../labelSets/index.js';"],
    ['src/eval/x.ts', "import { value } from 'labelkit';"],
    ['src/eval/x.ts', "import { value } from 'labelkit/documents';"],
    ['src/eval/x.ts', "import { value } from '../shared/constants.js';"],
    ['src/cli/commands/eval/runner.ts', "import { value } from '../../../eval/index.js';"],
    ['src/emulator/pages/x.ts', "import { value } from '../../eval/scoreLabels.js';"],
    ['src/emulator/pages/x.ts', "import type { value } from '../../eval/types.js';"],
    ['src/eval/scoreLabels.ts', "import { value } from './matchSpans.js';"],
    ['src/eval/scoreLabels.ts', "import { value } from './schemes.js';"],
    ['src/eval/schemes.ts', "import { value } from './maxMatching.js';"],
    ['src/emulator/pages/x.ts', "import { value } from '../../eval/schemes.js';"],
    ['src/export/x.ts', "import { value } from 'labelkit';"],
    ['src/export/x.ts', "import { value } from '../eval/listLabels.js';"],
    ['src/export/x.ts', "import { value } from '../shared/mapInOrder.js';"],
    ['src/cli/commands/export/runner.ts', "import { value } from '../../../export/index.js';"],
  ])('accepts, in %s, %s', async (file, line) => {
    expect(await refusals(file, line)).toEqual([]);
  });
});
