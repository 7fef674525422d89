import { describe, expect, it } from 'vitest';
import { demoProject } from '../../src/emulator/demoProject.js';
import { EmulatorDataError } from '../../src/emulator/index.js';
import { labelSetSignature } from '../../src/emulator/labelSetCheck.js';
import { EmulatorStore } from '../../src/emulator/store.js';
import type { ProjectInput } from '../../src/emulator/index.js';
import { parseJsonWithLines } from '../../src/shared/jsonLocations.js';

const small = (): ProjectInput => ({
  id: 'p1',
  name: 'One',
  labelSets: [{ name: 'L', labels: [{ id: 'a', name: 'A', color: '#000000' }, { id: 'b', parentId: 'a', name: 'B' }] }],
  documents: [{ id: 'd1', lines: ['first line', 'second line', 'third line'] }],
});

describe('EmulatorStore.addProject', () => {
  it('gives label sets their index, a numeric-text id and a sha256 signature when they have none', () => {
    const store = new EmulatorStore();
    const input = small();
    input.labelSets.push({ name: 'Unsigned', signature: null, labels: [{ id: 'x', name: 'X', type: 'ARROW' }] });
    const project = store.addProject(input);
    expect(project.labelSets.map((s) => [s.index, s.name, typeof s.id, s.signature === null])).toEqual([
      [0, 'L', 'string', false],
      [1, 'Unsigned', 'string', true],
    ]);
    expect(project.labelSets[0]!.id).toMatch(/^\d+$/);
    expect(project.labelSets[0]!.signature).toBe(labelSetSignature(project.labelSets[0]!.labels));
    expect(project.labelSets[0]!.labels).toEqual([
      { id: 'a', parentId: null, name: 'A', color: '#000000', desc: null, type: 'SPAN' },
      { id: 'b', parentId: 'a', name: 'B', color: null, desc: null, type: 'SPAN' },
    ]);
    expect(project.lineCount).toBe(3);
  });

  it('lists every problem with its path when the project is bad', () => {
    const bad = {
      id: 'has space',
      labelSets: [
        { name: '', labels: [{ id: 'a', name: 'A' }, { id: 'b', parentId: 'zz', name: 'a', type: 'BOX' }] },
        ...Array.from({ length: 5 }, (_, i) => ({ name: `S${i}`, labels: [] })),
      ],
      documents: [{ id: 'd', lines: ['ok'] }, { id: 'd', lines: [1] }],
    } as unknown as ProjectInput;
    let error: unknown;
    try {
      new EmulatorStore().addProject(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EmulatorDataError);
    expect((error as EmulatorDataError).message).toBe(
      [
        '[Emulator] project "has space" has 8 problems:',
        '  id: id must be letters, digits, _ or - (at least one)',
        '  labelSets: a project has at most 5 label sets, got 6',
        '  labelSets[0].name: name must be a non-empty string',
        '  labelSets[0].labels[1].type: type must be one of SPAN, ARROW, ALL',
        '  labelSets[0].labels[1].name: "a" is also the name of label 0 (names are unique in the set; names compare case-insensitively)',
        '  labelSets[0].labels[1].parentId: "zz" is not the id of a label of this set',
        '  documents[1].id: document id "d" is used twice',
        '  documents[1].lines: lines must be an array of strings (one sentence per line)',
      ].join('\n'),
    );
  });

  it('replaces a project with the same id and forgets its stored labels', () => {
    const store = new EmulatorStore();
    store.addProject(small());
    store.setLineLabels('p1', { labelerEmail: 'a@example.com', role: 'LABELER' }, 'd1', 0, [{ label: 'A', start_char: 0, end_char: 5, layer: 0 }]);
    expect(store.labelsOf('p1')).toHaveLength(1);
    store.addProject({ ...small(), name: 'Renamed' });
    expect(store.projects.get('p1')!.name).toBe('Renamed');
    expect(store.labelsOf('p1')).toEqual([]);
  });
});

describe('labelSetSignature', () => {
  it('changes when any item changes and stays the same for the same items', () => {
    const items = new EmulatorStore().addProject(small()).labelSets[0]!.labels;
    const sig = labelSetSignature(items);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(labelSetSignature(items.map((i) => ({ ...i })))).toBe(sig);
    expect(labelSetSignature(items.map((i, n) => (n === 1 ? { ...i, color: '#ffffff' } : i)))).not.toBe(sig);
    expect(labelSetSignature([...items].reverse())).not.toBe(sig);
  });
});

describe('EmulatorStore labels and cabinets', () => {
  it('keeps one copy per labeler and the reviewer copy, sets lines instead of appending, lists lines in order and snaps spans to whole tokens', () => {
    const store = new EmulatorStore();
    store.addProject(small());
    const ann = { labelerEmail: 'ann@example.com', role: 'LABELER' as const };
    const span = (label: string) => [{ label, start_char: 0, end_char: 5, layer: 0 }];
    store.setLineLabels('p1', ann, 'd1', 2, span('B'));
    store.setLineLabels('p1', ann, 'd1', 0, span('A'));
    store.setLineLabels('p1', ann, 'd1', 0, span('A')); // a retried batch
    store.setLineLabels('p1', { ...ann, role: 'REVIEWER' }, 'd1', 1, span('B'));
    expect(store.labelsOf('p1')).toEqual([
      { labelerEmail: 'ann@example.com', role: 'LABELER', documents: [{ id: 'd1', name: 'd1', lines: [{ id: 0, text: 'first line', entities: span('A') }, { id: 2, text: 'third line', entities: span('B') }] }] },
      // 0-5 is "secon": snapped to the whole token "second"
      { labelerEmail: 'ann@example.com', role: 'REVIEWER', documents: [{ id: 'd1', name: 'd1', lines: [{ id: 1, text: 'second line', entities: [{ ...span('B')[0]!, end_char: 6 }] }] }] },
    ]);
  });

  it('sets a whole batch at once: answered lines get their labels, lines left out get none, ids outside the batch are ignored', () => {
    const store = new EmulatorStore();
    store.addProject({ ...small(), documents: [{ id: 'd1', lines: ['l0', 'line one', 'line two', 'line three', 'l4'] }] });
    const ann = { labelerEmail: 'ann@example.com', role: 'LABELER' as const };
    const span = (label: string) => [{ label, start_char: 0, end_char: 4, layer: 0 }];
    store.setLineLabels('p1', ann, 'd1', 0, span('A')); // outside the batch below: must stay
    store.setLineLabels('p1', ann, 'd1', 2, span('B')); // inside, left out of the answer: must become empty
    store.setBatchLabels('p1', ann, 'd1', 1, 3, [
      { id: 3, entities: span('B') },
      { id: 1, entities: span('A') },
      { id: 4, entities: span('A') }, // line 4 is not in the batch (lines 1-3)
      { id: 0, entities: span('B') }, // nor is line 0
    ]);
    const lines = () => store.labelsOf('p1')[0]!.documents[0]!.lines.map((l) => [l.id, l.entities.map((e) => e.label)]);
    expect(lines()).toEqual([[0, ['A']], [1, ['A']], [2, []], [3, ['B']]]);
    // a retried batch replaces, never appends; of two entries for one line the last counts
    store.setBatchLabels('p1', ann, 'd1', 1, 3, [{ id: 1, entities: span('B') }, { id: 1, entities: [] }]);
    expect(lines()).toEqual([[0, ['A']], [1, []], [2, []], [3, []]]);
  });

  it('maps each role to its own cabinet and back to the project', () => {
    const store = new EmulatorStore();
    store.addProject(demoProject());
    expect(store.cabinetId('demo-project', 'REVIEWER')).toBe('demo-project:reviewer');
    expect(store.projectOfCabinet('demo-project:labeler')?.id).toBe('demo-project');
    expect(store.projectOfCabinet('demo-project:owner')).toBeUndefined();
    expect(store.projectOfCabinet('nope:labeler')).toBeUndefined();
  });
});

describe('demoProject', () => {
  it('has four short documents, one with an odd line count, and a hierarchical entity set', () => {
    const project = new EmulatorStore().addProject(demoProject());
    expect(project.documents.map((d) => d.lines.length)).toEqual([3, 5, 4, 7]);
    const names = new Map(project.labelSets[0]!.labels.map((i) => [i.id, i.name]));
    expect(project.labelSets[0]!.labels.map((i) => `${i.parentId ? `${names.get(i.parentId)} > ` : ''}${i.name}`)).toEqual([
      'ENTITY',
      'ENTITY > PERSON',
      'ENTITY > ORGANIZATION',
      'ENTITY > LOCATION',
      'DATE',
    ]);
  });
});

describe('parseJsonWithLines', () => {
  it('gives the line of each value and of the nearest ancestor of a missing one', () => {
    const { value, lineOf } = parseJsonWithLines('{\n "a": [1,\n  {"x": "q\\"}"}],\n "b": {"c": null}\n}');
    expect(value).toEqual({ a: [1, { x: 'q"}' }], b: { c: null } });
    expect([lineOf(['a', 0]), lineOf(['a', 1, 'x']), lineOf(['b', 'c']), lineOf(['b', 'missing']), lineOf([])]).toEqual([2, 3, 4, 4, 1]);
  });

  it.each([
    ['{\n "a": 1,\n}', 'expected a property name in double quotes (line 3 column 1)'],
    ['[1,\n 2\n 3]', 'expected "," (line 3 column 2)'],
    ['{"a": tru}', 'unexpected "t" (line 1 column 7)'],
    ['{} x', 'unexpected "x" (line 1 column 4)'],
    ['// a comment\n{}', 'comments are not allowed in JSON (line 1 column 1)'],
    ['{"a": "b\n"}', 'unterminated string (line 1 column 7)'],
  ])('names line and column when the text is not JSON: %j', (text, message) => {
    expect(() => parseJsonWithLines(text)).toThrow(new SyntaxError(message));
  });
});
