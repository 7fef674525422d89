import { describe, expect, it } from 'vitest';
import { demoProject, DEMO_PROJECT_ID } from '../../src/emulator/demoProject.js';
import { labelSetSignature } from '../../src/emulator/labelSetCheck.js';
import { EmulatorStore } from '../../src/emulator/store.js';
import { LabelSetWriteRefusedError, nextLabelId } from '../../src/emulator/labelSetWrites.js';
import { storedLabelCounts } from '../support/storedLabelCounts.js';

const ann = { labelerEmail: 'ann@example.com', role: 'LABELER' as const };
const rev = { labelerEmail: 'rex@example.com', role: 'REVIEWER' as const };
const span = (label: string, start = 0, end = 3) => ({ label, start_char: start, end_char: end, layer: 0 });

/**
 * A store with the demo project (set "1": ENTITY 10 › PERSON 11 / ORGANIZATION 12 / LOCATION 13,
 * DATE 14), without its gold labels: these tests count the labels they apply themselves.
 */
function demoStore(): EmulatorStore {
  const store = new EmulatorStore();
  const demo = demoProject();
  store.addProject({ ...demo, documents: demo.documents.map(({ review: _gold, ...doc }) => doc) });
  return store;
}

/** Labels spans on two copies: PERSON twice and DATE once for ann, PERSON once for the reviewer. */
function labelSomeLines(store: EmulatorStore): void {
  store.setLineLabels(DEMO_PROJECT_ID, ann, 'doc-1', 0, [span('PERSON', 0, 12), span('date', 47, 53)]);
  store.setLineLabels(DEMO_PROJECT_ID, ann, 'doc-1', 2, [span('PERSON', 26, 38)]);
  store.setLineLabels(DEMO_PROJECT_ID, rev, 'doc-2', 2, [span('Person', 0, 5)]);
}

const countsOf = (store: EmulatorStore) => storedLabelCounts(store, DEMO_PROJECT_ID);
const labelNames = (store: EmulatorStore) =>
  store.labelsOf(DEMO_PROJECT_ID).map((copy) => copy.documents.flatMap((d) => d.lines.flatMap((l) => l.entities.map((e) => e.label))));

function refusal(write: () => unknown): LabelSetWriteRefusedError {
  try {
    write();
  } catch (error) {
    if (error instanceof LabelSetWriteRefusedError) return error;
    throw error;
  }
  throw new Error('the write was not refused');
}

