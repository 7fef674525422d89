import { print } from 'graphql';
import * as tagsDocuments from 'labelkit/documents';
import * as labelsDocuments from 'labelkit/documents/labels';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { readDoc } from '../support/docs.js';
import { productionSdl } from '../support/productionSchema.js';
import { argv, fakeIo } from '../support/fakeIo.js';

const lines = (text: string) => text.split('\n').filter(Boolean);

describe.each(SCHEMA_GENERATIONS)('labelkit schema check against the emulator speaking the %s schema', (schemaGeneration) => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ schemaGeneration });
  });
  afterAll(async () => {
    await emu.close();
  });
  const env = () => ({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token });

  it('exits 0, finds nothing breaking and says whether the rename has happened', async () => {
    const io = fakeIo(env());
    expect(await main(argv('schema', 'check'), io)).toBe(0);
    expect(lines(io.out())[0]).toMatch(/^compatible: .*\(0 breaking, 0 dangerous; \d+ other changes .*--verbose lists them/);
    expect(lines(io.out())).toHaveLength(3);
    // The documents line: which import path another client (urql, graphql-request) must use.
    expect(lines(io.out())[1]).toMatch(
      schemaGeneration === 'labels'
        ? /^documents: labelkit\/documents breaks .*\(\d+ breaking: .*LabelSet\.tagItems.*\).*must import labelkit\/documents\/labels instead, which passes/
        : /^documents: labelkit\/documents passes .*; labelkit\/documents\/labels breaks .*\(\d+ breaking: .*LabelSet\.labelItems.*\).*before the rename/,
    );
    expect(lines(io.out()).at(-1)).toMatch(schemaGeneration === 'labels' ? /^rename: done — .*labelItems\/labelName.*docs\/rename\.md/ : /^rename: not yet — .*tagItems\/tagName/);
    expect(io.err()).toBe('');
  });

  it('prints one JSON object with --json', async () => {
    const io = fakeIo(env());
    expect(await main(argv('schema', 'check', '--json'), io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual({
      url: emu.url,
      compatible: true,
      serviceGeneration: schemaGeneration,
      renamed: schemaGeneration === 'labels',
      breaking: [],
      dangerous: [],
      documents: [
        { entry: 'labelkit/documents', generation: 'tags', compatible: schemaGeneration === 'tags', breaking: schemaGeneration === 'tags' ? [] : expect.arrayContaining([expect.objectContaining({ level: 'BREAKING', path: 'LabelSet.tagItems' })]) },
        { entry: 'labelkit/documents/labels', generation: 'labels', compatible: schemaGeneration === 'labels', breaking: schemaGeneration === 'labels' ? [] : expect.arrayContaining([expect.objectContaining({ level: 'BREAKING', path: 'LabelSet.labelItems' })]) },
      ],
      // Every other change, listed (not only counted): e.g. the enum values the service has beyond
      // those labelkit's schema.graphql names.
      otherChanges: expect.arrayContaining([expect.objectContaining({ type: 'ENUM_VALUE_ADDED', path: 'GqlAutoLabelServiceProvider.HUGGINGFACE', level: 'DANGEROUS' })]),
    });
  });

  it('lists every other change with --verbose, one line each, as many as --json has', async () => {
    const json = fakeIo(env());
    await main(argv('schema', 'check', '--json'), json);
    const { otherChanges, documents } = JSON.parse(json.out()) as { otherChanges: { level: string; path: string; message: string }[]; documents: { compatible: boolean; breaking: { path: string; message: string }[] }[] };
    expect(otherChanges.length).toBeGreaterThan(0);
    const io = fakeIo(env());
    expect(await main(argv('schema', 'check', '--verbose'), io)).toBe(0);
    const out = lines(io.out());
    expect(out[0]).toContain(`${otherChanges.length} other changes touch nothing labelkit uses, listed below`);
    const start = out.indexOf(`other changes (${otherChanges.length}), touching nothing labelkit uses:`);
    expect(start).toBeGreaterThan(0);
    const oneLine = (message: string) => message.replace(/\s*\n\s*/g, ' ');
    expect(out.slice(start + 1, start + 1 + otherChanges.length)).toEqual(otherChanges.map((c) => `  ${c.level} ${c.path}: ${oneLine(c.message)}`));
    // …and the breaking changes of the entry of documents that does not pass here.
    const failing = documents.find((d) => !d.compatible)!;
    for (const b of failing.breaking) expect(out).toContain(`  BREAKING ${b.path}: ${oneLine(b.message)}`);
  });

  it('finds, beyond schema.graphql, only the provider values docs/emulator.md says the emulator adds, as many as it says', async () => {
    const io = fakeIo(env());
    expect(await main(argv('schema', 'check', '--json'), io)).toBe(0);
    const { otherChanges } = JSON.parse(io.out()) as { otherChanges: { type: string; path: string }[] };
    const page = readDoc('docs/emulator.md');
    const paragraph = page.split('\n\n').find((p) => p.includes('GqlAutoLabelServiceProvider') && /other changes/.test(p)) ?? '';
    const named = [...paragraph.matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1]!).filter((v) => v !== 'CUSTOM');
    expect(otherChanges.map((c) => `${c.type} ${c.path}`).sort()).toEqual(named.map((v) => `ENUM_VALUE_ADDED GqlAutoLabelServiceProvider.${v}`).sort());
    expect(paragraph).toContain(`"${otherChanges.length} other changes"`);
  });

  it('is right about the documents: sent as another client sends them, the entry it calls broken fails and the other works', async () => {
    const io = fakeIo(env());
    await main(argv('schema', 'check', '--json'), io);
    const { documents } = JSON.parse(io.out()) as { documents: { entry: string; compatible: boolean }[] };
    const modules = { 'labelkit/documents': tagsDocuments, 'labelkit/documents/labels': labelsDocuments };
    for (const { entry, compatible } of documents) {
      // What graphql-request does with a typed document: POST its printed text.
      const query = print(modules[entry as keyof typeof modules].GetCabinetLabelSetsByIdDocument);
      const response = await fetch(emu.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { cabinetId: 'demo-project:labeler' } }),
      });
      const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
      expect(body.errors === undefined, `${entry}: ${JSON.stringify(body.errors)}`).toBe(compatible);
    }
  });

  it('exits 3 without printing the token when the token is wrong', async () => {
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: 'wrong-SENTINEL-token' });
    expect(await main(argv('schema', 'check'), io)).toBe(3);
    expect(io.err()).toMatch(/^labelkit: \[Auth\]/);
    expect(io.out() + io.err()).not.toContain('wrong-SENTINEL-token');
  });
});

