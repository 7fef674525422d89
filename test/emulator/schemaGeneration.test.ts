import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';

const TAGS = '{ getCabinetLabelSetsById(cabinetId: "demo-project:labeler") { tagItems { id tagName } } }';
const LABELS = '{ getCabinetLabelSetsById(cabinetId: "demo-project:labeler") { labelItems { id labelName } } }';

async function ask(emulator: Emulator, query: string) {
  const res = await emulator.handle(
    new Request('http://emulator.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${emulator.token}` },
      body: JSON.stringify({ query }),
    }),
  );
  return (await res.json()) as { data?: { getCabinetLabelSetsById: Record<string, { id: string } & Record<string, string>[]>[] }; errors?: { message: string }[] };
}

describe('createEmulator schemaGeneration', () => {
  let emulator: Emulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('answers tagItems and tagName and refuses labelItems when the generation is tags (the default)', async () => {
    emulator = createEmulator();
    expect(emulator.schemaGeneration).toBe('tags');
    const ok = await ask(emulator, TAGS);
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.getCabinetLabelSetsById[0]!.tagItems!.map((i) => i.tagName)).toContain('PERSON');
    expect((await ask(emulator, LABELS)).errors?.[0]?.message).toBe('Cannot query field "labelItems" on type "LabelSet". Did you mean "tagItems"?');
  });

  it('answers labelItems and labelName and refuses tagItems when the generation is labels', async () => {
    emulator = createEmulator({ schemaGeneration: 'labels' });
    const ok = await ask(emulator, LABELS);
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.getCabinetLabelSetsById[0]!.labelItems!.map((i) => i.labelName)).toContain('PERSON');
    expect((await ask(emulator, TAGS)).errors?.map((e) => e.message)).toEqual(['Cannot query field "tagItems" on type "LabelSet". Did you mean "labelItems"?']);
    const tagNameOnly = '{ getCabinetLabelSetsById(cabinetId: "demo-project:labeler") { labelItems { tagName } } }';
    expect((await ask(emulator, tagNameOnly)).errors?.map((e) => e.message)).toEqual(['Cannot query field "tagName" on type "TagItem".']);
  });

  it('serves the same labels under the other names after setSchemaGeneration, keeping data and ids', async () => {
    emulator = createEmulator();
    const before = (await ask(emulator, TAGS)).data!.getCabinetLabelSetsById[0]!.tagItems!;
    emulator.setSchemaGeneration('labels');
    expect(emulator.schemaGeneration).toBe('labels');
    const after = (await ask(emulator, LABELS)).data!.getCabinetLabelSetsById[0]!.labelItems!;
    expect(after).toEqual(before.map((i) => ({ id: i.id, labelName: i.tagName })));
    expect((await ask(emulator, TAGS)).errors).toHaveLength(1);
    emulator.setSchemaGeneration('tags');
    expect((await ask(emulator, TAGS)).errors).toBeUndefined();
  });

  it('refuses an unknown generation', () => {
    expect(() => createEmulator({ schemaGeneration: 'tag' as 'tags' })).toThrow(/schemaGeneration must be 'tags' or 'labels', got "tag"/);
  });
});
