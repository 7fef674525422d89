import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { renameSchema, repoRoot } from '../support/codegenConfig.js';
import { emulatorSchemaSource } from '../../src/emulator/schemaSource.js';
import { generationOfSchema, operationsInGeneration, RENAMED_WRITE_FIELDS, SCHEMA_GENERATIONS, schemaInGeneration } from '../../src/shared/schemaGeneration.js';
import { productionSchema } from '../support/productionSchema.js';
import { subsetProblems, undescribed } from './schemaSubset.js';

/**
 * schema.graphql as committed, and as a fork has it after docs/rename.md's steps (renamed by its
 * `sed` line; test/codegen/renameSteps.test.ts runs the steps and checks it is this): these tests
 * must pass on both (in a fork that followed the steps, both are the renamed one).
 */
const SCHEMAS = [
  { name: 'as committed', sdl: readFileSync(join(repoRoot, 'schema.graphql'), 'utf8') },
  { name: 'renamed by docs/rename.md', sdl: renameSchema(readFileSync(join(repoRoot, 'schema.graphql'), 'utf8')) },
];

describe.each(SCHEMAS)('schema.graphql $name', ({ sdl: schemaSdl }) => {
  let ours: GraphQLSchema;
  let production: GraphQLSchema;
  let oursSdl: string;

  beforeAll(() => {
    production = productionSchema();
    // Compared in production's generation: a fork that renamed schema.graphql before refreshing
    // the fixture is still checked field by field.
    oursSdl = schemaInGeneration(schemaSdl, generationOfSchema(production) ?? 'tags');
    ours = buildSchema(oursSdl);
  });

  it('is a faithful subset of the production schema', () => {
    expect(subsetProblems(ours, production)).toEqual([]);
  });

  it('holds exactly the root fields the client uses', () => {
    expect(Object.keys(ours.getQueryType()!.getFields()).sort()).toEqual([
      'getCabinet',
      'getCabinetLabelSetsById',
      'getCells',
      'getJob',
      'getJobs',
      'getLabelsPaginated',
      'getProjectCabinets',
      'getProjectsFinalReport',
    ]);
    expect(Object.keys(ours.getMutationType()!.getFields())).toEqual([
      'autoLabelTokenBasedProject',
      'createLabelSet',
      'updateProjectLabelSet',
      'appendLabelSetTagItems',
      'deleteLabelSet',
    ]);
  });

  it('reports a changed nullability, a missing field and an unknown enum value', () => {
    const broken = buildSchema(
      oursSdl
        .replace('progress: Int!', 'progress: Int')
        .replace('resultId: String', 'resultId: String\n  secretField: String')
        .replace('  CUSTOM\n}', '  CUSTOM\n  NOT_IN_PRODUCTION\n}'),
    );
    expect(subsetProblems(broken, production).sort()).toEqual([
      'enum value GqlAutoLabelServiceProvider.NOT_IN_PRODUCTION is not in production',
      'field Job.progress is Int, production says Int!',
      'field Job.secretField is not in production',
    ]);
  });

  it('reports a required production input field that ours leaves out', () => {
    const broken = buildSchema(oursSdl.replace(/\s+"""The model endpoint and its secret\."""\n\s+targetAPI: TargetApiInput!/, ''));
    expect(subsetProblems(broken, production)).toContain(
      'input field AutoLabelTokenBasedProjectInput.targetAPI is required in production but missing',
    );
  });

  it('describes every type, field and enum value', () => {
    expect(undescribed(ours)).toEqual([]);
  });
});

/** The .graphql files of a folder of the repository. */
async function graphqlFiles(folder: string): Promise<string[]> {
  return (await readdir(join(repoRoot, folder))).filter((f) => f.endsWith('.graphql')).sort();
}

describe('operations/', () => {
  it('holds one operation or fragment per file, named <name>.<kind>.graphql', async () => {
    for (const folder of ['operations']) {
      const files = await graphqlFiles(folder);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const doc = parse(await readFile(join(repoRoot, folder, file), 'utf8'));
        expect(doc.definitions).toHaveLength(1);
        const def = doc.definitions[0]!;
        const kind = def.kind === 'FragmentDefinition' ? 'fragment' : 'operation' in def ? def.operation : '?';
        const name = 'name' in def && def.name ? def.name.value : '';
        expect(file).toBe(`${file.split('.')[0]}.${kind}.graphql`);
        // The file is named after the service's field; the operation may say it in label words
        // (appendLabelSetTagItems.mutation.graphql holds AppendLabelSetLabelItems), by the rename rule.
        const base = file.split('.')[0]!;
        const renamed = RENAMED_WRITE_FIELDS.find((r) => r.tags === base)?.labels ?? base;
        expect([base, renamed].map((b) => name.toLowerCase().includes(b.toLowerCase().replace(/^get/, '')))).toContain(true);
      }
    }
  });

  it.each(SCHEMAS)('validates every operation against the production schema and ours ($name)', async ({ sdl: ourSdl }) => {
    const dir = join(repoRoot, 'operations');
    const sources = await Promise.all((await graphqlFiles('operations')).map((f) => readFile(join(dir, f), 'utf8')));
    const production = productionSchema();
    // operations/ may be written for either generation; codegen rewrites them for each, and
    // writes schema.graphql out whole in its own generation (codegen.ts): a schema renamed in
    // part, as the README's rename steps leave it (appendLabelSetTagItems may stay), is read so.
    const ourGeneration = generationOfSchema(ourSdl) ?? 'tags';
    const ours = buildSchema(schemaInGeneration(ourSdl, ourGeneration));
    const forProduction = parse(operationsInGeneration(sources.join('\n'), generationOfSchema(production) ?? 'tags'));
    const forOurs = parse(operationsInGeneration(sources.join('\n'), ourGeneration));
    expect(validate(production, forProduction).map((e) => e.message)).toEqual([]);
    expect(validate(ours, forOurs).map((e) => e.message)).toEqual([]);
  });

  it.each(SCHEMAS)('has no emulator-only query: every query the emulator serves is one production publishes ($name)', ({ sdl }) => {
    expect(existsSync(join(repoRoot, 'operations', 'emulator-only'))).toBe(false);
    const published = new Set(Object.keys(productionSchema().getQueryType()!.getFields()));
    for (const generation of SCHEMA_GENERATIONS) {
      const served = Object.keys(buildSchema(emulatorSchemaSource(sdl, generation)).getQueryType()!.getFields());
      expect(served.length).toBeGreaterThan(0);
      expect(served.filter((field) => !published.has(field))).toEqual([]);
    }
  });

  it('names the documents as the specification does', async () => {
    const read = (f: string) => readFile(join(repoRoot, 'operations', f), 'utf8');
    expect(await read('getCabinet.query.graphql')).toMatch(/query GetCabinet\(\$projectId: ID!, \$role: Role!\)/);
    expect(await read('getCabinetLabelSetsById.query.graphql')).toMatch(/query getCabinetLabelSetsById\(\$cabinetId: ID!\)/);
    expect(await read('autoLabelTokenBasedProject.mutation.graphql')).toMatch(
      /mutation AutoLabelTokenBasedProjectMutation\(\$input: AutoLabelTokenBasedProjectInput!\) \{\s+result: autoLabelTokenBasedProject\(input: \$input\) \{\s+id\s+status\s+progress\s+\}/,
    );
  });
});
