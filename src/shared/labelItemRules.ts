/**
 * The one home of the rules of a label set's items: each field's shape ({@link labelFieldProblem}), ids unique, names unique (case-insensitively)
 * under one parent or in the whole set, every `parentId` naming an item of the set, no item its own
 * parent, no cycle of parents, colours `#rrggbb`; and how many sets a project may have.
 *
 * @remarks Pure, and imports only from src/shared, so that the client (and its browser build), the
 * label-set file checker and the emulator all use it, in the same words. Each caller checks the
 * shape of its own containers (a label that is no object, unknown keys) and maps each problem here
 * to its own path (`input.labelItems[2].labelName`, `labels[2].name`, a file's line).
 * @packageDocumentation
 */
import { LABEL_COLOR, MAX_LABEL_SETS } from './constants.js';
import { isRecord } from './isRecord.js';

/** The fields the rules read, by their role; {@link LabelItemRuleOptions.fields} names them in the caller's shape. */
type LabelItemField = 'id' | 'parentId' | 'name' | 'color' | 'desc';

/** One broken rule, at the item (its index in the list) and field at fault. */
export interface LabelItemProblem {
  /** The index of the item at fault in the list given. */
  index: number;
  /** Which field breaks the rule (in the rule's words; map it with `fields`). */
  field: LabelItemField;
  /** The rule broken, e.g. `"a" is also the id of label 0`. Quotes ids, names and colours, nothing else. */
  message: string;
  /** For a duplicate id or name: the index of the item that has it first. */
  other?: number;
}

/** Options of {@link labelItemProblems}. */
interface LabelItemRuleOptions {
  /**
   * The keys of the caller's items for each field, e.g. `{ name: 'labelName' }` for the client's
   * and the file's label words.
   * @defaultValue the fields' own names (`{ id: 'id', name: 'name', … }`)
   */
  fields?: Partial<Record<LabelItemField, string>>;
  /**
   * Where names must be unique: `siblings`, among the items of one parent (as the service
   * compares names); `set`, in the whole set (the emulator's data folder, whose sets are matched by name).
   * @defaultValue 'siblings'
   */
  uniqueNames?: 'siblings' | 'set';
  /**
   * `hex`: a colour, when given, must match {@link LABEL_COLOR}; `any`: any text (what the service
   * may publish when it is read, which the specification calls a colour name).
   * @defaultValue 'hex'
   */
  colors?: 'hex' | 'any';
  /**
   * Check `parentId`s (known, not the item itself, no cycle). `false` for items that all go at the
   * top of a set (an append): their `parentId` is the caller's to refuse, and names compare at the top.
   * @defaultValue true
   */
  hierarchy?: boolean;
  /**
   * How a message names another item of the list.
   * @defaultValue `(i) => 'label ' + i`
   */
  refer?: (index: number) => string;
  /**
   * Compare blank text too (an empty or white-space id, name or `parentId` is one like any other):
   * for items read from the service, which no shape check of the caller has seen.
   * @defaultValue false
   */
  blanks?: boolean;
}

/** The keys of each field where the caller's items use the fields' own names. */
const OWN_KEYS: Record<LabelItemField, string> = { id: 'id', parentId: 'parentId', name: 'name', color: 'color', desc: 'desc' };

const MAX_QUOTED = 40;

/** A value as a message shows it: JSON, cut after a few dozen characters. */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/** Text with something besides white space (any text with `blanks`), or undefined. */
function usable(value: unknown, blanks = false): string | undefined {
  return typeof value === 'string' && (blanks || value.trim() !== '') ? value : undefined;
}

/**
 * Finds every problem of a label set's items at once.
 *
 * @param items - the items as given (typed `unknown`: they often come from a file); an item that is
 * not an object, and a field that is not usable text, are left to the caller's own shape checks
 * @param options - see {@link LabelItemRuleOptions}
 * @returns the problems: first those of each item in list order (a duplicate id, a duplicate name,
 * a colour), then those of the hierarchy in list order (an unknown parent, an item its own parent,
 * a cycle)
 * @remarks A duplicate id or name is reported at its second use, naming the first. A cycle is
 * reported at each of its items, with the ids around it; an item whose chain runs into a cycle
 * without being part of it is not (fixing the cycle fixes it). Linear: each item is walked up once.
 * @example
 * ```ts
 * labelItemProblems([{ id: 'a', name: 'A' }, { id: 'a', name: 'a', color: 'red' }]);
 * // [{ index: 1, field: 'id', message: '"a" is also the id of label 0', other: 0 },
 * //  { index: 1, field: 'name', message: '"a" is also the name of label 0 (both at the top of the set; …)', other: 0 },
 * //  { index: 1, field: 'color', message: 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "red")' }]
 * ```
 */
