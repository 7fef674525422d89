import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, getProjectLabelSets } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { applyLabelSetPlan, countAppliedLabels, DestructiveStepsError, planLabelSets } from '../../src/labelSets/index.js';
import type { CountProgress, LabelSetSpec } from '../../src/labelSets/index.js';
import { createCountProgress } from '../../src/cli/commands/labelSets/planPrint.js';
import { createPrinter } from '../../src/cli/io.js';
import { fakeIo } from '../support/fakeIo.js';
import { storedLabelCounts } from '../support/storedLabelCounts.js';
import { memoryClient } from './memoryClient.js';

const pull = (service: ReturnType<typeof memoryClient>): LabelSetSpec[] => structuredClone(service.state).map(({ signature: _s, ...set }) => set);
const planFor = (service: ReturnType<typeof memoryClient>, desired: LabelSetSpec[], options = {}) =>
  planLabelSets(service.client, 'demo-project', 'LABELER', { labelSets: desired }, options);

describe('countAppliedLabels', () => {
  it('counts every copy\'s labels page by page, per label of each set by layer, leaving out deleted ones and labels of no set', async () => {
    const service = memoryClient();
    // 700 PERSON labels over 2 copies × 3 documents: about 117 a document, so two pages each.
    service.setApplied({ '1': { '11': 700, '14': 5 }, '2': { '20': 1 } }, { deleted: 2 });
    const progress: CountProgress[] = [];
    const counts = await countAppliedLabels(service.client as Parameters<typeof countAppliedLabels>[0], 'demo-project', service.state, { onProgress: (p) => progress.push(p) });
    expect(counts).toEqual({ '1': { '10': 0, '11': 700, '12': 0, '13': 0, '14': 5 }, '2': { '20': 1 } });
    const pages = service.calls.filter((c) => c.method === 'GetLabelsPaginated').map((c) => c.input as { documentId: string; input: object });
    expect(new Set(pages.map((p) => p.documentId)).size).toBe(6);
    expect(pages.filter((p) => 'cursor' in p.input).length).toBe(6);
    expect(progress[0]).toEqual({ copies: 2, documents: 0, totalDocuments: 6, labels: 0 });
    expect(progress.at(-1)).toEqual({ copies: 2, documents: 6, totalDocuments: 6, labels: 706 + 2 * 3 });
    // A label's layer is its set's index: the same item id in another layer is another label.
    const moved = service.state.map((s) => ({ ...s, index: s.index === 0 ? 1 : 0 }));
    expect(await countAppliedLabels(service.client as Parameters<typeof countAppliedLabels>[0], 'demo-project', moved)).toEqual({
      '1': { '10': 0, '11': 0, '12': 0, '13': 0, '14': 0 },
      '2': { '20': 0 },
    });
  });

  it('is read by a plan only when a step removes labels, and not at all with countLabels: false', async () => {
    const service = memoryClient();
    service.setApplied({ '1': { '14': 3 } });
    const renamed = pull(service);
    renamed[0]!.labelItems[4]!.labelName = 'WHEN';
    renamed[1]!.labelItems.push({ labelName: 'LOCATED_IN' });
    const quiet = await planFor(service, renamed);
    expect(quiet.writes.length).toBe(2);
    expect(service.methods()).toEqual(['getProjectLabelSets']);

    const removing = pull(service);
    removing[0]!.labelItems.pop(); // DATE, with 3 applied labels
    const counted = await planFor(service, removing);
    expect(counted.steps.at(-1)).toMatchObject({ kind: 'remove-items', destroysLabels: true, appliedLabels: 3 });
    expect(service.methods()).toEqual(['getProjectLabelSets', 'getProjectLabelSets', 'count']);

    const unknown = await planFor(service, removing, { countLabels: false });
    expect(unknown.steps.at(-1)).toMatchObject({ kind: 'remove-items', destroysLabels: true, appliedLabels: null });
    expect(service.methods().filter((m) => m === 'count')).toHaveLength(1);
    // Not counted at apply either: the unknown count is refused without allowDestructive, and nothing is written.
    await expect(applyLabelSetPlan(service.client, unknown, { countLabels: false })).rejects.toBeInstanceOf(DestructiveStepsError);
    expect(service.writeCalls()).toEqual([]);
  });
});

