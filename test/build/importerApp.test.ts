// docs/rename.md's "Your own operations on rename day", run as printed on the fixture app
// test/fixtures/importer-app (its operations written against today's schema): the recipe for the
// day before (migrate --to both, codegen, check) and the one for the day (migrate --to labels,
// codegen, check), with codegen's types compared across the day, strict tsc, and the app run
// against the emulator in each generation. The app's node_modules link this checkout's built
// packages and its generator (no network); `npm run build` first by hand. The app's strict tsc
// (four compiles: today, after the day before's regeneration, after the edit, after the day) runs
// in this process with one cache of parsed files (test/support/tsc.ts): tsc's diagnostics and
// emit, without parsing the lib, @types/node and the packages' declarations four times.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { codeBlocks, docSection } from '../support/docs.js';
import { useTempDirs } from '../support/tempDirs.js';
import { tsc as tscIn } from '../support/tsc.js';

const root = join(import.meta.dirname, '..', '..');
const tempDir = useTempDirs();

interface Run {
  code: number;
  stdout: string;
  output: string;
}

function exec(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, ...env }, timeout: 400_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, output: `${stdout}${stderr}` }),
    );
  });
}

/** The fixture app in a folder of its own, its node_modules linked to this checkout's. */
function fixtureApp(): string {
  const dir = tempDir('labelkit-importer-');
  cpSync(join(root, 'test', 'fixtures', 'importer-app'), dir, { recursive: true });
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  mkdirSync(join(modules, '@types'), { recursive: true });
  symlinkSync(join(root, 'packages', 'labelkit'), join(modules, 'labelkit'));
  symlinkSync(join(root, 'packages', 'labelkit-tools'), join(modules, 'labelkit-tools'));
  symlinkSync(join(root, 'node_modules', '@graphql-codegen'), join(modules, '@graphql-codegen'));
  symlinkSync(join(root, 'node_modules', 'graphql'), join(modules, 'graphql'));
  symlinkSync(join(root, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'));
  symlinkSync(join(root, 'packages', 'labelkit-tools', 'bin', 'labelkit.js'), join(modules, '.bin', 'labelkit'));
  symlinkSync(join(root, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js'), join(modules, '.bin', 'graphql-codegen'));
  return dir;
}

/** The page's two recipes, as printed: the day before, and the day. */
function recipes(): { before: string; day: string } {
  const blocks = codeBlocks(docSection('Your own operations on rename day').text).filter((b) => b.lang === 'shell');
  expect(blocks).toHaveLength(2);
  return { before: blocks[0]!.text, day: blocks[1]!.text };
}

/** `export type Name = …;` declarations of a generated file, by name. */
function declaredTypes(file: string): Map<string, string> {
  const text = readFileSync(file, 'utf8');
  return new Map([...text.matchAll(/^export type (\w+) = ([\s\S]*?);$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** tsc's diagnostics as `file(line): TSxxxx`. */
const diagnostics = (run: { output: string }) => [...run.output.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+)/gm)].map((m) => `${m[1]}(${m[2]}): ${m[3]}`);

describe("rename day for an importer's own operations (docs/rename.md, as printed)", () => {
  const emulators = {} as Record<'tags' | 'labels', RunningEmulator>;
  let dir: string;
  const tsc = () => tscIn(dir, 'tsconfig.json');
  const runApp = async (g: 'tags' | 'labels') => {
    const built = tsc();
    expect(built.output).toBe('');
    return exec(process.execPath, ['src/app.js'], dir, { LABELKIT_URL: emulators[g].url, LABELKIT_TOKEN: emulators[g].token, LABELKIT_PROJECT: 'demo-project' });
  };
  const bash = (script: string, g: 'tags' | 'labels') => exec('bash', ['-e', '-c', script], dir, { LABELKIT_URL: emulators[g].url, LABELKIT_TOKEN: emulators[g].token });

  beforeAll(async () => {
    [emulators.tags, emulators.labels] = await Promise.all([startEmulator({ schemaGeneration: 'tags' }), startEmulator({ schemaGeneration: 'labels' })]);
    dir = fixtureApp();
  });
  afterAll(async () => {
    await Promise.all(Object.values(emulators).map((e) => e.close()));
  });

  it('moves the app: types identical across the day, strict tsc, and the same output in both generations', async () => {
    const { before, day } = recipes();
    // Today: the app as written runs on today's service; the renamed one refuses each of its operations.
    expect((await exec(join(dir, 'node_modules', '.bin', 'graphql-codegen'), [], dir)).code).toBe(0);
    const today = await runApp('tags');
    expect(today.code, today.output).toBe(0);
    expect(today.stdout).toMatch(/^Entities ENTITY, PERSON, ORGANIZATION, LOCATION, DATE\ntop level: ENTITY, DATE\n$/);
    const refused = await exec(join(dir, 'node_modules', '.bin', 'labelkit'), ['documents', 'check', '--url', emulators.labels.url], dir, { LABELKIT_TOKEN: emulators.labels.token });
    expect(refused.code).toBe(8);
    expect(refused.stdout.split('\n').filter((l) => l.includes('the service:')).map((l) => l.replace(/: Cannot.*/, ''))).toEqual([
      'src/appendLabels.mutation.graphql:3:3 mutation AppendLabels: breaks on the renamed schema and the service',
      'src/labelSetNames.query.graphql:5:5 query LabelSetNames: breaks on the renamed schema and the service',
      'src/topLevel.query.graphql:4:5 query TopLevel: breaks on the renamed schema and the service',
    ]);

    // The day before, as printed: the both form, regenerated, checked against today's service.
    const prepared = await bash(before, 'tags');
    expect(prepared.code, prepared.output).toBe(0);
    expect(prepared.stdout.trim().split('\n').at(-1)).toBe('ready for rename day: yes');
    expect(readFileSync(join(dir, 'src/labelSetNames.query.graphql'), 'utf8')).toBe(
      readFileSync(join(root, 'test/fixtures/importer-app/src/labelSetNames.query.graphql'), 'utf8').replace('tagItems {', 'labelItems: tagItems {').replace('  tagName\n', '  labelName: tagName\n'),
    );
    // The result keys now say label: tsc names each line of the app that reads the old ones, and only those.
    const stale = tsc();
    expect([...new Set(diagnostics(stale).map((d) => d.split(':')[0]))]).toEqual(['src/app.ts(10)', 'src/app.ts(12)']);
    const app = readFileSync(join(dir, 'src/app.ts'), 'utf8');
    writeFileSync(join(dir, 'src/app.ts'), app.replace('set.tagItems.map((item) => item.tagName)', 'set.labelItems.map((item) => item.labelName)').replace('map((item) => item.tagName));', 'map((item) => item.labelName));'));
    const prepatedRun = await runApp('tags');
    expect([prepatedRun.code, prepatedRun.stdout], prepatedRun.output).toEqual([0, today.stdout]);
    const typesBefore = declaredTypes(join(dir, 'src/generated/graphql.ts'));
    mkdirSync(join(dir, 'src/before'));
    cpSync(join(dir, 'src/generated/graphql.ts'), join(dir, 'src/before/graphql.ts'));
    const appBefore = readFileSync(join(dir, 'src/app.ts'), 'utf8');

    // The day, as printed, against the renamed service.
    const moved = await bash(day, 'labels');
    expect(moved.code, moved.output).toBe(0);
    expect(moved.stdout.trim().split('\n').at(-1)).toBe('ready for rename day: yes');
    expect(readFileSync(join(dir, 'codegen.ts'), 'utf8')).toContain("resolve('labelkit/schema.labels.graphql')");
    const typesAfter = declaredTypes(join(dir, 'src/generated/graphql.ts'));
    expect([...typesAfter.keys()].sort()).toEqual([...typesBefore.keys()].sort());
    // Every result and variables type is the same type (tsc decides: codegen orders aliased fields
    // after the others, so the text may differ), but the write's variables, whose input fields the
    // service renames: they are the same once tagItems/tagName say labelItems/labelName.
    const operations = [...typesBefore.keys()].filter((n) => /(Query|Mutation|Fragment|Variables)$/.test(n));
    expect(operations).toHaveLength(7);
    const differ = ['AppendLabelsMutationVariables', 'AppendLabelSetTagItemsInput', 'AppendTagItemInput'];
    const same = operations.filter((n) => !differ.includes(n));
    writeFileSync(
      join(dir, 'src/sameTypes.ts'),
      [
        "import type * as Before from './before/graphql.js';",
        "import type * as After from './generated/graphql.js';",
        'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;',
        'type Mutual<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;',
        "type Renamed<K> = K extends 'tagItems' ? 'labelItems' : K extends 'tagName' ? 'labelName' : K;",
        'type Deep<T> = T extends Array<infer U> ? Array<Deep<U>> : T extends object ? { [K in keyof T as Renamed<K>]: Deep<T[K]> } : T;',
        ...same.map((n) => `export const same${n}: Equal<Before.${n}, After.${n}> = true;`),
        ...differ.map((n) => `export const differs${n}: Equal<Before.${n}, After.${n}> = false;`),
        ...differ.map((n) => `export const renamed${n}: Mutual<Deep<Before.${n}>, After.${n}> = true;`),
        '',
      ].join('\n'),
    );
    // The app's code is unchanged and compiles strict; it prints the same on the renamed service.
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe(appBefore);
    const after = await runApp('labels');
    expect([after.code, after.stdout], after.output).toEqual([0, today.stdout]);
  }, 900_000);
});
