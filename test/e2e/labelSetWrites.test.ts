import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appendLabelItems, createLabelingClient, createLabelSet, deleteLabelSet, getProjectLabelSets, startAutoLabel, updateLabelSet, ValidationError, waitForJobOrThrow } from '../../src/client/index.js';
import { GraphQLRequestError } from '../../src/client/errors.js';
import { renamedFieldMessage as renamedWriteMessage } from '../../src/client/renameSwitch.js';
import type { LabelingClient, LabelItemInput, LabelSet, SchemaChangeEvent } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import { countAppliedLabels } from '../../src/labelSets/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { PAGE_COOKIE } from '../../src/emulator/pages/pageAccess.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';

const SECRET = 'label-set-writes-SENTINEL-3e8a';

/** What a client sent: operation name, query text and variables of every GraphQL request. */
function recordingFetch() {
  const sent: { operationName: string; query: string; variables: Record<string, unknown> }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as (typeof sent)[number]);
    return fetch(input, init);
  };
  return { sent, fetchFn };
}

/** The demo set's labels as a write takes them (label words). */
const asInput = (set: LabelSet): LabelItemInput[] => set.labelItems.map(({ id, parentId, labelName, color, desc }) => ({ id, parentId, labelName, color, desc }));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

let model: { url: string; close(): Promise<void> };
beforeAll(async () => {
  model = await startModelServer({ secretKey: SECRET, predict: createSampleModel() });
});
afterAll(async () => {
  await model.close();
});

