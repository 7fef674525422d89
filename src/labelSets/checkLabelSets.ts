import { MAX_LABEL_SETS, ROLES } from '../shared/constants.js';
import { controlCharacterIn } from '../shared/escape.js';
import { isRecord } from '../shared/isRecord.js';
import { labelFieldProblem, labelItemProblems, labelSetCountProblem } from '../shared/labelItemRules.js';
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
const ITEM_KEYS = ['id', 'parentId', 'parent', 'labelName', 'color', 'desc'];

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

const quote = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value));

/**
 * The rule against control characters, for text that a plan would write to the service and a
 * terminal would show: none at all in names and ids (NUL, ESC, CR, DEL, C1, bidirectional
 * overrides: the characters `terminalText` escapes); a description may also hold line feeds and tabs.
 */
function controlProblem(value: string, lineBreaks = false): string | undefined {
  const found = controlCharacterIn(value, { lineBreaks });
  if (!found) return undefined;
  return `must not hold control characters (NUL, ESC, CR and the like${lineBreaks ? '; line feed and tab are fine' : ''}): ${found.shown} at character ${found.index + 1}`;
}

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
 * `parentId` (the id of another label of the set) or `parent` (the name of another label of the
 * set, or its path from the top such as `ENTITY/PERSON`: see `parentIndexes`; not both),
 * `color` (`#rrggbb` or null) and `desc` (text or null) are optional. Among the labels of one parent no two names may differ only in
 * case, and `parentId` may not form a cycle (reported at each label of it). The rules of the
 * labels and the count of sets are the ones the client and the emulator use
 * (src/shared/labelItemRules.ts). No name, id or signature holds a control character (NUL, ESC,
 * CR, DEL, C1, bidirectional overrides), nor a description but line feed and tab: a plan would
 * write them to the service and a terminal act on them. Unknown fields are refused (a misspelt `colour` would otherwise
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
    else if (controlProblem(v)) add([key], controlProblem(v)!);
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
    else if (controlProblem(raw.id)) fail('id', controlProblem(raw.id)!);
    else set.id = raw.id;
  }
  const index = raw.index;
  if (index === undefined) fail('index', `required: the set's position, 0 to ${MAX_LABEL_SETS - 1}`);
  else if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= MAX_LABEL_SETS) {
    fail('index', `must be an integer from 0 to ${MAX_LABEL_SETS - 1} (got ${quote(index)})`);
  } else set.index = index;
  if (typeof raw.name !== 'string' || raw.name.trim() === '') fail('name', raw.name === undefined ? "required: the set's name" : 'must be a non-empty string');
  else if (controlProblem(raw.name)) fail('name', controlProblem(raw.name)!);
  else set.name = raw.name;
  if (raw.signature !== undefined) {
    if (raw.signature !== null && typeof raw.signature !== 'string') fail('signature', 'must be a string or null');
    else if (typeof raw.signature === 'string' && controlProblem(raw.signature)) fail('signature', controlProblem(raw.signature)!);
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
  // A `parent` given by name or path becomes the key of the label it names, so that the one set
  // of rules (src/shared/labelItemRules.ts) checks the hierarchy whichever way it is written.
  const { keys, parentKeys, problems: parentProblems } = parentReferences(raw.labelItems);
  for (const [i, message] of parentProblems) add([...path, 'labelItems', i, 'parent'], message);
  const keyed = raw.labelItems.map((item: unknown, i) => (isRecord(item) ? { ...item, id: keys[i], parentId: parentKeys[i] } : item));
  const rules = labelItemProblems(keyed, { fields: { name: 'labelName' }, refer: (i) => referTo(raw.labelItems as unknown[], i) });
  for (const p of rules) {
    const given = raw.labelItems[p.index] as Record<string, unknown>;
    const byName = p.field === 'parentId' && usable(given.parentId) === undefined && usable(given.parent) !== undefined;
    add([...path, 'labelItems', p.index, p.field === 'name' ? 'labelName' : byName ? 'parent' : p.field], p.message);
  }
  if (!ok || rules.length > 0 || parentProblems.size > 0) return { ...set, labelItems: [] };
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
  // The shape of each field is the shared rule (labelFieldProblem), then the file's own: no control
  // characters (a desc may keep line feeds and tabs). A null id is one left out.
  /** Whether `key` keeps its rules (else its problem is added) and is given. */
  const rule = (key: string, message: string | undefined, lineBreaks = false) => {
    const value = raw[key];
    const problem = message ?? (typeof value === 'string' ? controlProblem(value, lineBreaks) : undefined);
    if (problem !== undefined) fail(key, problem);
    return problem === undefined && value !== undefined;
  };
  if (rule('id', labelFieldProblem('id', raw.id ?? undefined, true)) && raw.id !== null) item.id = raw.id as string;
  if (rule('parentId', labelFieldProblem('parentId', raw.parentId))) item.parentId = raw.parentId as string | null;
  if (raw.parent !== undefined && raw.parent !== null) {
    if (typeof raw.parent !== 'string' || raw.parent.trim() === '') fail('parent', 'must be the name of another label of the set, or its path from the top such as "ENTITY/PERSON"');
    else if (usable(raw.parentId) !== undefined) fail('parent', 'give parentId (an id) or parent (a name or path), not both');
    else if (controlProblem(raw.parent)) fail('parent', controlProblem(raw.parent)!);
    else item.parent = raw.parent;
  }
  if (rule('labelName', labelFieldProblem('name', raw.labelName))) item.labelName = raw.labelName as string;
  if (typeof raw.color === 'string' || raw.color === null) item.color = raw.color; // its rule: labelItemProblems
  if (rule('desc', labelFieldProblem('desc', raw.desc), true)) item.desc = raw.desc as string | null;
  return { item, ok };
}

