import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { productionSdl } from '../support/productionSchema.js';
import { argv, fakeIo } from './fakeIo.js';

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
    expect(lines(io.out())[0]).toMatch(/^compatible: no breaking change touches what labelkit uses \(0 breaking, 0 dangerous; \d+ other changes touch nothing labelkit uses\)$/);
    expect(lines(io.out()).at(-1)).toBe(
      schemaGeneration === 'labels'
        ? 'rename: done — the service says labelItems/labelName (the client switches on its own; to regenerate, follow the README)'
        : 'rename: not yet — the service still says tagItems/tagName',
    );
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
      otherChanges: expect.any(Number),
    });
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
    expect(lines(out).slice(1, -1).sort()).toEqual([
      "  BREAKING Job.progress: Field 'progress' was removed from object type 'Job'",
      "  BREAKING TargetApiInput.region: Input field 'region' of type 'String!' was added to input object type 'TargetApiInput'",
      "  DANGEROUS JobStatus.PAUSED: Enum value 'PAUSED' was added to enum 'JobStatus'",
    ]);
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
