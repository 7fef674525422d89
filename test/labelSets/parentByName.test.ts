// A hand-written label-set file names a label's parent by name or by path (`parent`), so it can
// have a hierarchy without ids: checked with file:line, planned, applied, and planned again empty.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createLabelingClient, getProjectLabelSets } from '../../src/client/index.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { diffLabelSets, LabelSetsFileError, parseLabelSetsFile } from '../../src/labelSets/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { demoSets } from './memoryClient.js';
import { saying } from '../support/saying.js';
import { docSection } from '../support/docs.js';

const problemsOf = (text: string, name: string): string[] => {
  try {
    parseLabelSetsFile(text, name);
  } catch (error) {
    expect(error).toBeInstanceOf(LabelSetsFileError);
    return (error as LabelSetsFileError).problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
  }
  throw new Error('expected problems');
};

/** The demo set, written by hand: no ids, parents by name. */
const HAND_WRITTEN = [
  'labelSets:',
  '  - index: 0',
  '    name: Entities',
  '    labelItems:',
  '      - labelName: ENTITY',
  '      - { labelName: PERSON, parent: ENTITY }',
  '      - { labelName: ORGANIZATION, parent: entity }',
  '      - { labelName: LOCATION, parent: ENTITY }',
  '      - labelName: DATE',
].join('\n');

describe('parent: a label names its parent by name or path', () => {
  it('plans nothing for a hand-written file without ids that says what the live set has', () => {
    const { spec } = parseLabelSetsFile(HAND_WRITTEN, 'labels.yaml');
    expect(spec.labelSets[0]!.labelItems[1]).toEqual({ labelName: 'PERSON', parent: 'ENTITY' });
    const plan = diffLabelSets('p', 'LABELER', demoSets().slice(0, 1), spec.labelSets, { appliedLabels: { '1': {} } });
    expect(plan.writes).toEqual([]);
  });

  it('re-parents by name, and sends the ids of the live labels it matched', () => {
    const { spec } = parseLabelSetsFile(HAND_WRITTEN.replace('{ labelName: LOCATION, parent: ENTITY }', '{ labelName: LOCATION, parent: DATE }'), 'labels.yaml');
    const plan = diffLabelSets('p', 'LABELER', demoSets().slice(0, 1), spec.labelSets, { appliedLabels: { '1': {} } });
    expect(plan.steps.map((s) => [s.kind, s.items.map((i) => [i.labelName, i.fromParent, i.toParent])])).toEqual([['reparent-items', [['LOCATION', 'ENTITY', 'DATE']]]]);
    expect(plan.writes[0]).toMatchObject({ op: 'update', labelItems: expect.arrayContaining([{ id: '13', parentId: '14', labelName: 'LOCATION', color: '#10b981', desc: null }]) });
  });

  it('resolves a path from the top when a name is not unique, and new labels under new labels get made ids', () => {
    const yaml = [
      'labelSets:',
      '  - index: 1',
      '    name: Places',
      '    labelItems:',
      '      - labelName: Europe',
      '      - labelName: America',
      '      - { labelName: Paris, parent: Europe }',
      '      - { labelName: Paris, parent: America }',
      '      - { labelName: Centre, parent: Europe/Paris }',
      '      - { labelName: Downtown, parent: "america / paris" }',
    ].join('\n');
    const { spec } = parseLabelSetsFile(yaml, 'places.yaml');
    const plan = diffLabelSets('p', 'LABELER', [], spec.labelSets);
    expect(plan.writes).toEqual([
      {
        op: 'create',
        setIndex: 1,
        name: 'Places',
        labelItems: [
          { id: 'europe', parentId: null, labelName: 'Europe' },
          { id: 'america', parentId: null, labelName: 'America' },
          { id: 'paris', parentId: 'europe', labelName: 'Paris' },
          { id: 'paris-2', parentId: 'america', labelName: 'Paris' },
          { id: 'centre', parentId: 'paris', labelName: 'Centre' },
          { id: 'downtown', parentId: 'paris-2', labelName: 'Downtown' },
        ],
      },
    ]);
  });

  it("reads the README's hand-written example (its yaml block under \"The file\") and plans it against the demo set", async () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(docSection('The file').text)![1]!;
    const { spec } = parseLabelSetsFile(yaml, 'README.yaml');
    const plan = diffLabelSets('p', 'LABELER', demoSets().slice(0, 1), spec.labelSets, { appliedLabels: { '1': {} } });
    const write = plan.writes[0]!;
    expect(write.op === 'update' && write.labelItems!.find((i) => i.labelName === 'CITY')).toEqual({ id: 'city', parentId: '13', labelName: 'CITY' });
  });

  it('lists every problem of a parent with its file:line: unknown, ambiguous, both fields, cycles, names twice under one parent', () => {
    const yaml = [
      'labelSets:',
      '  - index: 0',
      '    name: E',
      '    labelItems:',
      '      - { id: a, labelName: A }',
      '      - { labelName: X, parent: A }',
      '      - { labelName: X, parent: B }',
      '      - { labelName: B }',
      '      - { labelName: C, parent: NOPE }',
      '      - { labelName: D, parent: X }',
      '      - { labelName: E, parent: A/NOPE }',
      '      - { id: f, labelName: F, parentId: a, parent: A }',
      '      - { labelName: G, parent: H }',
      '      - { labelName: H, parent: G }',
      '      - { labelName: x, parent: a }',
    ].join('\n');
    expect(problemsOf(yaml, 'e.yaml')).toEqual([
      saying('e.yaml:9: labelSets[0].labelItems[4].parent:', 'no label', '"NOPE"'),
      saying('e.yaml:10: labelSets[0].labelItems[5].parent:', '"X"', '3 labels', '"A/X", "B/X", "A/x"', 'path'),
      saying('e.yaml:11: labelSets[0].labelItems[6].parent:', 'no label', '"A/NOPE"'),
      'e.yaml:12: labelSets[0].labelItems[7].parent: give parentId (an id) or parent (a name or path), not both',
      saying('e.yaml:13: labelSets[0].labelItems[8].parent:', 'cycle', '"G" → "H" → "G"'),
      saying('e.yaml:14: labelSets[0].labelItems[9].parent:', 'cycle', '"H" → "G" → "H"'),
      saying('e.yaml:15: labelSets[0].labelItems[10].labelName:', '"x"', 'labelItems[1] ("X")', 'parent "a"', 'case-insensitively'), // "a": the id of A
    ]);
  });
});

