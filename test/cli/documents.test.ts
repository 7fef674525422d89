// `labelkit documents check` and `documents migrate`, in process, on a small app written to a
// temporary folder: .graphql files and tagged templates in a .ts file, a fragment used from
// another file, the codegen configuration's `documents` as the default globs.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startMockServer } from '../support/mockServer.js';
import { projectSdl } from '../support/mockServer.js';
import { useTempDirs } from '../support/tempDirs.js';
import { argv, fakeIo } from '../support/fakeIo.js';

const tempDir = useTempDirs();

const FILES: Record<string, string> = {
  'codegen.ts': "const config = { schema: resolve('labelkit/schema.graphql'), documents: ['src/**/*.graphql', 'src/**/*.ts'], generates: {} };\nexport default config;\n",
  // Comments, odd spacing and a fragment from another file: all kept by the rewrite.
  'src/names.query.graphql': [
    '# The label sets of a cabinet.',
    'query LabelSetNames($cabinetId: ID!) {',
    '  sets: getCabinetLabelSetsById(cabinetId: $cabinetId) {',
    '    name',
    '    tagItems   {  # each label',
    '      ...ItemFields',
    '      tagName',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/item.fragment.graphql': 'fragment ItemFields on TagItem {\n  id\n  color\n}\n',
  // Already aliased: `items` stays the result key in every form.
  'src/aliased.query.graphql': 'query Aliased($cabinetId: ID!) {\n  getCabinetLabelSetsById(cabinetId: $cabinetId) {\n    items: tagItems { id }\n  }\n}\n',
  'src/jobs.ts': [
    "import { gql } from 'graphql-tag';",
    'const fields = gql`fragment JobBits on Job { id status }`;',
    'export const Jobs = gql`',
    '  query Jobs { getJob(jobId: "j") { ...JobBits ${fields} bogus } }',
    '`;',
    'export const Append = graphql(`mutation Append($id: ID!, $items: [AppendTagItemInput!]!) {',
    '  appendLabelSetTagItems(input: { labelSetId: $id, tagItems: $items }) { id }',
    '}`);',
    '',
  ].join('\n'),
};

function app(): string {
  const dir = tempDir('labelkit-documents-');
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function run(args: string[], env: Record<string, string> = {}) {
  const io = fakeIo(env);
  const code = await main(argv(...args), io);
  return { code, out: io.out(), err: io.err(), lines: io.out().split('\n').filter(Boolean) };
}

describe('labelkit documents check', () => {
  it('names each problem at file:line:column with its operation and schema, reads the codegen globs, exits 8 and says not ready', async () => {
    const dir = app();
    const r = await run(['documents', 'check', '--dir', dir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(8);
    expect(r.lines).toEqual([
      'src/jobs.ts:4:58 query Jobs: breaks on today\'s schema and the renamed schema: Cannot query field "bogus" on type "Job".',
      'src/jobs.ts:7:3 mutation Append: breaks on the renamed schema: Cannot query field "appendLabelSetTagItems" on type "Mutation". Did you mean "appendLabelSetLabelItems"?; fix: labelkit documents migrate --to both',
      'src/names.query.graphql:5:5 query LabelSetNames: breaks on the renamed schema: Cannot query field "tagItems" on type "LabelSet". Did you mean "labelItems"?; fix: labelkit documents migrate --to both',
      "checked 4 operations and 2 fragments in 4 files (src/**/*.graphql src/**/*.ts, from codegen.ts) against today's schema, the renamed schema",
      'ready for rename day: no (run labelkit documents migrate --to both)',
    ]);
  });

  it('takes globs as arguments, prints JSON, and exits 0 when everything is valid', async () => {
    const dir = app();
    const r = await run(['documents', 'check', '--dir', dir, '--json', 'src/item.fragment.graphql', 'src/aliased.query.graphql']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      globs: { globs: ['src/item.fragment.graphql', 'src/aliased.query.graphql'], from: 'arguments' },
      files: 2,
      operations: 1,
      fragments: 1,
      problems: [],
      checkedToday: true,
      ready: true,
    });
  });

  it('exits 2 for text that is not GraphQL, naming every place, and when nothing matches', async () => {
    const dir = app();
    writeFileSync(join(dir, 'src', 'broken.graphql'), 'query {\n  getJob(jobId: "j") { id\n');
    writeFileSync(join(dir, 'src', 'broken2.graphql'), 'query Q { ... }\n');
    const r = await run(['documents', 'check', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('src/broken.graphql:3:1: Syntax Error: Expected Name, found <EOF>.');
    expect(r.err).toContain('src/broken2.graphql:1:15: Syntax Error');
    const none = await run(['documents', 'check', '--dir', dir, 'nothing/**/*.graphql']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('no file matches nothing/**/*.graphql');
  });

  it('defaults to **/*.graphql without a codegen configuration, leaving node_modules out', async () => {
    const dir = tempDir('labelkit-documents-');
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'x', 'bad.graphql'), 'query { nothing }');
    writeFileSync(join(dir, 'ok.graphql'), FILES['src/item.fragment.graphql']!);
    const r = await run(['documents', 'check', '--dir', dir]);
    expect([r.code, r.lines.at(-2)]).toEqual([0, "checked 0 operations and 1 fragment in 1 file (**/*.graphql, the default) against today's schema, the renamed schema"]);
  });

  it('reports a deprecated field of the live service, on the line that selects it', async () => {
    const server = await startMockServer({ typeDefs: `${projectSdl}\nextend type Job { percent: Int @deprecated(reason: "Use progress.") }\n`, validTokens: ['t0k'] });
    try {
      const dir = tempDir('labelkit-documents-');
      writeFileSync(join(dir, 'job.graphql'), 'query Job {\n  getJob(jobId: "j") {\n    percent\n  }\n}\n');
      const r = await run(['documents', 'check', '--dir', dir, '--url', server.url], { LABELKIT_TOKEN: 't0k' });
      // percent is not in labelkit's schemas (it breaks there) and is deprecated on the service.
      expect(r.lines.filter((l) => l.startsWith('job.graphql'))).toEqual([
        'job.graphql:3:5 query Job: breaks on today\'s schema and the renamed schema: Cannot query field "percent" on type "Job".',
        'job.graphql:3:5 query Job: deprecated on the service: The field Job.percent is deprecated. Use progress.',
      ]);
      expect(r.code).toBe(8);
    } finally {
      await server.close();
    }
  });
});

describe('rename day against the emulator: check, migrate --to both, migrate --to labels', () => {
  const emulators = {} as Record<'tags' | 'labels', RunningEmulator>;
  beforeAll(async () => {
    [emulators.tags, emulators.labels] = await Promise.all([startEmulator({ schemaGeneration: 'tags' }), startEmulator({ schemaGeneration: 'labels' })]);
  });
  afterAll(async () => {
    await Promise.all(Object.values(emulators).map((e) => e.close()));
  });
  const live = (g: 'tags' | 'labels') => ['--url', emulators[g].url];
  const env = (g: 'tags' | 'labels') => ({ LABELKIT_TOKEN: emulators[g].token });
  const globs = ['src/**/*.graphql'];

  it('moves the documents with only the renamed fields changed, byte for byte elsewhere', async () => {
    const dir = app();
    const before = readFileSync(join(dir, 'src/names.query.graphql'), 'utf8');
    // The renamed service refuses today's documents, each line named.
    const onRenamed = await run(['documents', 'check', '--dir', dir, ...live('labels'), ...globs], env('labels'));
    expect(onRenamed.code).toBe(8);
    expect(onRenamed.lines.filter((l) => l.includes('the service:'))).toEqual([
      'src/aliased.query.graphql:3:5 query Aliased: breaks on the service: Cannot query field "tagItems" on type "LabelSet". Did you mean "labelItems"?',
      'src/names.query.graphql:5:5 query LabelSetNames: breaks on the renamed schema and the service: Cannot query field "tagItems" on type "LabelSet". Did you mean "labelItems"?; fix: labelkit documents migrate --to both',
    ]);

    // --check: exit 9, nothing written.
    const due = await run(['documents', 'migrate', '--to', 'both', '--check', '--dir', dir, ...globs]);
    expect(due.code).toBe(9);
    expect(readFileSync(join(dir, 'src/names.query.graphql'), 'utf8')).toBe(before);

    const both = await run(['documents', 'migrate', '--to', 'both', '--dir', dir, ...globs]);
    expect(both.code).toBe(0);
    expect(both.lines).toEqual([
      '--- src/names.query.graphql',
      '+++ src/names.query.graphql',
      '@@ -5 +5 @@',
      '-    tagItems   {  # each label',
      '+    labelItems: tagItems   {  # each label',
      '@@ -7 +7 @@',
      '-      tagName',
      '+      labelName: tagName',
      expect.stringMatching(/^rewrote 1 file of 3 for --to both: /),
    ]);
    expect(readFileSync(join(dir, 'codegen.ts'), 'utf8')).toBe(FILES['codegen.ts']);
    const bothText = readFileSync(join(dir, 'src/names.query.graphql'), 'utf8');
    expect(bothText).toBe(before.replace('tagItems   {', 'labelItems: tagItems   {').replace('      tagName', '      labelName: tagName'));
    // Ready, and valid on today's service; a second run has nothing to do.
    const ready = await run(['documents', 'check', '--dir', dir, ...live('tags'), ...globs], env('tags'));
    expect([ready.code, ready.lines.at(-1)], ready.out).toEqual([0, 'ready for rename day: yes']);
    expect((await run(['documents', 'migrate', '--to', 'both', '--check', '--dir', dir, ...globs])).code).toBe(0);

    // Rename day: the aliases go, and nothing else.
    const labels = await run(['documents', 'migrate', '--to', 'labels', '--dir', dir, ...globs]);
    expect(labels.code).toBe(0);
    // The codegen configuration now generates against the renamed SDL.
    expect(labels.lines).toContain("+const config = { schema: resolve('labelkit/schema.labels.graphql'), documents: ['src/**/*.graphql', 'src/**/*.ts'], generates: {} };");
    expect(readFileSync(join(dir, 'codegen.ts'), 'utf8')).toBe(FILES['codegen.ts']!.replace('schema.graphql', 'schema.labels.graphql'));
    expect(readFileSync(join(dir, 'src/names.query.graphql'), 'utf8')).toBe(bothText.replace('labelItems: tagItems', 'labelItems').replace('labelName: tagName', 'labelName'));
    expect(readFileSync(join(dir, 'src/aliased.query.graphql'), 'utf8')).toBe(FILES['src/aliased.query.graphql']!.replace('items: tagItems', 'items: labelItems'));
    const after = await run(['documents', 'check', '--dir', dir, ...live('labels'), ...globs], env('labels'));
    expect([after.code, after.lines.at(-1)], after.out).toEqual([0, 'ready for rename day: yes']);
    expect(after.lines.at(-2)).toContain("(not today's: the service has been renamed)");
  });

  it('rewrites tagged templates inside the code, the code around them untouched', async () => {
    const dir = app();
    const r = await run(['documents', 'migrate', '--to', 'both', '--dir', dir, 'src/jobs.ts']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'src/jobs.ts'), 'utf8')).toBe(
      FILES['src/jobs.ts']!.replace('appendLabelSetTagItems(', 'appendLabelSetLabelItems: appendLabelSetTagItems('),
    );
    await run(['documents', 'migrate', '--to', 'labels', '--dir', dir, 'src/jobs.ts']);
    expect(readFileSync(join(dir, 'src/jobs.ts'), 'utf8')).toBe(
      FILES['src/jobs.ts']!.replace('appendLabelSetTagItems(', 'appendLabelSetLabelItems(').replace('tagItems: $items', 'labelItems: $items'),
    );
  });

  it('refuses a missing or unknown --to before reading anything', async () => {
    const r = await run(['documents', 'migrate', '--to', 'label']);
    expect([r.code, r.err]).toEqual([2, expect.stringContaining("--to: must be 'both' or 'labels'")]);
  });
});
