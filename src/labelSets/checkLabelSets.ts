import { MAX_LABEL_SETS, ROLES } from '../shared/constants.js';
import { labelItemProblems, labelSetCountProblem } from '../shared/labelItemRules.js';
import type { Role } from 'labelkit';
import type { LabelItemSpec, LabelSetSpec, LabelSetsFile } from './types.js';

/** A key or index on the way to a value, e.g. `['labelSets', 0, 'labelItems', 3, 'color']`. */
export type ValuePath = (string | number)[];

/** One problem of a label-set document, at the path of the value at fault. */
export interface SpecProblem {
  path: ValuePath;
  message: string;
}

const FILE_KEYS = ['projectId', 'role', 'cabinetId', 'labelSets'];
const SET_KEYS = ['id', 'index', 'name', 'signature', 'labelItems'];
const ITEM_KEYS = ['id', 'parentId', 'labelName', 'color', 'desc'];

/**
 * Writes a path the way a person reads it: `labelSets[0].labelItems[3].color`.
 *
 * @param path - keys and indexes
 * @returns the path as text (`(top)` for the document itself)
 * @example
 * ```ts
 * pathText(['labelSets', 0, 'name']); // 'labelSets[0].name'
 * ```
 */
export function pathText(path: ValuePath): string {
  const text = path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
  return text === '' ? '(top)' : text;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const quote = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value));

/**
 * Checks a label-set document (parsed from a file, or built in code) and returns it typed.
 *
 * @param value - the parsed document
 * @returns `file`, the document typed and normalized (role upper-cased, `null` ids dropped),
 * when there is no problem; `problems`, every problem at once, each at its path
 * @remarks Rules: the document is an object with `labelSets`, a list of at most 5 sets;
 * `projectId`, `role` (`LABELER`/`REVIEWER`, any case) and `cabinetId` are optional. Each set
 * has `index` (an integer 0–4, unique), a non-empty `name` and `labelItems`; `id` (unique) and
 * `signature` are optional. Each label has a non-empty `labelName`; `id` (unique in its set),
 * `parentId` (the id of another label of the set), `color` (`#rrggbb` or null) and `desc`
 * (text or null) are optional. Among the labels of one parent no two names may differ only in
 * case, and `parentId` may not form a cycle (reported at each label of it). The rules of the
 * labels and the count of sets are the ones the client and the emulator use
 * (src/shared/labelItemRules.ts). Unknown fields are refused (a misspelt `colour` would otherwise
 * be dropped without a word).
 * @example
 * ```ts
 * checkLabelSets({ labelSets: [{ index: 0, name: 'E', labelItems: [{ labelName: 'A', color: 'red' }] }] }).problems;
 * // [{ path: ['labelSets', 0, 'labelItems', 0, 'color'], message: 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "red")' }]
 * ```
 */
export function checkLabelSets(value: unknown): { file?: LabelSetsFile; problems: SpecProblem[] } {
  const problems: SpecProblem[] = [];
  const add = (path: ValuePath, message: string) => void problems.push({ path, message });
  if (!isRecord(value)) {
    add([], 'must be an object with "labelSets" (what labelkit label-sets --json prints)');
    return { problems };
  }
  unknownKeys(value, FILE_KEYS, [], add);
  const file: LabelSetsFile = { labelSets: [] };
  for (const key of ['projectId', 'cabinetId'] as const) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v.trim() === '') add([key], 'must be a non-empty string');
    else file[key] = v.trim();
  }
  if (value.role !== undefined && value.role !== null) {
    const role = typeof value.role === 'string' ? value.role.toUpperCase() : undefined;
    if (role === undefined || !(ROLES as readonly string[]).includes(role)) add(['role'], `must be ${ROLES.join(' or ')} (got ${quote(value.role)})`);
    else file.role = role as Role;
  }
  if (!Array.isArray(value.labelSets)) {
    add(['labelSets'], value.labelSets === undefined ? 'required: a list of label sets' : 'must be a list of label sets');
    return { problems };
  }
  const tooMany = labelSetCountProblem(value.labelSets.length);
  if (tooMany) add(['labelSets'], tooMany);
  const setIds = new Map<string, number>();
  const indexes = new Map<number, number>();
  value.labelSets.forEach((raw: unknown, s) => {
    const set = checkSet(raw, ['labelSets', s], add);
    if (!set) return;
    if (set.id !== undefined) {
      const first = setIds.get(set.id);
      if (first !== undefined) add(['labelSets', s, 'id'], `label set id ${quote(set.id)} is used twice (also labelSets[${first}])`);
      else setIds.set(set.id, s);
    }
    if (Number.isInteger(set.index)) {
      const first = indexes.get(set.index);
      if (first !== undefined) add(['labelSets', s, 'index'], `index ${set.index} is used twice (also labelSets[${first}])`);
      else indexes.set(set.index, s);
    }
    file.labelSets.push(set);
  });
  return problems.length > 0 ? { problems } : { file, problems };
}

