import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as ClientModule from '../../src/client/index.js';
import type * as EmulatorModule from '../../src/emulator/index.js';
import { generateFrom, operationTypeNames, renameSchema, repoRoot, typeCheck } from '../support/codegenConfig.js';

// The service will rename tag to label (tagItems → labelItems, tagName → labelName). These are the
// steps docs/rename.md gives, applied to a copy of the repository (a fork): rename the fields in
// schema.graphql (renameSchema), run codegen. Nothing else.
/** The optional tidy-up: the aliases are no longer needed once the schema is renamed. */
function dropRenameAliases(operation: string): string {
  return operation.replace(/\blabelItems:\s*tagItems\b/g, 'labelItems').replace(/\blabelName:\s*tagName\b/g, 'labelName');
}
/** GraphQL source without its comments: what the service reads. */
function withoutComments(source: string): string {
  return source.replace(/#[^\n]*/g, '');
}
const GENERATION_FILES = ['generated/tags/graphql.ts', 'generated/labels/graphql.ts', 'generated/tags/resolvers.ts', 'generated/labels/resolvers.ts'];

describe('the tag→label rename', () => {
  let fork: string;
  let today: string;
  let renamed: Map<string, string>;
  let renamedWithoutAliases: Map<string, string>;

  beforeAll(async () => {
    // A fork inside the repository, so that its files resolve our node_modules (ignored by git).
    fork = await mkdtemp(join(repoRoot, '.rename-fork-'));
    await cp(join(repoRoot, 'src'), join(fork, 'src'), { recursive: true });
    await cp(join(repoRoot, 'operations'), join(fork, 'operations'), { recursive: true });
    await writeFile(join(fork, 'schema.graphql'), renameSchema(await readFile(join(repoRoot, 'schema.graphql'), 'utf8')));
    renamed = await generateFrom(fork);
    for (const [file, content] of renamed) {
      await mkdir(dirname(join(fork, file)), { recursive: true });
      await writeFile(join(fork, file), content);
    }
    // The same with the aliases dropped from operations/ (step 2 of the README, optional).
    const tidy = join(fork, 'tidy');
    await mkdir(join(tidy, 'operations'), { recursive: true });
    await cp(join(fork, 'schema.graphql'), join(tidy, 'schema.graphql'));
    for (const name of (await readdir(join(fork, 'operations'))).filter((f) => f.endsWith('.graphql'))) {
      await writeFile(join(tidy, 'operations', name), dropRenameAliases(await readFile(join(fork, 'operations', name), 'utf8')));
    }
    renamedWithoutAliases = await generateFrom(tidy);
    // Today's public documents are those of the tags generation (labelkit/documents), whichever
    // generation this checkout's schema.graphql is written in (a fork that followed the README is
    // renamed already); the renamed ones are the fork's labels generation (labelkit/documents/labels).
    // Both sit in the fork's generated/ (their type import is relative: ../../src/client/…).
    today = await readFile(join(repoRoot, 'generated', 'tags', 'graphql.ts'), 'utf8');
    await mkdir(join(fork, 'generated', 'today'), { recursive: true });
    await writeFile(join(fork, 'generated', 'today', 'graphql.ts'), today);
  });

  afterAll(async () => {
    await rm(fork, { recursive: true, force: true });
  });

  it('leaves no tag field in the renamed schema and the renamed documents generated from it', async () => {
    expect(withoutComments(await readFile(join(fork, 'schema.graphql'), 'utf8'))).not.toMatch(/\btag(Items|Name)\b/);
    expect(renamed.get('generated/labels/graphql.ts')).not.toMatch(/"value":"tag(Items|Name)"/);
    expect(renamed.get('generated/labels/graphql.ts')).toMatch(/"value":"labelItems"/);
    // Today's generation is still written from the renamed schema (the client sends it first).
    expect(renamed.get('generated/tags/graphql.ts')).toMatch(/"value":"tagItems"/);
    // One file per generation (and the SDL of each): no third copy of the documents.
    expect([...renamed.keys()].sort()).toEqual([...GENERATION_FILES, 'generated/labels/schema.graphql', 'generated/tags/schema.graphql'].sort());
  });

  it('generates the same public documents whether or not the aliases are dropped', () => {
    expect(renamedWithoutAliases).toEqual(renamed);
  });

  it('generates the same set of operation types', () => {
    expect(operationTypeNames(today)).toEqual([
      'AppendLabelSetLabelItemsMutation',
      'AppendLabelSetLabelItemsMutationVariables',
      'AutoLabelTokenBasedProjectMutation',
      'AutoLabelTokenBasedProjectMutationVariables',
      'CreateLabelSetMutation',
      'CreateLabelSetMutationVariables',
      'DeleteLabelSetMutation',
      'DeleteLabelSetMutationVariables',
      'GetCabinetLabelSetsByIdQuery',
      'GetCabinetLabelSetsByIdQueryVariables',
      'GetCabinetQuery',
      'GetCabinetQueryVariables',
      'GetCellsQuery',
      'GetCellsQueryVariables',
      'GetJobQuery',
      'GetJobQueryVariables',
      'GetJobsQuery',
      'GetJobsQueryVariables',
      'GetLabelsPaginatedQuery',
      'GetLabelsPaginatedQueryVariables',
      'GetProjectCabinetsQuery',
      'GetProjectCabinetsQueryVariables',
      'GetProjectsFinalReportQuery',
      'GetProjectsFinalReportQueryVariables',
      'JobFieldsFragment',
      'UpdateProjectLabelSetMutation',
      'UpdateProjectLabelSetMutationVariables',
    ]);
    expect(operationTypeNames(renamed.get('generated/labels/graphql.ts')!)).toEqual(operationTypeNames(today));
  });

  // Two whole TypeScript programs: 7 s alone, over 30 s (vitest's default limit) when the fork of
  // renameSteps.test.ts runs it beside the project's type check on a loaded machine.
  it('generates identical result and variables types for every operation, the label-set writes sending labelItems and labelName', { timeout: 120_000 }, async () => {
    const names = operationTypeNames(today);
    // The writes send label items, whose input fields the service renames: their variables differ
    // by exactly the rename (tagItems → labelItems, tagName → labelName), and by nothing else.
    const writeVariables = ['AppendLabelSetLabelItemsMutationVariables', 'CreateLabelSetMutationVariables', 'UpdateProjectLabelSetMutationVariables'];
    expect(names).toEqual(expect.arrayContaining(writeVariables));
    // Identity in both directions (the same trick as expectTypeOf().toEqualTypeOf()),
    // plus one pair that differs, to prove the check can fail.
    const lines = [
      "import type * as Today from './generated/today/graphql.js';",
      "import type * as Renamed from './generated/labels/graphql.js';",
      'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;',
      "type RenameKey<K> = K extends 'tagItems' ? 'labelItems' : K extends 'tagName' ? 'labelName' : K;",
      'type Rename<T> = T extends readonly (infer E)[] ? Rename<E>[] : T extends object ? { [K in keyof T as RenameKey<K>]: Rename<T[K]> } : T;',
      ...names
        .filter((n) => !writeVariables.includes(n))
        .map((n) => `export const same_${n}: Equal<Today.${n}, Renamed.${n}> = true;`),
      ...writeVariables.flatMap((n) => [
        `export const renamed_${n}: Equal<Rename<Today.${n}>, Renamed.${n}> = true;`,
        `export const differs_${n}: Equal<Today.${n}, Renamed.${n}> = false;`,
      ]),
      'export const control: Equal<Today.GetCabinetQuery, Renamed.GetJobQuery> = false;',
      'export const labelItem: Equal<Today.GetCabinetLabelSetsByIdQuery["getCabinetLabelSetsById"][number]["labelItems"][number], { id: string; parentId: string | null; labelName: string; color: string | null; desc: string | null }> = true;',
    ];
    const check = join(fork, 'check.ts');
    await writeFile(check, lines.join('\n') + '\n');
    expect(typeCheck(check)).toEqual([]);

    // The same file with a real difference must not compile.
    await writeFile(check, lines.join('\n').replace('Renamed.GetJobQuery> = false', 'Renamed.GetJobQuery> = true') + '\n');
    expect(typeCheck(check).join('\n')).toMatch(/not assignable/);
  });

  it('keeps the public operation types free of the word tag', () => {
    const types = today.match(/^export type \w+(Query|Mutation|Variables|Fragment) = [^\n]*$/gm) ?? [];
    expect(types.length).toBeGreaterThan(0);
    for (const line of types) expect(line).not.toMatch(/tag/i);
  });

  it('regenerates both generations of documents and resolver types byte for byte', async () => {
    for (const file of GENERATION_FILES) {
      expect(renamed.get(file), file).toBe(await readFile(join(repoRoot, file), 'utf8'));
    }
  });

  it('runs one emulator round trip in the fork on the renamed schema', async () => {
    const { startEmulator } = (await import(join(fork, 'src/emulator/index.ts'))) as typeof EmulatorModule;
    const { createLabelingClient, getProjectLabelSets } = (await import(join(fork, 'src/client/index.ts'))) as typeof ClientModule;
    const emu = await startEmulator({ schemaGeneration: 'labels' });
    const queries: string[] = [];
    const onSchemaChange = vi.fn();
    const client = createLabelingClient({
      url: emu.url,
      token: emu.token,
      schemaGeneration: 'labels',
      onSchemaChange,
      fetch: (input, init) => {
        const body = JSON.parse(String(init?.body)) as { operationName: string; query: string };
        if (body.operationName === 'getCabinetLabelSetsById') queries.push(body.query);
        return fetch(input, init);
      },
    });
    try {
      const [set] = await getProjectLabelSets(client, 'demo-project', 'LABELER');
      expect(set!.labelItems.map((i) => i.labelName)).toEqual(['ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE']);
      expect(queries).toHaveLength(1);
      expect(queries[0]).toMatch(/labelItems \{/);
      expect(queries[0]).not.toMatch(/tag(Items|Name)/);
      expect(onSchemaChange).not.toHaveBeenCalled();
    } finally {
      client.close();
      await emu.close();
    }
  });
});