describe('EmulatorStore.createLabelSet', () => {
  it('adds a set at the lowest free index with a new id, the signature of its labels and type ALL for new labels', () => {
    const store = demoStore();
    const set = store.createLabelSet(DEMO_PROJECT_ID, { name: 'Sentiment', labels: [{ id: 'pos', name: 'POSITIVE', color: '#22c55e' }, { id: 'neg', name: 'NEGATIVE' }] });
    expect(set).toMatchObject({ index: 1, name: 'Sentiment', arrowLabelRequired: false });
    expect(set.id).toMatch(/^\d+$/);
    expect(set.id).not.toBe('1');
    expect(set.signature).toBe(labelSetSignature(set.labels));
    expect(set.labels).toEqual([
      { id: 'pos', parentId: null, name: 'POSITIVE', color: '#22c55e', desc: null, type: 'ALL' },
      { id: 'neg', parentId: null, name: 'NEGATIVE', color: null, desc: null, type: 'ALL' },
    ]);
    expect(store.projects.get(DEMO_PROJECT_ID)!.labelSets.map((s) => [s.index, s.name])).toEqual([
      [0, 'Entities'],
      [1, 'Sentiment'],
    ]);
  });

  it('refuses a sixth set, listing it with every other problem of the input at once', () => {
    const store = demoStore();
    for (let i = 1; i < 5; i++) store.createLabelSet(DEMO_PROJECT_ID, { name: `S${i}`, labels: [] });
    const error = refusal(() =>
      store.createLabelSet(DEMO_PROJECT_ID, {
        name: '  ',
        labels: [
          { id: 'a', name: 'A', color: 'red' },
          { id: 'a', name: 'B' },
          { id: 'c', name: 'b', parentId: 'zz' },
          { id: 'd', name: 'a' },
        ],
      }),
    );
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.problems).toEqual([
      { path: ['name'], message: 'must be a non-empty string, or absent' },
      { path: ['index'], message: 'the project already has 5 label sets, the most a project may have (index 0 to 4)' },
      { path: ['labels', 0, 'color'], message: 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "red")' },
      { path: ['labels', 1, 'id'], message: '"a" is also the id of label 0' },
      { path: ['labels', 3, 'name'], message: '"a" is also the name of label 0 (both at the top of the set; names compare case-insensitively)' },
      { path: ['labels', 2, 'parentId'], message: '"zz" is not the id of a label of this set' },
    ]);
    expect(error.message).toMatch(/^Invalid input \(6 problems\): name: must be a non-empty string/);
    expect(store.projects.get(DEMO_PROJECT_ID)!.labelSets).toHaveLength(5);
  });

  it('refuses an index in use or outside 0–4, an unknown project, and a cycle of parents', () => {
    const store = demoStore();
    expect(refusal(() => store.createLabelSet(DEMO_PROJECT_ID, { index: 0, labels: [] })).problems).toEqual([
      { path: ['index'], message: '0 is already the index of label set "1" (Entities)' },
    ]);
    expect(refusal(() => store.createLabelSet(DEMO_PROJECT_ID, { index: 5, labels: [] })).problems[0]!.message).toMatch(/^must be an integer from 0 to 4/);
    expect(refusal(() => store.createLabelSet('nope', { labels: [] })).code).toBe('NOT_FOUND');
    const cycle = refusal(() => store.createLabelSet(DEMO_PROJECT_ID, { labels: [{ id: 'x', name: 'X', parentId: 'y' }, { id: 'y', name: 'Y', parentId: 'x' }] }));
    expect(cycle.problems.map((p) => p.path.join('.'))).toEqual(['labels.0.parentId', 'labels.1.parentId']);
    expect(cycle.problems[0]!.message).toBe('the parent chain of "x" comes back to "x" (a cycle: "x" → "y" → "x")');
  });

  it('refuses a blank parentId and a label that is its own parent, each at its label', () => {
    const store = demoStore();
    const error = refusal(() => store.createLabelSet(DEMO_PROJECT_ID, { labels: [{ id: 'x', name: 'X', parentId: ' ' }, { id: 'y', name: 'Y', parentId: 'y' }] }));
    expect(error.problems).toEqual([
      { path: ['labels', 0, 'parentId'], message: 'must be the id of another label of the set, or null' },
      { path: ['labels', 1, 'parentId'], message: 'a label cannot be its own parent' },
    ]);
  });

  it('accepts one name under two parents and gives the set the index asked for', () => {
    const store = demoStore();
    const set = store.createLabelSet(DEMO_PROJECT_ID, {
      index: 3,
      labels: [
        { id: 'p', name: 'PERSON' },
        { id: 'o', name: 'ORG' },
        { id: 'p-other', name: 'Other', parentId: 'p' },
        { id: 'o-other', name: 'OTHER', parentId: 'o' },
      ],
    });
    expect(set).toMatchObject({ index: 3, name: 'Label set 3' });
  });
});