describe.each(SCHEMA_GENERATIONS)('label-set writes against the emulator speaking the %s schema', (schemaGeneration) => {
  let emu: RunningEmulator;
  let client: LabelingClient;
  let sent: ReturnType<typeof recordingFetch>['sent'];
  const onSchemaChange = vi.fn<(event: SchemaChangeEvent) => void>();
  const itemsKey = schemaGeneration === 'tags' ? 'tagItems' : 'labelItems';
  const nameKey = schemaGeneration === 'tags' ? 'tagName' : 'labelName';

  beforeEach(async () => {
    emu = await startEmulator({ schemaGeneration });
    const recording = recordingFetch();
    sent = recording.sent;
    onSchemaChange.mockClear();
    client = createLabelingClient({ url: emu.url, token: emu.token, schemaGeneration, onSchemaChange, fetch: recording.fetchFn, poll: { intervalMs: 10, maxIntervalMs: 50 } });
  });
  afterEach(async () => {
    client.close();
    await emu.close();
  });

  const sets = () => getProjectLabelSets(client, DEMO_PROJECT_ID, 'LABELER');
  const demoSet = async () => (await sets())[0]!;
  /** Runs the sample model over the demo project, so that its labels are applied; returns the counts per label id of set 1. */
  async function applyLabels(): Promise<Record<string, number>> {
    const job = await startAutoLabel(client, 
      { projectId: DEMO_PROJECT_ID, labelerEmail: 'ann@example.com', options: { numberOfFilesPerRequest: 3 }, targetAPI: { endpoint: model.url, secretKey: SECRET } },
      { allowInsecureEndpoint: true },
    );
    await waitForJobOrThrow(client, job.id, { timeoutMs: 20_000 });
    return counts();
  }
  /** The applied labels per label id of set 1, counted from the service's reads (every copy, page by page). */
  async function counts(): Promise<Record<string, number>> {
    return { ...(await countAppliedLabels(client, DEMO_PROJECT_ID, await sets()))['1'] };
  }
  const appliedNames = () => emu.emulator.store.labelsOf(DEMO_PROJECT_ID).flatMap((c) => c.documents.flatMap((d) => d.lines.flatMap((l) => l.entities.map((e) => e.label))));

  it('creates a set that reads back the same, sending the generation’s words', async () => {
    const created = await createLabelSet(client, DEMO_PROJECT_ID, {
      index: 1,
      name: 'Sentiment',
      labelItems: [
        { id: 'pos', labelName: 'POSITIVE', color: '#22c55e', desc: 'Good' },
        { id: 'very', parentId: 'pos', labelName: 'VERY POSITIVE' },
      ],
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      index: 1,
      name: 'Sentiment',
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      labelItems: [
        { id: 'pos', parentId: null, labelName: 'POSITIVE', color: '#22c55e', desc: 'Good' },
        { id: 'very', parentId: 'pos', labelName: 'VERY POSITIVE', color: null, desc: null },
      ],
    });
    expect((await sets())[1]).toEqual(created);
    const request = sent.find((r) => r.operationName === 'CreateLabelSet')!;
    const input = request.variables.input as Record<string, { [key: string]: unknown }[]>;
    expect(input[itemsKey]![0]![nameKey]).toBe('POSITIVE');
    expect(Object.keys(input).sort()).toEqual(['index', itemsKey, 'name'].sort());
    expect(request.query).toContain(schemaGeneration === 'tags' ? 'labelItems: tagItems' : 'labelItems {');
    expect(onSchemaChange).not.toHaveBeenCalled();
  });

  it('renames a set keeping its signature, and replaces its labels with a new one', async () => {
    const before = await demoSet();
    const renamed = await updateLabelSet(client, { id: before.id, projectId: DEMO_PROJECT_ID, labelSetSignature: before.signature!, name: 'Named entities' });
    expect(renamed).toEqual({ ...before, name: 'Named entities' });
    const items = asInput(before).map((i) => (i.id === '14' ? { ...i, labelName: 'WHEN', color: '#000000' } : i));
    const replaced = await updateLabelSet(client, { id: before.id, projectId: DEMO_PROJECT_ID, labelSetSignature: renamed.signature!, labelItems: items });
    expect(replaced.labelItems.find((i) => i.id === '14')).toEqual({ id: '14', parentId: null, labelName: 'WHEN', color: '#000000', desc: 'A day, month or year' });
    expect(replaced.signature).not.toBe(before.signature);
    expect(await demoSet()).toEqual(replaced);
  });

  it('refuses a write with a stale signature and changes nothing', async () => {
    const read = await demoSet();
    await updateLabelSet(client, { id: read.id, projectId: DEMO_PROJECT_ID, labelItems: asInput(read).map((i) => ({ ...i, desc: 'changed by someone else' })) });
    const error = await rejection(appendLabelItems(client, { labelSetId: read.id, labelSetSignature: read.signature!, labelItems: [{ labelName: 'EVENT' }] }));
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect((error as GraphQLRequestError).graphQLErrors[0]).toMatchObject({ extensions: { code: 'STALE_SIGNATURE', field: 'input.labelSetSignature' } });
    expect((error as GraphQLRequestError).message).toMatch(/^\[GraphQL\] label set "1" changed since its signature was read/);
    expect((await demoSet()).labelItems.map((i) => i.labelName)).not.toContain('EVENT');
    expect(sent.filter((r) => r.operationName === 'AppendLabelSetLabelItems')).toHaveLength(1); // a mutation is never retried
  });

  it('appends top-level labels and answers only them, with the ids the service generated', async () => {
    const read = await demoSet();
    const added = await appendLabelItems(client, {
      labelSetId: read.id,
      labelSetSignature: read.signature!,
      labelItems: [{ labelName: 'EVENT', color: '#a855f7' }, { id: 'misc', labelName: 'MISC', desc: 'The rest' }],
    });
    expect(added).toEqual([
      { id: '15', parentId: null, labelName: 'EVENT', color: '#a855f7', desc: null },
      { id: 'misc', parentId: null, labelName: 'MISC', color: null, desc: 'The rest' },
    ]);
    const after = await demoSet();
    expect(after.labelItems).toEqual([...read.labelItems, ...added]);
    const request = sent.find((r) => r.operationName === 'AppendLabelSetLabelItems')!;
    expect(request.query).toContain(schemaGeneration === 'tags' ? 'appendLabelSetLabelItems: appendLabelSetTagItems(' : 'appendLabelSetLabelItems(');
  });

  it('refuses a sixth set and a name clash at the top of a set, each with the service’s reason', async () => {
    for (let index = 1; index < 5; index++) await createLabelSet(client, DEMO_PROJECT_ID, { index, name: `Set ${index}`, labelItems: [] });
    const sixth = (await rejection(createLabelSet(client, DEMO_PROJECT_ID, { index: 4, name: 'Six', labelItems: [] }))) as GraphQLRequestError;
    expect(sixth.graphQLErrors[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', problems: [{ field: 'input.index', message: 'the project already has 5 label sets, the most a project may have (index 0 to 4)' }] },
    });
    const clash = (await rejection(appendLabelItems(client, { labelSetId: '1', labelItems: [{ labelName: 'date' }] }))) as GraphQLRequestError;
    expect(clash.graphQLErrors[0]!.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      problems: [{ field: `input.${itemsKey}[0].${nameKey}`, message: expect.stringMatching(/^"date" is also the name of the set's label "DATE" .*case-insensitively/) }],
    });
    expect(await sets()).toHaveLength(5);
  });

  it('keeps the applied labels of a renamed label, removes those of a removed label, and tells the count per label', async () => {
    const applied = await applyLabels();
    expect(applied['11']).toBeGreaterThan(0); // PERSON
    expect(applied['13']).toBeGreaterThan(0); // LOCATION
    expect(applied['10']).toBe(0); // ENTITY is never predicted
    const read = await demoSet();
    // Rename PERSON (id 11) and move it to the top: same id, same applied labels, shown by the new name.
    const renamed = await updateLabelSet(client, {
      id: read.id,
      projectId: DEMO_PROJECT_ID,
      labelSetSignature: read.signature!,
      labelItems: asInput(read).map((i) => (i.id === '11' ? { ...i, labelName: 'HUMAN', parentId: null } : i)),
    });
    expect(await counts()).toEqual(applied);
    expect(appliedNames()).toContain('HUMAN');
    expect(appliedNames()).not.toContain('PERSON');
    // Replace the labels without LOCATION (id 13): its applied labels go, the others stay.
    await updateLabelSet(client, { id: read.id, projectId: DEMO_PROJECT_ID, labelSetSignature: renamed.signature!, labelItems: asInput(renamed).filter((i) => i.id !== '13') });
    const { 13: removed, ...kept } = applied;
    expect(removed).toBeGreaterThan(0);
    expect(await counts()).toEqual(kept);
    expect(appliedNames()).not.toContain('LOCATION');
    // The count leaves out labels marked deleted (the demo's gold has one).
    const live = emu.emulator.store.labelsOf(DEMO_PROJECT_ID).flatMap((c) => c.documents.flatMap((d) => d.lines.flatMap((l) => l.entities.filter((e) => e.deleted !== true))));
    expect(live.length).toBe(Object.values(kept).reduce((a, b) => a + b, 0));
  });

  it('removes every applied label of a deleted set and answers its id', async () => {
    await applyLabels();
    expect(appliedNames().length).toBeGreaterThan(0);
    const before = await sets();
    expect(await deleteLabelSet(client, '1')).toEqual(['1']);
    expect(await sets()).toEqual([]);
    expect(appliedNames()).toEqual([]);
    // Read back through the service's reads, no label of the deleted set's labels is left.
    const left = await countAppliedLabels(client, DEMO_PROJECT_ID, before);
    expect(Object.values(left['1']!).every((n) => n === 0)).toBe(true);
    expect(Object.keys(left['1']!)).toHaveLength(before[0]!.labelItems.length);
    const again = (await rejection(deleteLabelSet(client, '1'))) as GraphQLRequestError;
    expect(again.graphQLErrors[0]).toMatchObject({ message: 'no label set has the id "1"', extensions: { code: 'NOT_FOUND' } });
  });

  it('shows the new names and colours on the results page after a write', async () => {
    await applyLabels();
    const read = await demoSet();
    await updateLabelSet(client, { id: read.id, projectId: DEMO_PROJECT_ID, labelItems: asInput(read).map((i) => (i.id === '11' ? { ...i, labelName: 'HUMAN', color: '#123456' } : i)) });
    const home = await fetch(`${emu.baseUrl}/`, { headers: { accept: 'text/html' } });
    const cookie = home.headers.getSetCookie().find((c) => c.startsWith(`${PAGE_COOKIE}=`))!.split(';')[0]!;
    const html = await (await fetch(`${emu.baseUrl}/emulator/projects/${DEMO_PROJECT_ID}/results`, { headers: { accept: 'text/html', cookie } })).text();
    expect(html).toContain('data-legend-label="HUMAN"');
    expect(html).toContain('>Ada Lovelace</mark><span class="tag" style="--c:#123456">HUMAN</span>');
    expect(html).not.toContain('PERSON');
  });

  it('refuses bad input before anything is sent, naming every field and rule at once', async () => {
    const error = await rejection(
      createLabelSet(client, DEMO_PROJECT_ID, {
        index: 5,
        name: '',
        labelItems: [
          { id: 'a', labelName: 'A', color: 'red' },
          { id: 'a', labelName: 'a', parentId: 'zz' },
          { id: 'b', labelName: 'B', parentId: 'c' },
          { id: 'c', labelName: 'C', parentId: 'b' },
        ],
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'input.index', message: 'must be an integer from 0 to 4 (a project has at most 5 label sets)' },
      { path: 'input.name', message: 'must be a non-empty string' },
      { path: 'input.labelItems[0].color', message: 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "red")' },
      { path: 'input.labelItems[1].id', message: '"a" is also the id of input.labelItems[0]' },
      { path: 'input.labelItems[1].parentId', message: '"zz" is not the id of a label of this set' },
      { path: 'input.labelItems[2].parentId', message: 'the parent chain of "b" comes back to "b" (a cycle: "b" → "c" → "b")' },
      { path: 'input.labelItems[3].parentId', message: 'the parent chain of "c" comes back to "c" (a cycle: "c" → "b" → "c")' },
    ]);
    const append = (await rejection(appendLabelItems(client, { labelSetId: '1', labelItems: [{ labelName: 'X', parentId: '10' } as never, { id: '', labelName: 'x' }] }))) as ValidationError;
    expect(append.problems).toEqual([
      { path: 'input.labelItems[0].parentId', message: expect.stringMatching(/^cannot be given: appended labels go at the top .*updateLabelSet/) },
      { path: 'input.labelItems[1].id', message: 'must be a non-empty string, or left out to have one generated' },
      { path: 'input.labelItems[1].labelName', message: '"x" is also the name of input.labelItems[0] (both at the top of the set; names compare case-insensitively)' },
    ]);
    const update = (await rejection(updateLabelSet(client, { id: '1', projectId: ' ' }))) as ValidationError;
    expect(update.problems.map((p) => p.path)).toEqual(['input.projectId', 'input']);
    expect((await rejection(deleteLabelSet(client, ''))) as ValidationError).toBeInstanceOf(ValidationError);
    expect(sent).toEqual([]);
  });
});

describe('label-set writes across the service’s rename', () => {
  let emu: RunningEmulator;
  afterEach(async () => {
    await emu.close();
  });

  it('re-sends a write refused for today’s names once in the renamed words, creating the set exactly once, and reports the switch once', async () => {
    emu = await startEmulator({ schemaGeneration: 'labels' });
    const { sent, fetchFn } = recordingFetch();
    const onSchemaChange = vi.fn<(event: SchemaChangeEvent) => void>();
    const client = createLabelingClient({ url: emu.url, token: emu.token, fetch: fetchFn, onSchemaChange });
    try {
      const created = await createLabelSet(client, DEMO_PROJECT_ID, { index: 1, name: 'Sentiment', labelItems: [{ id: 'pos', labelName: 'POSITIVE' }] });
      expect(created.labelItems).toEqual([{ id: 'pos', parentId: null, labelName: 'POSITIVE', color: null, desc: null }]);
      expect(sent.map((r) => Object.keys(r.variables.input as object).includes('labelItems'))).toEqual([false, true]);
      expect(onSchemaChange).toHaveBeenCalledTimes(1);
      expect(onSchemaChange.mock.calls[0]![0]).toMatchObject({ from: 'tags', to: 'labels', operationName: 'CreateLabelSet', message: 'Cannot query field "tagItems" on type "LabelSet". Did you mean "labelItems"?' });
      expect(emu.emulator.store.projects.get(DEMO_PROJECT_ID)!.labelSets.map((s) => s.name)).toEqual(['Entities', 'Sentiment']);
      // From now on the renamed words go first, for writes and reads alike.
      await appendLabelItems(client, { labelSetId: created.id, labelItems: [{ labelName: 'NEGATIVE' }] });
      await getProjectLabelSets(client, DEMO_PROJECT_ID, 'LABELER');
      expect(sent.slice(2).map((r) => r.query.includes('tag'))).toEqual([false, false, false]);
      expect(onSchemaChange).toHaveBeenCalledTimes(1);
    } finally {
      client.close();
    }
  });

  it('does not re-send a write the service refused for another reason', async () => {
    emu = await startEmulator({ schemaGeneration: 'labels' });
    const { sent, fetchFn } = recordingFetch();
    const client = createLabelingClient({ url: emu.url, token: emu.token, fetch: fetchFn, schemaGeneration: 'labels' });
    try {
      const error = (await rejection(appendLabelItems(client, { labelSetId: 'nope', labelItems: [{ labelName: 'X' }] }))) as GraphQLRequestError;
      expect(error.graphQLErrors[0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
      expect(sent).toHaveLength(1);
    } finally {
      client.close();
    }
  });
});

describe('renamedWriteMessage', () => {
  it('finds a request error naming the append field or an input field of today', () => {
    const messages = [
      'Cannot query field "appendLabelSetTagItems" on type "Mutation". Did you mean "appendLabelSetLabelItems"?',
      'Variable "$input" got invalid value { tagItems: [] }; Field "tagItems" is not defined by type "CreateLabelSetInput". Did you mean "labelItems"?',
      'Variable "$input" got invalid value { tagName: "A" } at "input.tagItems[0]"; Field "tagName" is not defined by type "TagItemInput".',
    ];
    for (const message of messages) expect(renamedWriteMessage(new GraphQLRequestError([{ message }]))).toBe(message);
  });

  it('ignores an error raised while the write ran (it has a path), and other errors', () => {
    const ran = new GraphQLRequestError([{ message: 'Field "tagItems" is not defined by type "X"', path: ['createLabelSet'] }]);
    expect(renamedWriteMessage(ran)).toBeUndefined();
    expect(renamedWriteMessage(new GraphQLRequestError([{ message: 'tagItems are slow today' }]))).toBeUndefined();
    expect(renamedWriteMessage(new Error('Cannot query field "appendLabelSetTagItems"'))).toBeUndefined();
  });
});