export function labelItemProblems(items: readonly unknown[], options: LabelItemRuleOptions = {}): LabelItemProblem[] {
  const keys = { ...OWN_KEYS, ...options.fields };
  const refer = options.refer ?? ((i: number) => `label ${i}`);
  const hierarchy = options.hierarchy ?? true;
  const field = (i: number, f: LabelItemField): unknown => {
    const item = items[i];
    return typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[keys[f]] : undefined;
  };
  const { blanks } = options;
  const ids = items.map((_, i) => usable(field(i, 'id'), blanks));
  const parents = items.map((_, i) => (hierarchy ? usable(field(i, 'parentId'), blanks) : undefined));
  const problems: LabelItemProblem[] = [];
  const byId = new Map<string, number>();
  const byName = new Map<string, number>();
  items.forEach((_, i) => {
    const id = ids[i];
    if (id !== undefined) {
      const first = byId.get(id);
      if (first === undefined) byId.set(id, i);
      else problems.push({ index: i, field: 'id', message: `${quote(id)} is also the id of ${refer(first)}`, other: first });
    }
    const name = usable(field(i, 'name'), blanks);
    if (name !== undefined) {
      const parent = options.uniqueNames === 'set' ? undefined : parents[i];
      const key = JSON.stringify([parent ?? null, name.toLowerCase()]);
      const first = byName.get(key);
      const where = options.uniqueNames === 'set' ? 'names are unique in the set' : `both ${parent === undefined ? 'at the top of the set' : `under the parent ${quote(parent)}`}`;
      if (first === undefined) byName.set(key, i);
      else problems.push({ index: i, field: 'name', message: `${quote(name)} is also the name of ${refer(first)} (${where}; names compare case-insensitively)`, other: first });
    }
    const color = field(i, 'color');
    if (color !== undefined && color !== null && (typeof color !== 'string' || (options.colors !== 'any' && !LABEL_COLOR.test(color)))) {
      const rule = options.colors === 'any' ? 'must be text or null' : 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null';
      problems.push({ index: i, field: 'color', message: `${rule} (got ${quote(color)})` });
    }
  });
  if (hierarchy) problems.push(...hierarchyProblems(ids, parents, byId));
  return problems;
}

/** Unknown parents, items their own parent, and every item of a cycle, in list order. */
function hierarchyProblems(ids: (string | undefined)[], parents: (string | undefined)[], byId: Map<string, number>): LabelItemProblem[] {
  const found = new Map<number, string>();
  const parentOf = (i: number) => (parents[i] === undefined ? undefined : byId.get(parents[i]!));
  parents.forEach((parentId, i) => {
    if (parentId === undefined) return;
    if (!byId.has(parentId)) found.set(i, `${quote(parentId)} is not the id of a label of this set`);
    else if (parentOf(i) === i) found.set(i, 'a label cannot be its own parent');
  });
  // 0: not seen, 1: on the walk being made, 2: known to reach the top, a fault, or a reported cycle.
  const state = new Uint8Array(ids.length);
  for (let start = 0; start < ids.length; start++) {
    const walk: number[] = [];
    let at: number | undefined = start;
    while (at !== undefined && state[at] === 0 && parentOf(at) !== at) {
      state[at] = 1;
      walk.push(at);
      at = parentOf(at);
    }
    if (at !== undefined && state[at] === 1) {
      const cycle = walk.slice(walk.indexOf(at));
      cycle.forEach((i, k) => {
        const around = [...cycle.slice(k), ...cycle.slice(0, k), i];
        const shown = around.length > 11 ? [...around.slice(0, 10).map((j) => quote(ids[j])), '…', quote(ids[i])] : around.map((j) => quote(ids[j]));
        found.set(i, `the parent chain of ${quote(ids[i])} comes back to ${quote(ids[i])} (a cycle: ${shown.join(' → ')})`);
      });
    }
    for (const i of walk) state[i] = 2;
  }
  return [...found].sort(([a], [b]) => a - b).map(([index, message]) => ({ index, field: 'parentId', message }));
}

/** The fields of one label whose shape has one rule wherever a label is given or read. */
export type LabelField = 'id' | 'name' | 'parentId' | 'desc';