function unknownKeys(value: Record<string, unknown>, known: string[], path: ValuePath, add: (path: ValuePath, message: string) => void): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) add([...path, key], `unknown field ${quote(key)} (known: ${known.join(', ')})`);
  }
}

/** One set: its own fields, then its labels and their hierarchy. Returns the set unless its shape is wrong. */
function checkSet(raw: unknown, path: ValuePath, add: (path: ValuePath, message: string) => void): LabelSetSpec | undefined {
  if (!isRecord(raw)) {
    add(path, 'a label set must be an object with index, name and labelItems');
    return undefined;
  }
  unknownKeys(raw, SET_KEYS, path, add);
  let ok = true;
  const fail = (key: string, message: string) => {
    add([...path, key], message);
    ok = false;
  };
  const set = { labelItems: [] } as unknown as LabelSetSpec;
  if (raw.id !== undefined && raw.id !== null) {
    if (typeof raw.id !== 'string' || raw.id.trim() === '') fail('id', 'must be a non-empty string (or left out for a new set)');
    else set.id = raw.id;
  }
  const index = raw.index;
  if (index === undefined) fail('index', `required: the set's position, 0 to ${MAX_LABEL_SETS - 1}`);
  else if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= MAX_LABEL_SETS) {
    fail('index', `must be an integer from 0 to ${MAX_LABEL_SETS - 1} (got ${quote(index)})`);
  } else set.index = index;
  if (typeof raw.name !== 'string' || raw.name.trim() === '') fail('name', raw.name === undefined ? "required: the set's name" : 'must be a non-empty string');
  else set.name = raw.name;
  if (raw.signature !== undefined) {
    if (raw.signature !== null && typeof raw.signature !== 'string') fail('signature', 'must be a string or null');
    else set.signature = raw.signature;
  }
  if (!Array.isArray(raw.labelItems)) {
    add([...path, 'labelItems'], raw.labelItems === undefined ? 'required: a list of labels (may be empty)' : 'must be a list of labels');
    return set; // still checked against the other sets (index, id)
  }
  // Every label is checked, and the hierarchy too, from what is usable of each: every problem at once.
  const items = raw.labelItems.map((item: unknown, i) => {
    const checked = checkItem(item, [...path, 'labelItems', i], add);
    if (!checked.ok) ok = false;
    return checked.item;
  });
  const rules = labelItemProblems(raw.labelItems, { fields: { name: 'labelName' }, refer: (i) => referTo(raw.labelItems as unknown[], i) });
  for (const p of rules) add([...path, 'labelItems', p.index, p.field === 'name' ? 'labelName' : p.field], p.message);
  if (!ok || rules.length > 0) return { ...set, labelItems: [] };
  set.labelItems = items as LabelItemSpec[];
  return set;
}

function checkItem(raw: unknown, path: ValuePath, add: (path: ValuePath, message: string) => void): { item: Partial<LabelItemSpec>; ok: boolean } {
  if (!isRecord(raw)) {
    add(path, 'a label must be an object with labelName');
    return { item: {}, ok: false };
  }
  unknownKeys(raw, ITEM_KEYS, path, add);
  let ok = true;
  const fail = (key: string, message: string) => {
    add([...path, key], message);
    ok = false;
  };
  const item: Partial<LabelItemSpec> = {};
  if (raw.id !== undefined && raw.id !== null) {
    if (typeof raw.id !== 'string' || raw.id.trim() === '') fail('id', 'must be a non-empty string (or left out for a new label)');
    else item.id = raw.id;
  }
  if (raw.parentId !== undefined) {
    if (raw.parentId !== null && (typeof raw.parentId !== 'string' || raw.parentId.trim() === '')) fail('parentId', 'must be the id of another label of the set, or null');
    else item.parentId = raw.parentId;
  }
  if (typeof raw.labelName !== 'string' || raw.labelName.trim() === '') {
    fail('labelName', raw.labelName === undefined ? "required: the label's name" : 'must be a non-empty string');
  } else item.labelName = raw.labelName;
  if (typeof raw.color === 'string' || raw.color === null) item.color = raw.color; // its rule: labelItemProblems
  if (raw.desc !== undefined) {
    if (raw.desc !== null && typeof raw.desc !== 'string') fail('desc', 'must be text or null');
    else item.desc = raw.desc;
  }
  return { item, ok };
}

/** Another label of the list as a message names it: `labelItems[0] ("PERSON")`. */
function referTo(items: unknown[], i: number): string {
  const name = (items[i] as { labelName?: unknown }).labelName;
  return typeof name === 'string' && name.trim() !== '' ? `labelItems[${i}] (${quote(name)})` : `labelItems[${i}]`;
}
