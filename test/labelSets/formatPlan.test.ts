import { describe, expect, it } from 'vitest';
import { diffLabelSets, formatLabelSetPlan } from '../../src/labelSets/index.js';
import type { LabelSetSpec } from '../../src/labelSets/index.js';
import { demoSets } from './memoryClient.js';

const pulled = (): LabelSetSpec[] => structuredClone(demoSets());

describe('formatLabelSetPlan', () => {
  it('prints each set’s changes with + ~ -, the writes in order, what is destructive, and the warnings', () => {
    const desired = pulled();
    const items = desired[0]!.labelItems;
    desired[0]!.name = 'Named entities';
    items[1]!.labelName = 'PER';
    items[2]!.color = null;
    items[3]!.parentId = null;
    items[4]!.desc = 'A calendar date';
    items.push({ parentId: '10', labelName: 'NORP' });
    desired.splice(1, 1, { index: 2, name: 'Sentiment', labelItems: [{ labelName: 'Positive' }] });
    const live = demoSets();
    live[1]!.signature = 'abc';
    const plan = diffLabelSets('demo-project', 'LABELER', live, desired, { appliedLabels: { '1': { '11': 5 } } });
    plan.warnings.push('an example warning');
    expect(formatLabelSetPlan(plan)).toEqual([
      'label set 0 "Named entities" (id 1)',
      '  ~ name "Entities" → "Named entities"',
      '  + NORP (id norp)',
      '  ~ PER (id 11): name PERSON → PER',
      '  ~ ORGANIZATION (id 12): colour #3b82f6 → (none)',
      '  ~ LOCATION (id 13): parent ENTITY → (top level)',
      '  ~ DATE (id 14): description (none) → "A calendar date"',
      'label set 2 "Sentiment" (new)',
      '  + Positive (id positive)',
      'label set 1 "Relations" (id 2)',
      '  - delete the set and its 1 label: an unknown number of applied labels go',
      '',
      '3 writes, in this order:',
      '  1. rename and replace the labels of label set 0 "Named entities" (id 1), 6 labels',
      '  2. create label set 2 "Sentiment" with 1 label',
      '  3. delete label set 1 "Relations" (id 2)',
      'Destructive: 1 step removes an unknown number of applied labels (apply needs --allow-destructive).',
      'warning: an example warning',
    ]);
  });

  it('says so when nothing changes, and counts known applied labels', () => {
    const same = diffLabelSets('demo-project', 'REVIEWER', demoSets(), pulled());
    expect(formatLabelSetPlan(same)).toEqual(['No changes: the 2 label sets of demo-project (REVIEWER) are as the file says.']);
    const desired = pulled();
    desired[0]!.labelItems.splice(1, 1);
    const removing = diffLabelSets('demo-project', 'LABELER', demoSets(), desired, { appliedLabels: { '1': { '11': 1 } } });
    expect(formatLabelSetPlan(removing).filter((l) => /^ {2}-|Destructive/.test(l))).toEqual([
      '  - PERSON (id 11): removed, 1 applied label goes',
      'Destructive: 1 step removes 1 applied label (apply needs --allow-destructive).',
    ]);
  });

  it('agrees in number, and says when --allow-destructive was given instead of asking for it', () => {
    const one = diffLabelSets('demo-project', 'LABELER', demoSets().slice(0, 1), pulled().slice(0, 1));
    expect(formatLabelSetPlan(one)).toEqual(['No changes: the 1 label set of demo-project (LABELER) is as the file says.']);
    const desired = pulled();
    desired[0]!.labelItems.splice(1, 1);
    desired.splice(1, 1);
    const two = diffLabelSets('demo-project', 'LABELER', demoSets(), desired);
    expect(formatLabelSetPlan(two).filter((l) => l.startsWith('Destructive'))).toEqual([
      'Destructive: 2 steps remove an unknown number of applied labels (apply needs --allow-destructive).',
    ]);
    expect(formatLabelSetPlan(two, { destructiveAllowed: true }).filter((l) => l.startsWith('Destructive'))).toEqual([
      'Destructive: 2 steps remove an unknown number of applied labels (allowed by --allow-destructive).',
    ]);
  });

  it('colours the signs on a terminal', () => {
    const desired = pulled();
    desired[0]!.labelItems.push({ labelName: 'EVENT' });
    const lines = formatLabelSetPlan(diffLabelSets('p', 'LABELER', demoSets(), desired), { color: true });
    expect(lines[1]).toBe('\u001b[32m  + EVENT (id made by the service)\u001b[39m');
  });
});