/**
 * The rule of one label field's value, in the one wording of every place that checks a label
 * (the client's writes, the label-set file, the emulator's data): an `id` and a `name` are
 * non-empty text, a `parentId` non-empty text or null, a `desc` text or null.
 *
 * @param field - which field (the caller's key may differ: the client's and the file's `labelName` is `name`)
 * @param value - the value as given
 * @param optional - the field may be left out (undefined): an `id` of a label that is new; the
 * message then says so
 * @returns the rule broken, or undefined when the value keeps it
 * @remarks The rules between labels (unique ids and names, known parents, no cycle, colours) are
 * {@link labelItemProblems}'.
 * @example
 * ```ts
 * labelFieldProblem('name', undefined); // "required: the label's name"
 * labelFieldProblem('id', '', true); // 'must be a non-empty string, or left out to have one generated'
 * labelFieldProblem('desc', 3); // 'must be a string or null'
 * ```
 */
export function labelFieldProblem(field: LabelField, value: unknown, optional = false): string | undefined {
  const text = typeof value === 'string' && value.trim() !== '';
  switch (field) {
    case 'id':
      if (text || (optional && value === undefined)) return undefined;
      return optional ? 'must be a non-empty string, or left out to have one generated' : 'must be a non-empty string';
    case 'name':
      if (text) return undefined;
      return value === undefined ? "required: the label's name" : 'must be a non-empty string';
    case 'parentId':
      return text || value == null ? undefined : 'must be the id of another label of the set, or null';
    case 'desc':
      return typeof value === 'string' || value == null ? undefined : 'must be a string or null';
  }
}

/**
 * Every problem of the labels of a label-set write, at each label's index and field: each label's
 * fields by {@link labelFieldProblem} (id, parentId, name, desc, label by label), then the list's
 * rules ({@link labelItemProblems}). The one check of a write's labels, for the client before it
 * sends one and for the emulator that takes it.
 *
 * @param items - the labels as given (typed `unknown`: they often come from a file); one that is
 * no object is the caller's to name
 * @param options - `fields` and `refer` as for {@link labelItemProblems}; `append`: labels added at
 * the top of a set, whose id may be left out and whose parent is not read (no hierarchy)
 * @returns the problems, in the rules' words (map each field with `fields`)
 * @example
 * ```ts
 * labelWriteProblems([{ id: 'a', labelName: 'A', desc: 3 }], { fields: { name: 'labelName' } });
 * // [{ index: 0, field: 'desc', message: 'must be a string or null' }]
 * ```
 */
export function labelWriteProblems(items: readonly unknown[], options: Pick<LabelItemRuleOptions, 'fields' | 'refer'> & { append?: boolean } = {}): LabelItemProblem[] {
  const { append = false, ...rules } = options;
  const keys = { ...OWN_KEYS, ...options.fields };
  const fields = items.flatMap((item, index) =>
    (['id', 'parentId', 'name', 'desc'] as const).flatMap((field) => {
      const message = isRecord(item) && !(append && field === 'parentId') ? labelFieldProblem(field, item[keys[field]], append && field === 'id') : undefined;
      return message ? [{ index, field, message }] : [];
    }),
  );
  return [...fields, ...labelItemProblems(items, { ...rules, hierarchy: !append })];
}

/**
 * Checks how many label sets a project is given at once (a file, a data folder).
 *
 * @param count - the number of sets
 * @returns the problem, or undefined when there are at most {@link MAX_LABEL_SETS}
 * @example
 * ```ts
 * labelSetCountProblem(6); // 'a project has at most 5 label sets (got 6)'
 * ```
 */
export function labelSetCountProblem(count: number): string | undefined {
  return count > MAX_LABEL_SETS ? `a project has at most ${MAX_LABEL_SETS} label sets (got ${count})` : undefined;
}

/**
 * Checks a label set's `index`: an integer from 0 to {@link MAX_LABEL_SETS} − 1.
 *
 * @param index - the index as given
 * @returns the problem, or undefined for a valid index
 * @example
 * ```ts
 * labelSetIndexProblem(5); // 'must be an integer from 0 to 4 (a project has at most 5 label sets)'
 * ```
 */
export function labelSetIndexProblem(index: unknown): string | undefined {
  const ok = typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < MAX_LABEL_SETS;
  return ok ? undefined : `must be an integer from 0 to ${MAX_LABEL_SETS - 1} (a project has at most ${MAX_LABEL_SETS} label sets)`;
}