/** Another label of the list as a message names it: `labelItems[0] ("PERSON")`. */
function referTo(items: unknown[], i: number): string {
  const name = (items[i] as { labelName?: unknown }).labelName;
  return typeof name === 'string' && name.trim() !== '' ? `labelItems[${i}] (${quote(name)})` : `labelItems[${i}]`;
}

const usable = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The parent of each label of a list as an index in it: by `parentId` (the id of a label of the
 * list) or by `parent` (a label's name, or its path from the top with `/` between names, e.g.
 * `ENTITY/PERSON`; names compare case-insensitively, as the service compares them).
 *
 * @param items - the labels as given (a file's, or checked ones)
 * @returns for each label, the index of its parent, `null` at the top, or undefined when its
 * reference names no label, or more than one
 * @remarks `parent` is first taken as a whole name (a name may hold a `/`); when no label or more
 * than one has that name and it holds a `/`, as a path. A cycle is left to the rules of
 * labelItemProblems (its labels resolve to each other).
 * @example
 * ```ts
 * parentIndexes([{ labelName: 'ENTITY' }, { labelName: 'PERSON', parent: 'ENTITY' }]); // [null, 0]
 * ```
 */
export function parentIndexes(items: readonly unknown[]): (number | null | undefined)[] {
  return resolveParents(items).parents;
}

function resolveParents(items: readonly unknown[]): { parents: (number | null | undefined)[]; problems: Map<number, string> } {
  const field = (i: number, key: string) => (isRecord(items[i]) ? usable((items[i] as Record<string, unknown>)[key]) : undefined);
  const nameOf = (i: number) => field(i, 'labelName')?.toLowerCase();
  const byId = new Map<string, number>();
  items.forEach((_, i) => {
    const id = field(i, 'id');
    if (id !== undefined && !byId.has(id)) byId.set(id, i);
  });
  const problems = new Map<number, string>();
  const memo = new Map<number, number | null | undefined>();
  const visiting = new Set<number>();
  const named = (name: string) => items.flatMap((_, j) => (nameOf(j) === name.trim().toLowerCase() ? [j] : []));
  const pathOf = (j: number): string => {
    const names: string[] = [];
    for (let at: number | null | undefined = j, n = 0; typeof at === 'number' && n <= items.length; at = parentOf(at), n++) names.unshift(field(at, 'labelName') ?? '?');
    return names.join('/');
  };
  /** Whether label j sits at this path (names from the top). */
  const atPath = (j: number, segments: string[]): boolean => {
    let at: number | null | undefined = j;
    for (let k = segments.length - 1; k >= 0; k--) {
      if (typeof at !== 'number' || nameOf(at) !== segments[k]) return false;
      at = parentOf(at);
    }
    return at === null;
  };
  function parentOf(i: number): number | null | undefined {
    if (memo.has(i)) return memo.get(i);
    if (visiting.has(i)) return undefined; // a cycle of paths: reported by the rules, or as unknown
    visiting.add(i);
    let found: number | null | undefined = null;
    const id = field(i, 'parentId');
    const text = id === undefined ? field(i, 'parent') : undefined;
    if (id !== undefined) found = byId.get(id);
    else if (text !== undefined) {
      const byName = named(text);
      const segments = text.split('/').map((s) => s.trim().toLowerCase());
      const byPath = byName.length !== 1 && segments.length > 1 ? items.flatMap((_, j) => (atPath(j, segments) ? [j] : [])) : [];
      if (byName.length === 1) found = byName[0];
      else if (byPath.length === 1) found = byPath[0];
      else {
        found = undefined;
        const quoted = JSON.stringify(text);
        const many = byPath.length > 1 ? byPath : byName;
        problems.set(
          i,
          many.length > 1
            ? `${quoted} names ${many.length} labels of this set (${many.map((j) => JSON.stringify(pathOf(j))).join(', ')}): give the path of one from the top`
            : `no label of this set has the name${segments.length > 1 ? ' or the path' : ''} ${quoted} (parent is another label's name, or its path from the top such as "ENTITY/PERSON")`,
        );
      }
    }
    visiting.delete(i);
    memo.set(i, found);
    return found;
  }
  return { parents: items.map((_, i) => parentOf(i)), problems };
}

/**
 * What the rules of labelItemProblems see of each label: its id, or a stand-in key for a label
 * without one (its name when no other label has that name or id, else the name and its place),
 * and the key of its parent (by `parentId` as written, so an unknown id is reported as such; by
 * `parent` as resolved).
 */
function parentReferences(items: readonly unknown[]): { keys: (string | undefined)[]; parentKeys: (string | undefined)[]; problems: Map<number, string> } {
  const { parents, problems } = resolveParents(items);
  const field = (i: number, key: string) => (isRecord(items[i]) ? usable((items[i] as Record<string, unknown>)[key]) : undefined);
  const taken = new Set(items.flatMap((_, i) => field(i, 'id') ?? []));
  const names = new Map<string, number>();
  items.forEach((_, i) => {
    const name = field(i, 'labelName')?.toLowerCase();
    if (name !== undefined) names.set(name, (names.get(name) ?? 0) + 1);
  });
  const keys = items.map((_, i) => {
    const id = field(i, 'id');
    if (id !== undefined) return id;
    const name = field(i, 'labelName');
    if (name === undefined) return undefined;
    let key = names.get(name.toLowerCase()) === 1 && !taken.has(name) ? name : `${name} (labelItems[${i}])`;
    while (taken.has(key)) key = `${key}'`;
    taken.add(key);
    return key;
  });
  const parentKeys = items.map((_, i) => {
    const id = field(i, 'parentId');
    if (id !== undefined) return id;
    const parent = parents[i];
    return typeof parent === 'number' ? keys[parent] : undefined;
  });
  return { keys, parentKeys, problems };
}
