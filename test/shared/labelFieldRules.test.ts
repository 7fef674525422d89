// One label field (id, name, parentId, desc) has one rule and one wording wherever a label is
// given: the client's label-set writes, the label-set file, the emulator's project data and its writes. Each place
// names the field its own way (labelName, labelItems[1].desc, labels[1].desc): the rule reads the same.
import { describe, expect, it } from 'vitest';
import { checkCreateLabelSet } from '../../src/client/validation.js';
import { checkLabelSet } from '../../src/emulator/labelSetCheck.js';
import { checkLabels } from '../../src/emulator/labelSetWrites.js';
import { checkLabelSets } from '../../src/labelSets/checkLabelSets.js';
import { labelFieldProblem } from '../../src/shared/labelItemRules.js';

/** A set's second label with one bad field, in each place's words; the first label is valid. */
function messages(field: 'id' | 'name' | 'parentId' | 'desc', value: unknown): { client: string[]; file: string[]; emulator: string[]; emulatorWrites: string[] } {
  const key = field === 'name' ? 'labelName' : field;
  const good = { id: 'a', labelName: 'A' };
  const bad: Record<string, unknown> = { id: 'b', labelName: 'B', [key]: value };
  if (value === undefined) delete bad[key];
  const client = checkCreateLabelSet('p1', { index: 0, name: 'E', labelItems: [good, bad] })
    .filter((p) => p.path === `input.labelItems[1].${key}`)
    .map((p) => p.message);
  const file = (checkLabelSets({ labelSets: [{ index: 0, name: 'E', labelItems: [good, bad] }] }).problems ?? [])
    .filter((p) => p.path.join('.') === `labelSets.0.labelItems.1.${key}`)
    .map((p) => p.message);
  const { labelName: goodName, ...goodRest } = good;
  const { labelName: badName, ...badRest } = bad;
  const emulatorBad: Record<string, unknown> = { ...badRest, ...('labelName' in bad && { name: badName }) };
  const emulator = checkLabelSet({ name: 'E', labels: [{ ...goodRest, name: goodName }, emulatorBad] })
    .problems.filter((p) => p.path.join('.') === `labels.1.${field}`)
    .map((p) => p.message);
  const written = checkLabels([{ ...goodRest, name: goodName }, emulatorBad] as unknown as Parameters<typeof checkLabels>[0], [])
    .problems.filter((p) => p.path.join('.') === `labels.1.${field}`)
    .map((p) => p.message);
  return { client, file, emulator, emulatorWrites: written };
}

describe('the rules of one label field', () => {
  it.each([
    ['desc', 3, 'must be a string or null'],
    ['parentId', '  ', 'must be the id of another label of the set, or null'],
    ['parentId', 7, 'must be the id of another label of the set, or null'],
    ['name', '', 'must be a non-empty string'],
    ['name', undefined, "required: the label's name"],
  ] as const)('%s %j reads the same in the client, the label-set file and the emulator', (field, value, message) => {
    expect(messages(field, value)).toEqual({ client: [message], file: [message], emulator: [message], emulatorWrites: [message] });
  });

  it('an id is required where a label is stored, and may be left out where a label is new', () => {
    expect(messages('id', ' ')).toEqual({
      client: ['must be a non-empty string'],
      file: ['must be a non-empty string, or left out to have one generated'],
      emulator: ['must be a non-empty string'],
      emulatorWrites: ['must be a non-empty string'],
    });
    expect(labelFieldProblem('id', undefined, true)).toBeUndefined();
    expect(labelFieldProblem('id', undefined)).toBe('must be a non-empty string');
  });
});

describe('the labels of a label-set write', () => {
  it('get the same problems, in the same order, from the client before it sends them and from the emulator that takes them', () => {
    // Each label breaks field rules and list rules at once: a blank name, parents that are no id or
    // no label, a desc that is no text, a repeated id and name, a bad colour.
    const labels = [
      { id: 'a', name: ' ', parentId: 7, desc: 3 },
      { id: 'a', name: 'B', parentId: 'zz', color: 'red' },
      { id: 'c', name: 'b', desc: 4 },
    ];
    const client = checkCreateLabelSet('p1', { index: 0, name: 'E', labelItems: labels.map(({ name, ...rest }) => ({ ...rest, labelName: name })) }).map((p) => ({
      at: p.path.replace(/^input\.labelItems\[(\d+)\]\.labelName$/, 'labels.$1.name').replace(/^input\.labelItems\[(\d+)\]\./, 'labels.$1.'),
      message: p.message.replaceAll(/input\.labelItems\[(\d+)\]/g, 'label $1'),
    }));
    const emulator = checkLabels(labels as unknown as Parameters<typeof checkLabels>[0], []).problems.map((p) => ({ at: p.path.join('.'), message: p.message }));
    expect(client.length).toBeGreaterThan(6);
    expect(client).toEqual(emulator);
  });
});