describe('parent by name against the emulator', () => {
  let emu: RunningEmulator;
  let dir: string;
  beforeAll(async () => {
    emu = await startEmulator({ demoProjects: 1 });
    dir = await mkdtemp(join(tmpdir(), 'labelkit-parent-'));
  });
  afterAll(async () => {
    await emu?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const run = async (...args: string[]) => {
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token });
    const code = await main(argv(...args), io);
    return { code, out: io.out(), err: io.err() };
  };

  it('applies a hand-written hierarchy without ids, and the next plan is empty', async () => {
    const projectId = demoProjectId(1);
    const file = join(dir, 'labels.yaml');
    const added = ['  - index: 1', '    name: Sentiment', '    labelItems:', '      - labelName: Polar', '      - { labelName: Positive, parent: Polar }', '      - { labelName: Negative, parent: Polar }'];
    await writeFile(file, [`projectId: ${projectId}`, 'role: LABELER', HAND_WRITTEN, ...added].join('\n'));
    expect((await run('label-sets', 'plan', file)).out).toContain('create label set 1 "Sentiment" with 3 labels');
    const apply = await run('label-sets', 'apply', file, '--yes');
    expect(apply.err).toBe('labelkit: done: create label set 1 "Sentiment" with 3 labels\n');
    expect(apply.code).toBe(0);
    const client = createLabelingClient({ url: emu.url, token: emu.token });
    const [, sentiment] = await getProjectLabelSets(client, projectId, 'LABELER');
    client.close();
    const polar = sentiment!.labelItems.find((i) => i.labelName === 'Polar')!;
    expect(sentiment!.labelItems.map((i) => [i.labelName, i.parentId])).toEqual([['Polar', null], ['Positive', polar.id], ['Negative', polar.id]]);
    const again = await run('label-sets', 'plan', file, '--exit-code');
    expect(again.out).toBe(`No changes: the 2 label sets of ${projectId} (LABELER) are as the file says.\n`);
    expect(again.code).toBe(0);
  });
});
