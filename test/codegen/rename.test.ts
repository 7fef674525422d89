import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFrom, operationTypeNames, repoRoot, typeCheck } from './codegenConfig.js';

/**
 * The service will rename tag to label (tagItems → labelItems, tagName → labelName).
 * These are the steps the README gives ("When the service renames tags to labels"),
 * applied to a temporary copy: the generated public types must not change.
 */
function renameSchema(sdl: string): string {
  return sdl.replace(/\btagItems:/g, 'labelItems:').replace(/\btagName:/g, 'labelName:');
}
function dropRenameAliases(operation: string): string {
  return operation
    .replace(/\blabelItems:\s*tagItems\b/g, 'labelItems')
    .replace(/\blabelName:\s*tagName\b/g, 'labelName');
}
/** GraphQL source without its comments: what the service reads. */
function withoutComments(source: string): string {
  return source.replace(/#[^\n]*/g, '');
}

describe('the tag→label rename', () => {
  let dir: string;
  let today: string;
  let renamed: string;
  let renamedSources: string[];

  beforeAll(async () => {
    // Inside node_modules so that the generated files resolve their type imports.
    const cache = join(repoRoot, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    dir = await mkdtemp(join(cache, 'labelkit-rename-'));
    const schemaFile = join(dir, 'schema.graphql');
    const opsDir = join(dir, 'operations');
    await writeFile(schemaFile, renameSchema(await readFile(join(repoRoot, 'schema.graphql'), 'utf8')));
    await cp(join(repoRoot, 'operations'), opsDir, { recursive: true });
    renamedSources = [await readFile(schemaFile, 'utf8')];
    for (const name of await readdir(opsDir)) {
      const file = join(opsDir, name);
      const text = dropRenameAliases(await readFile(file, 'utf8'));
      await writeFile(file, text);
      renamedSources.push(text);
    }
    today = await readFile(join(repoRoot, 'generated', 'graphql.ts'), 'utf8');
    renamed = await generateFrom(schemaFile, opsDir);
    await writeFile(join(dir, 'today.ts'), today);
    await writeFile(join(dir, 'renamed.ts'), renamed);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves no tag field in the renamed schema and operations', () => {
    for (const text of renamedSources) {
      expect(withoutComments(text)).not.toMatch(/\btag(Items|Name)\b/);
    }
  });

  it('generates the same set of operation types', () => {
    expect(operationTypeNames(today)).toEqual([
      'AutoLabelTokenBasedProjectMutation',
      'AutoLabelTokenBasedProjectMutationVariables',
      'GetCabinetLabelSetsByIdQuery',
      'GetCabinetLabelSetsByIdQueryVariables',
      'GetCabinetQuery',
      'GetCabinetQueryVariables',
      'GetJobQuery',
      'GetJobQueryVariables',
      'GetJobsQuery',
      'GetJobsQueryVariables',
      'JobFieldsFragment',
    ]);
    expect(operationTypeNames(renamed)).toEqual(operationTypeNames(today));
  });

  it('generates identical result and variables types for every operation', async () => {
    const names = operationTypeNames(today);
    // Identity in both directions (the same trick as expectTypeOf().toEqualTypeOf()),
    // plus one pair that differs, to prove the check can fail.
    const lines = [
      "import type * as Today from './today.js';",
      "import type * as Renamed from './renamed.js';",
      'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;',
      ...names.map((n) => `export const same_${n}: Equal<Today.${n}, Renamed.${n}> = true;`),
      'export const control: Equal<Today.GetCabinetQuery, Renamed.GetJobQuery> = false;',
      'export const labelItem: Equal<Today.GetCabinetLabelSetsByIdQuery["getCabinetLabelSetsById"][number]["labelItems"][number], { id: string; parentId: string | null; labelName: string; color: string | null }> = true;',
    ];
    const check = join(dir, 'check.ts');
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

  it('asks for the new field names once the aliases are dropped', () => {
    // The documents change (they ask for labelItems), only the types stay.
    expect(renamed).toMatch(/"value":"labelItems"/);
    expect(renamed).not.toMatch(/"value":"tagItems"/);
    expect(today).toMatch(/"value":"tagItems"/);
  });
});