describe('EmulatorStore.updateLabelSet', () => {
  it('keeps the applied labels of a renamed, recoloured, re-parented label whose id stays, and shows its new name', () => {
    const store = demoStore();
    labelSomeLines(store);
    const before = countsOf(store);
    const items = store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]!.labels;
    const set = store.updateLabelSet({
      id: '1',
      projectId: DEMO_PROJECT_ID,
      labels: items.map((i) => (i.id === '11' ? { ...i, name: 'HUMAN', color: '#000000', parentId: null } : i)),
    });
    expect(set.labels.find((i) => i.id === '11')).toMatchObject({ name: 'HUMAN', color: '#000000', parentId: null, type: 'SPAN' });
    expect(countsOf(store)).toEqual(before);
    expect(before['1/11']).toBe(3);
    expect(labelNames(store)).toEqual([['HUMAN', 'date', 'HUMAN'], ['HUMAN']]);
  });

  it('removes the applied labels of every label left out, from every copy, and keeps the others', () => {
    const store = demoStore();
    labelSomeLines(store);
    const items = store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]!.labels;
    store.updateLabelSet({ id: '1', projectId: DEMO_PROJECT_ID, labels: items.filter((i) => i.id !== '11') });
    expect(labelNames(store)).toEqual([['date'], []]);
    expect(countsOf(store)).toEqual({ '1/10': 0, '1/12': 0, '1/13': 0, '1/14': 1 });
    // The lines stay labelled (with what is left), in order.
    expect(store.labelsOf(DEMO_PROJECT_ID)[0]!.documents[0]!.lines.map((l) => [l.id, l.entities.length])).toEqual([
      [0, 1],
      [2, 0],
    ]);
  });

  it('refuses a stale signature and changes nothing, and accepts the signature as read', () => {
    const store = demoStore();
    const read = store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]!;
    const stale = refusal(() => store.updateLabelSet({ id: '1', projectId: DEMO_PROJECT_ID, labelSetSignature: 'f00', name: 'X', labels: [] }));
    expect(stale.code).toBe('STALE_SIGNATURE');
    expect(stale.message).toMatch(/^label set "1" changed since its signature was read/);
    expect(store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]).toBe(read);
    const renamed = store.updateLabelSet({ id: '1', projectId: DEMO_PROJECT_ID, labelSetSignature: read.signature, name: 'Named entities' });
    expect(renamed).toMatchObject({ name: 'Named entities', signature: read.signature, labels: read.labels });
  });

  it('compares a set published without a signature by the digest of its labels', () => {
    const store = new EmulatorStore();
    store.addProject({ id: 'p', labelSets: [{ id: 's', name: 'S', signature: null, labels: [{ id: 'a', name: 'A' }] }], documents: [] });
    const set = store.projects.get('p')!.labelSets[0]!;
    expect(refusal(() => store.updateLabelSet({ id: 's', projectId: 'p', labelSetSignature: 'old', name: 'T' })).code).toBe('STALE_SIGNATURE');
    expect(store.updateLabelSet({ id: 's', projectId: 'p', labelSetSignature: labelSetSignature(set.labels), name: 'T' }).signature).toBeNull();
  });

  it('names a set of another project and an unknown set as not found', () => {
    const store = demoStore();
    store.addProject({ id: 'other', labelSets: [], documents: [] });
    expect(refusal(() => store.updateLabelSet({ id: '1', projectId: 'other', name: 'X' })).message).toBe('project "other" has no label set with the id "1"');
  });
});