describe('counting applied labels over HTTP against the emulator', () => {
  let emu: RunningEmulator;
  let client: LabelingClient;
  beforeAll(async () => {
    emu = await startEmulator({});
    client = createLabelingClient({ url: emu.url, token: emu.token });
  });
  afterAll(async () => {
    client?.close();
    await emu?.close();
  });

  it('counts the labels of every labeler\'s copy and of the reviewer copy, as the store holds them, and the plan shows what a removal takes', async () => {
    const store = emu.emulator.store;
    const [set] = await getProjectLabelSets(client, DEMO_PROJECT_ID, 'LABELER');
    const before = await countAppliedLabels(client, DEMO_PROJECT_ID, [set!]);
    const span = (label: string, start: number, end: number) => ({ label, start_char: start, end_char: end, layer: 0 });
    const docs = store.projects.get(DEMO_PROJECT_ID)!.documents.map((d) => d.id);
    store.setLineLabels(DEMO_PROJECT_ID, { labelerEmail: 'ann@example.com', role: 'LABELER' }, docs[0]!, 0, [span('PERSON', 0, 4), span('DATE', 5, 9)]);
    store.setLineLabels(DEMO_PROJECT_ID, { labelerEmail: 'bob@example.com', role: 'LABELER' }, docs[1]!, 0, [span('PERSON', 0, 4), span('PERSON', 5, 9)]);
    const reviewerLine = store.projects.get(DEMO_PROJECT_ID)!.documents[2]!.lines.length - 1;
    const reviewerBefore = store.labelsOf(DEMO_PROJECT_ID).find((c) => c.role === 'REVIEWER')!.documents[2]!.lines.find((l) => l.id === reviewerLine);
    store.setLineLabels(DEMO_PROJECT_ID, { labelerEmail: 'rex@example.com', role: 'REVIEWER' }, docs[2]!, reviewerLine, [span('DATE', 0, 4)]);

    const after = await countAppliedLabels(client, DEMO_PROJECT_ID, [set!]);
    // By hand: PERSON +1 (ann) +2 (bob); DATE +1 (ann) +1 (reviewer), less the reviewer line's labels it replaced.
    const replaced = (name: string) => (reviewerBefore?.entities ?? []).filter((e) => e.label === name && e.deleted !== true).length;
    expect(after[set!.id]!['11']).toBe(before[set!.id]!['11']! + 3 - replaced('PERSON'));
    expect(after[set!.id]!['14']).toBe(before[set!.id]!['14']! + 2 - replaced('DATE'));
    // The same as what the store serves, read in process.
    const stored = storedLabelCounts(store, DEMO_PROJECT_ID);
    const deleted = store.labelsOf(DEMO_PROJECT_ID).flatMap((c) => c.documents.flatMap((d) => d.lines.flatMap((l) => l.entities.filter((e) => e.deleted === true).map((e) => e.label.toUpperCase()))));
    const ids = Object.fromEntries(set!.labelItems.map((i) => [i.labelName, i.id]));
    for (const item of set!.labelItems) {
      expect(after[set!.id]![item.id]).toBe(stored[`${set!.id}/${item.id}`]! - deleted.filter((name) => ids[name] === item.id).length);
    }

    const desired = [{ ...set!, labelItems: set!.labelItems.filter((i) => i.labelName !== 'DATE') }];
    const plan = await planLabelSets(client, DEMO_PROJECT_ID, 'LABELER', { labelSets: desired });
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'remove-items', appliedLabels: after[set!.id]!['14'], destroysLabels: true })]);
  });
});

describe('createCountProgress (label-sets plan/apply)', () => {
  const run = (tty: boolean) => {
    const io = fakeIo({}, { tty });
    const progress = createCountProgress(io, createPrinter(io));
    progress.onCountProgress({ copies: 2, documents: 0, totalDocuments: 2, labels: 0 });
    progress.onCountProgress({ copies: 2, documents: 1, totalDocuments: 2, labels: 150 });
    progress.onCountProgress({ copies: 2, documents: 2, totalDocuments: 2, labels: 151 });
    progress.onCountProgress({ copies: 2, documents: 0, totalDocuments: 2, labels: 0 });
    progress.onCountProgress({ copies: 2, documents: 1, totalDocuments: 2, labels: 1 });
    progress.stop();
    return io.err();
  };
  const start = (again: string) =>
    `labelkit: counting${again} the applied labels of what the plan removes: reading every label of 2 documents in 2 copies of the project (--no-count-labels skips this)\n`;

  it('says what a count reads and what it counted, without rewritten lines when stderr is not a terminal', () => {
    expect(run(false)).toBe(`${start('')}labelkit: counted 151 labels in 2 documents\n${start(' again')}`);
  });

  it('rewrites the documents read in place on a terminal, and clears the line when the count ends or stops', () => {
    expect(run(true)).toBe(
      `${start('')}\r  1/2 documents, 150 labels read\r  2/2 documents, 151 labels read\r\u001b[Klabelkit: counted 151 labels in 2 documents\n` +
        `${start(' again')}\r  1/2 documents, 1 label read\r\u001b[K`,
    );
  });
});
