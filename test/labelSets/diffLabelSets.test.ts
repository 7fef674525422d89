import { describe, expect, it } from 'vitest';
import type { LabelSet } from '../../src/client/index.js';
import { destructiveSteps, diffLabelSets, LabelSetsPlanError, planIsEmpty } from '../../src/labelSets/index.js';
import type { LabelSetSpec } from '../../src/labelSets/index.js';
import { demoSets } from './memoryClient.js';
import { saying } from '../support/saying.js';

/** The sets as `label-sets --json` prints them: the file of a pull. */
const pull = (sets: LabelSet[]): LabelSetSpec[] => structuredClone(sets).map((s) => ({ ...s, signature: s.signature ?? null }));
const plan = (desired: LabelSetSpec[], options = {}, live = demoSets()) => diffLabelSets('demo-project', 'LABELER', live, desired, options);
const kinds = (p: ReturnType<typeof plan>) => p.steps.map((s) => `${s.kind}@${s.write}`);

describe('diffLabelSets', () => {
  it('plans nothing for the file of a pull, and remembers every live set', () => {
    const p = plan(pull(demoSets()));
    expect(planIsEmpty(p)).toBe(true);
    expect(p.steps).toEqual([]);
    expect(p.against.map((f) => [f.id, f.index, f.name, f.labelCount, f.itemsHash.length])).toEqual([
      ['1', 0, 'Entities', 5, 64],
      ['2', 1, 'Relations', 1, 64],
    ]);
  });

  it('appends new top-level labels, without an id when the file gives none, and keeps everything else', () => {
    const desired = pull(demoSets());
    desired[0]!.labelItems.push({ labelName: 'EVENT', color: '#111111' }, { id: 'misc', labelName: 'MISC' });
    const p = plan(desired);
    expect(p.writes).toEqual([
      { op: 'append', setIndex: 0, setId: '1', labelItems: [{ labelName: 'EVENT', color: '#111111' }, { id: 'misc', labelName: 'MISC' }] },
    ]);
    expect(p.steps).toEqual([
      { kind: 'add-items', setIndex: 0, setId: '1', setName: 'Entities', items: [{ id: null, labelName: 'EVENT' }, { id: 'misc', labelName: 'MISC' }], destroysLabels: false, appliedLabels: 0, write: 0 },
    ]);
  });

  it('renames the set by name alone before appending, when that is all that changes', () => {
    const desired = pull(demoSets());
    desired[0]!.name = 'Named entities';
    desired[0]!.labelItems.push({ labelName: 'EVENT' });
    const p = plan(desired);
    expect(p.writes).toEqual([
      { op: 'update', setIndex: 0, setId: '1', name: 'Named entities' },
      { op: 'append', setIndex: 0, setId: '1', labelItems: [{ labelName: 'EVENT' }] },
    ]);
    expect(kinds(p)).toEqual(['rename-set@0', 'add-items@1']);
    expect(p.steps[0]).toMatchObject({ previousSetName: 'Entities', setName: 'Named entities', items: [] });
  });

  it('replaces the whole list in one write for any other change, each change a step with the labels it touches', () => {
    const desired = pull(demoSets());
    const items = desired[0]!.labelItems;
    items[1]!.labelName = 'PER'; // rename 11
    items[2]!.color = '#2563eb'; // recolour 12
    items[3]!.parentId = null; // re-parent 13
    items[4]!.desc = 'A calendar date'; // describe 14
    items.splice(0, 1); // remove 10 ENTITY…
    items.forEach((i) => i.parentId === '10' && (i.parentId = null)); // …and lift its children
    items.push({ parentId: '13', labelName: 'City' });
    const p = plan(desired, { appliedLabels: { '1': { '10': 3, '11': 7 } } });
    expect(kinds(p)).toEqual(['add-items@0', 'rename-items@0', 'recolour-items@0', 'reparent-items@0', 'describe-items@0', 'remove-items@0']);
    expect(p.writes).toEqual([
      {
        op: 'update',
        setIndex: 0,
        setId: '1',
        labelItems: [
          { id: '11', parentId: null, labelName: 'PER', color: '#ef4444', desc: null },
          { id: '12', parentId: null, labelName: 'ORGANIZATION', color: '#2563eb', desc: null },
          { id: '13', parentId: null, labelName: 'LOCATION', color: '#10b981', desc: null },
          { id: '14', parentId: null, labelName: 'DATE', color: '#f59e0b', desc: 'A calendar date' },
          { id: 'city', parentId: '13', labelName: 'City' },
        ],
      },
    ]);
    const step = (kind: string) => p.steps.find((s) => s.kind === kind)!;
    expect(step('add-items').items).toEqual([{ id: 'city', labelName: 'City' }]);
    expect(step('rename-items').items).toEqual([{ id: '11', labelName: 'PER', from: 'PERSON', to: 'PER' }]);
    expect(step('recolour-items').items).toEqual([{ id: '12', labelName: 'ORGANIZATION', from: '#3b82f6', to: '#2563eb' }]);
    expect(step('reparent-items').items.map((i) => [i.id, i.fromParent, i.toParent])).toEqual([
      ['11', 'ENTITY', null],
      ['12', 'ENTITY', null],
      ['13', 'ENTITY', null],
    ]);
    expect(step('describe-items').items).toEqual([{ id: '14', labelName: 'DATE', from: null, to: 'A calendar date' }]);
    expect(step('remove-items')).toMatchObject({ items: [{ id: '10', labelName: 'ENTITY', appliedLabels: 3 }], destroysLabels: true, appliedLabels: 3 });
    expect(p.steps.filter((s) => s.kind !== 'remove-items').every((s) => !s.destroysLabels && s.appliedLabels === 0)).toBe(true);
  });

  it('counts a removal as destructive when its count is not known, and not when it is known to be 0', () => {
    const desired = pull(demoSets());
    desired[0]!.labelItems.pop(); // DATE
    expect(plan(desired).steps.at(-1)).toMatchObject({ kind: 'remove-items', destroysLabels: true, appliedLabels: null });
    expect(plan(desired, { appliedLabels: { '1': {} } }).steps.at(-1)).toMatchObject({ kind: 'remove-items', destroysLabels: false, appliedLabels: 0 });
  });

  it('matches a label without an id to the live one of the same name, under its parent first, else the only one of that name', () => {
    const desired = pull(demoSets());
    for (const item of desired[0]!.labelItems) if (item.id !== '10') delete item.id;
    desired[0]!.labelItems[1]!.labelName = 'person'; // a case change is a rename
    desired[0]!.labelItems[2]!.parentId = null; // ORGANIZATION moves up: matched by name elsewhere
    const p = plan(desired);
    expect(kinds(p)).toEqual(['rename-items@0', 'reparent-items@0']);
    expect(p.steps[0]!.items).toEqual([{ id: '11', labelName: 'person', from: 'PERSON', to: 'person' }]);
    expect(p.steps[1]!.items.map((i) => i.id)).toEqual(['12']);
  });

  it('keeps a colour or description the file leaves out as the service has it', () => {
    const desired = pull(demoSets());
    for (const item of desired[0]!.labelItems) delete item.color;
    desired[0]!.labelItems[0]!.labelName = 'THING';
    const p = plan(desired);
    expect(kinds(p)).toEqual(['rename-items@0']);
    expect(p.writes[0]).toMatchObject({ labelItems: expect.arrayContaining([{ id: '11', parentId: '10', labelName: 'PERSON', color: '#ef4444', desc: null }]) });
  });

  it('creates a set the project does not have, deletes one the file does not have, after the updates', () => {
    const desired = pull(demoSets());
    desired[0]!.labelItems[0]!.color = '#000000';
    desired.splice(1, 1, { index: 3, name: 'Sentiment', labelItems: [{ labelName: 'Positive' }, { id: 'neg', labelName: 'Negative' }, { labelName: 'positive!' }] });
    const p = plan(desired, { appliedLabels: { '2': { '20': 4 } } });
    expect(p.writes.map((w) => `${w.op}:${w.setIndex}`)).toEqual(['update:0', 'create:3', 'delete:1']);
    expect(p.writes[1]).toEqual({
      op: 'create',
      setIndex: 3,
      name: 'Sentiment',
      labelItems: [
        { id: 'positive', parentId: null, labelName: 'Positive' },
        { id: 'neg', parentId: null, labelName: 'Negative' },
        { id: 'positive-2', parentId: null, labelName: 'positive!' },
      ],
    });
    expect(p.steps.slice(1)).toEqual([
      { kind: 'create-set', setIndex: 3, setId: null, setName: 'Sentiment', items: [{ id: 'positive', labelName: 'Positive' }, { id: 'neg', labelName: 'Negative' }, { id: 'positive-2', labelName: 'positive!' }], destroysLabels: false, appliedLabels: 0, write: 1 },
      { kind: 'delete-set', setIndex: 1, setId: '2', setName: 'Relations', items: [{ id: '20', labelName: 'WORKS_FOR', appliedLabels: 4 }], destroysLabels: true, appliedLabels: 4, write: 2 },
    ]);
    expect(destructiveSteps(p)).toMatchObject({ appliedLabels: 4, steps: [{ kind: 'delete-set' }] });
  });

  it('matches a set without an id by its index', () => {
    const desired = pull(demoSets());
    delete desired[1]!.id;
    desired[1]!.name = 'Links';
    expect(plan(desired).writes).toEqual([{ op: 'update', setIndex: 1, setId: '2', name: 'Links' }]);
  });

  it('lists every reason the file cannot be reached, with the file line when it knows it', () => {
    const desired = pull(demoSets());
    desired[0]!.id = '9';
    desired[1]!.index = 2;
    const error = (() => {
      try {
        plan(desired, { where: (path: (string | number)[]) => `labels.json:${path.join('.')}` });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LabelSetsPlanError);
    expect((error as LabelSetsPlanError).problems).toEqual([
      saying('labels.json:labelSets.0.id:', '"9"', 'not in the project', 'leave the id out'),
      saying('labels.json:labelSets.1.index:', '"Relations" (id 2)', 'cannot move from index 1 to 2', 'applied labels'),
    ]);
  });

  it('warns when the file was pulled from another version of a set, and when a new id replaces a live label of the same name', () => {
    const desired = pull(demoSets());
    desired[0]!.signature = 'old-signature';
    desired[0]!.labelItems[4]!.id = 'date';
    const live = demoSets();
    live[0]!.signature = 'new-signature';
    const p = plan(desired, {}, live);
    expect(kinds(p)).toEqual(['add-items@0', 'remove-items@0']);
    expect(p.warnings).toEqual([
      saying('labelSets[0].labelItems[4].id:', '"DATE"', '"date"', 'replaces the live "DATE" (id 14)', 'applied labels go', 'leave the id out'),
      saying('labelSets[0].signature:', '"Entities" changed on the service', 'old-signature → new-signature', 'undoes those changes', 'pull again'),
    ]);
  });
});