describe('EmulatorStore.appendLabels', () => {
  it('adds top-level labels, generates the missing ids, answers the new labels only and signs the set again', () => {
    const store = demoStore();
    labelSomeLines(store);
    const before = store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]!;
    const added = store.appendLabels({ labelSetId: '1', labelSetSignature: before.signature, labels: [{ name: 'EVENT', color: '#a855f7' }, { id: 'misc', name: 'MISC' }, { name: 'LAW' }] });
    expect(added).toEqual([
      { id: '15', parentId: null, name: 'EVENT', color: '#a855f7', desc: null, type: 'ALL' },
      { id: 'misc', parentId: null, name: 'MISC', color: null, desc: null, type: 'ALL' },
      { id: '16', parentId: null, name: 'LAW', color: null, desc: null, type: 'ALL' },
    ]);
    const after = store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]!;
    expect(after.labels).toEqual([...before.labels, ...added]);
    expect(after.signature).toBe(labelSetSignature(after.labels));
    expect(after.signature).not.toBe(before.signature);
    expect(countsOf(store)['1/11']).toBe(3);
  });

  it('refuses a name clash with a top-level label and an id in use, listing both', () => {
    const store = demoStore();
    const error = refusal(() => store.appendLabels({ labelSetId: '1', labels: [{ id: '11', name: 'Thing' }, { name: 'date' }, { name: 'person' }] }));
    expect(error.problems).toEqual([
      { path: ['labels', 0, 'id'], message: '"11" is already the id of a label of this set' },
      { path: ['labels', 1, 'name'], message: expect.stringMatching(/^"date" is also the name of the set's label "DATE" .*case-insensitively/) },
    ]);
  });

  it('refuses an id given twice among new labels and a bad colour, once each, whatever the set\'s own labels hold', () => {
    const store = demoStore();
    const set = store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]!;
    set.labels[0] = { ...set.labels[0]!, color: 'teal' }; // a colour name, as production may publish
    const error = refusal(() =>
      store.appendLabels({ labelSetId: '1', labels: [{ id: 'n', name: 'N1' }, { id: 'n', name: 'N2', color: 'blue' }, { id: '11', name: 'T' }, { id: '11', name: 'U' }] }),
    );
    expect(error.problems).toEqual([
      { path: ['labels', 2, 'id'], message: '"11" is already the id of a label of this set' },
      { path: ['labels', 3, 'id'], message: '"11" is already the id of a label of this set' },
      { path: ['labels', 1, 'id'], message: '"n" is also the id of label 0' },
      { path: ['labels', 1, 'color'], message: 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "blue")' },
    ]);
  });
});

describe('EmulatorStore.deleteLabelSet', () => {
  it('removes the set and the labels applied with its labels, keeps the other sets and their indexes', () => {
    const store = demoStore();
    const extra = store.createLabelSet(DEMO_PROJECT_ID, { index: 2, labels: [{ id: 'x', name: 'NAME' }] });
    labelSomeLines(store);
    store.setLineLabels(DEMO_PROJECT_ID, ann, 'doc-3', 0, [{ ...span('name', 0, 7), layer: 2 }]); // NAME is in the set of index 2
    expect(store.deleteLabelSet('1')).toEqual(['1']);
    expect(store.projects.get(DEMO_PROJECT_ID)!.labelSets.map((s) => [s.id, s.index])).toEqual([[extra.id, 2]]);
    expect(labelNames(store)).toEqual([['name'], []]);
    expect(countsOf(store)).toEqual({ [`${extra.id}/x`]: 1 });
    expect(refusal(() => store.deleteLabelSet('1')).code).toBe('NOT_FOUND');
  });
});

describe('the labels a store serves per label (as getLabelsPaginated reads them)', () => {
  it('counts over every copy, gives 0 to labels never applied and leaves out names no label has', () => {
    const store = demoStore();
    labelSomeLines(store);
    store.setLineLabels(DEMO_PROJECT_ID, ann, 'doc-4', 1, [span('UNKNOWN')]);
    expect(countsOf(store)).toEqual({ '1/10': 0, '1/11': 3, '1/12': 0, '1/13': 0, '1/14': 1 });
    expect(labelNames(store)[0]).toContain('UNKNOWN');
  });

  it('binds a name stored after a rename to the renamed label, and the old name to none', () => {
    const store = demoStore();
    const items = store.projects.get(DEMO_PROJECT_ID)!.labelSets[0]!.labels;
    store.updateLabelSet({ id: '1', projectId: DEMO_PROJECT_ID, labels: items.map((i) => (i.id === '14' ? { ...i, name: 'WHEN' } : i)) });
    store.setLineLabels(DEMO_PROJECT_ID, ann, 'doc-1', 0, [span('when'), span('DATE')]);
    expect(countsOf(store)['1/14']).toBe(1);
    expect(labelNames(store)).toEqual([['when', 'DATE']]);
  });
});

describe('nextLabelId', () => {
  it('continues after the largest numeric id and skips ids in use', () => {
    expect(nextLabelId(new Set())).toBe('1');
    expect(nextLabelId(new Set(['10', '14', 'x']))).toBe('15');
    expect(nextLabelId(new Set(['a', '1', '2']))).toBe('3');
  });
});