describe('labelkit schema check against other schemas', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const check = async (typeDefs: string, ...flags: string[]) => {
    const scalars = [...typeDefs.matchAll(/^scalar (\w+)/gm)].map((m) => m[1]!);
    server = await startMockServer({ typeDefs, mocks: Object.fromEntries(scalars.map((s) => [s, () => ({})])) });
    const io = fakeIo({ LABELKIT_URL: server.url, LABELKIT_TOKEN: 'test-token' });
    const code = await main(argv('schema', 'check', ...flags), io);
    return { code, out: io.out(), err: io.err() };
  };

  it('exits 0 against the whole production schema, leaving out what labelkit does not use', async () => {
    const { code, out } = await check(productionSdl());
    expect(code).toBe(0);
    // Production has ten more service providers: labelkit only sends CUSTOM, so they do not count.
    expect(lines(out)[0]).toMatch(/^compatible: .*\(0 breaking, 0 dangerous; \d{4,} other changes/);
    expect(lines(out).at(-1)).toBe('rename: not yet — the service still says tagItems/tagName');
  });

  it('exits 8 and lists each breaking and dangerous change to what labelkit uses', async () => {
    const sdl = productionSdl()
      .replace(/(type Job \{[^}]*?)\n\s+progress: Int!/, '$1')
      .replace(/(input TargetApiInput \{[^}]*?secretKey: String!)/, '$1\n  region: String!')
      .replace(/(enum JobStatus \{)/, '$1\n  PAUSED');
    const { code, out } = await check(sdl);
    expect(code).toBe(8);
    expect(lines(out)[0]).toMatch(/^incompatible: the service's schema breaks what labelkit uses \(2 breaking, 1 dangerous;/);
    expect(lines(out).slice(1, -2).sort()).toEqual([
      expect.stringMatching(/^ {2}BREAKING Job\.progress: .*removed/),
      expect.stringMatching(/^ {2}BREAKING TargetApiInput\.region: .*'String!'.*added/),
      expect.stringMatching(/^ {2}DANGEROUS JobStatus\.PAUSED: .*added/),
    ]);
    expect(lines(out).at(-2)).toMatch(/^documents: neither entry passes .*labelkit\/documents: 2 breaking: Job\.progress, TargetApiInput\.region; labelkit\/documents\/labels: \d+ breaking: /);
  });

  it('says it cannot tell about the rename when the service has neither name, and counts the missing fields as breaking', async () => {
    const { code, out } = await check(productionSdl().replace(/(type LabelSet \{[^}]*?)\btagItems:/, '$1items:'), '--json');
    expect(code).toBe(8);
    const result = JSON.parse(out) as { renamed: unknown; serviceGeneration: unknown; breaking: { path: string }[] };
    expect(result.renamed).toBeUndefined();
    expect(result.serviceGeneration).toBeUndefined();
    expect(result.breaking.map((b) => b.path)).toEqual(['LabelSet.tagItems']);
  });
});
