import { MAX_LABEL_SETS } from '../shared/constants.js';
import { labelFieldProblem, labelItemProblems, labelSetIndexProblem, labelWriteProblems, type LabelField, type LabelItemProblem } from '../shared/labelItemRules.js';
import { labelSetSignature } from './labelSetCheck.js';
import type { LabelClassType, StoredLabel, StoredLabelSet } from './types.js';

/** Where a problem is, in the store's words: `labels`, an item's index, `name`, … */
export type WritePath = (string | number)[];

/** One broken rule of a label-set write. */
export interface LabelSetWriteProblem {
  path: WritePath;
  message: string;
}

/** What kind of refusal a {@link LabelSetWriteRefusedError} is; the emulator answers it as `extensions.code`. */
export type LabelSetWriteCode = 'BAD_USER_INPUT' | 'NOT_FOUND' | 'STALE_SIGNATURE';

/**
 * A label-set write the store refuses; nothing was changed.
 *
 * @remarks `BAD_USER_INPUT` lists every problem of the input in `problems`; `NOT_FOUND` names an
 * unknown project or label set; `STALE_SIGNATURE` says the set changed since the signature given
 * was read. The resolvers turn it into one GraphQL error with this code.
 * @example
 * ```ts
 * try { store.deleteLabelSet('nope'); } catch (e) { if (e instanceof LabelSetWriteRefusedError) console.log(e.code); }
 * ```
 */
export class LabelSetWriteRefusedError extends Error {
  override name = 'LabelSetWriteRefusedError';

  /**
   * @param code - the kind of refusal
   * @param message - what was refused and why
   * @param problems - every problem of the input (for `BAD_USER_INPUT`)
   */
  constructor(
    readonly code: LabelSetWriteCode,
    message: string,
    readonly problems: LabelSetWriteProblem[] = [],
  ) {
    super(message);
  }
}

/** A label as `createLabelSet` and `updateProjectLabelSet` give it (`TagItemInput`, in the store's words). */
export interface LabelWriteInput {
  id: string;
  parentId?: string | null;
  name: string;
  color?: string | null;
  desc?: string | null;
}

/** A label as `appendLabelSetTagItems` gives it (`AppendTagItemInput`): no parent, the id optional. */
export interface NewLabelWriteInput {
  /** @defaultValue generated: the next free number, as text */
  id?: string | null;
  name: string;
  color?: string | null;
  desc?: string | null;
}

const isText = (v: unknown): v is string => typeof v === 'string';

/** Adds the problem of one label field by its shared rule (`labelFieldProblem`); whether there was one. */
function fieldProblem(problems: LabelSetWriteProblem[], at: (string | number)[], field: LabelField, value: unknown, optional = false): boolean {
  const message = labelFieldProblem(field, value, optional);
  if (message) problems.push({ path: [...at, field], message });
  return message !== undefined;
}
const blank = (v: unknown) => !isText(v) || v.trim() === '';

/** The shared rules' problems at their write paths (`labels[i].name`). */
const atPaths = (problems: LabelItemProblem[], offset = 0): LabelSetWriteProblem[] => problems.map((p) => ({ path: ['labels', p.index - offset, p.field], message: p.message }));

/**
 * Checks the labels that replace a set's labels (or make a new set's), and builds them.
 *
 * @param items - the labels as given
 * @param previous - the set's labels now (empty for a new set): an item whose id is kept keeps its `type`
 * @returns the labels to store, or every problem (paths `labels[i].id`, `.name`, `.parentId`, `.color`, `.desc`)
 * @remarks Rules: a non-empty `id`, unique in the list; a non-empty `name`, unique
 * case-insensitively among the labels of one parent; a `parentId` that is the id of another label
 * of the list, not the label itself, without a cycle (reported at each label of it); a `#rrggbb`
 * colour or none: the client's rules (src/shared/labelItemRules.ts). `type` is not written by
 * labelkit: a kept id keeps its type, a new one is `ALL` (production's default).
 * @example
 * ```ts
 * const { labels, problems } = checkLabels([{ id: 'p', name: 'PERSON', color: '#ef4444' }], []);
 * ```
 */
export function checkLabels(items: readonly LabelWriteInput[], previous: readonly StoredLabel[]): { labels: StoredLabel[]; problems: LabelSetWriteProblem[] } {
  const problems = atPaths(labelWriteProblems(items));
  const typeOf = new Map<string, LabelClassType>(previous.map((p) => [p.id, p.type]));
  const labels: StoredLabel[] = items.map((item) => ({
    id: item.id,
    parentId: item.parentId ?? null,
    name: item.name,
    color: item.color ?? null,
    desc: item.desc ?? null,
    type: typeOf.get(item.id) ?? 'ALL',
  }));
  return { labels, problems };
}

/**
 * The next generated label id: one more than the largest numeric id in use (1 when none), as text.
 *
 * @param taken - the ids in use
 * @returns a numeric-text id not in `taken`
 * @example
 * ```ts
 * nextLabelId(new Set(['10', '14', 'x'])); // '15'
 * ```
 */
export function nextLabelId(taken: ReadonlySet<string>): string {
  let n = 0;
  for (const id of taken) if (/^\d{1,15}$/.test(id)) n = Math.max(n, Number(id));
  while (taken.has(String(++n)));
  return String(n);
}

/**
 * Checks labels appended at the top of a set, and builds them with their ids.
 *
 * @param items - the labels as given
 * @param existing - the set's labels now
 * @returns the new labels (ids generated where absent), or every problem (paths `labels[i]…`)
 * @remarks Rules: an `id`, when given, non-empty and used by no label of the set nor of the list;
 * a non-empty `name`, unique case-insensitively among the top-level labels, old and new; a
 * `#rrggbb` colour or none (the shared rules, src/shared/labelItemRules.ts, on the set's
 * top-level labels followed by the new ones). New labels are top-level (`parentId` null) and of type `ALL`.
 * @example
 * ```ts
 * const { labels } = checkAppendedLabels([{ name: 'EVENT' }], set.labels); // labels[0].id generated
 * ```
 */
export function checkAppendedLabels(items: readonly NewLabelWriteInput[], existing: readonly StoredLabel[]): { labels: StoredLabel[]; problems: LabelSetWriteProblem[] } {
  const problems: LabelSetWriteProblem[] = [];
  const taken = new Set(existing.map((l) => l.id));
  items.forEach((item, i) => {
    const at = ['labels', i];
    if (item.id !== undefined && item.id !== null) {
      if (!fieldProblem(problems, at, 'id', item.id, true) && taken.has(item.id)) problems.push({ path: [...at, 'id'], message: `"${item.id}" is already the id of a label of this set` });
    }
    fieldProblem(problems, at, 'name', item.name);
    fieldProblem(problems, at, 'desc', item.desc);
  });
  // The new labels go at the top: their names are checked with the set's top-level labels (listed
  // first, their own problems left out), their ids among themselves (an id in use is reported above).
  const tops = existing.filter((l) => l.parentId === null);
  const refer = (i: number) => (i < tops.length ? `the set's label ${JSON.stringify(tops[i]!.name)}` : `label ${i - tops.length}`);
  const rules = labelItemProblems([...tops, ...items], { hierarchy: false, refer });
  problems.push(...atPaths(rules.filter((p) => p.index >= tops.length && !(p.field === 'id' && taken.has(items[p.index - tops.length]!.id!))), tops.length));
  const inUse = new Set([...taken, ...items.flatMap((item) => (isText(item.id) ? [item.id] : []))]);
  const labels: StoredLabel[] = items.map((item) => {
    let id = item.id ?? undefined;
    if (id === undefined) inUse.add((id = nextLabelId(inUse)));
    return { id, parentId: null, name: item.name, color: item.color ?? null, desc: item.desc ?? null, type: 'ALL' };
  });
  return { labels, problems };
}

/**
 * Refuses a write whose `labelSetSignature` is not the set's signature now.
 *
 * @param set - the set as it is now
 * @param given - the signature the caller read, or null/undefined to skip the check
 * @throws {@link LabelSetWriteRefusedError} `STALE_SIGNATURE` when they differ
 * @remarks A GUESS about production, whose schema does not say what a stale signature does: the
 * emulator refuses the write, so that a client that sends the signature it read never overwrites
 * a change it did not see. A set published without a signature is compared by the digest of its
 * labels (`labelSetSignature`).
 * @example
 * ```ts
 * checkSignature(set, input.labelSetSignature);
 * ```
 */
export function checkSignature(set: StoredLabelSet, given: string | null | undefined): void {
  if (given === undefined || given === null) return;
  const now = set.signature ?? labelSetSignature(set.labels);
  if (given !== now) {
    throw new LabelSetWriteRefusedError(
      'STALE_SIGNATURE',
      `label set "${set.id}" changed since its signature was read: labelSetSignature ${given} is not its signature now (${now}); read the set again and redo the change`,
    );
  }
}

/**
 * The problems of a new set's place and name in its project.
 *
 * @param sets - the project's sets now
 * @param index - the index asked for, or null/undefined for the lowest free one
 * @param name - the name given, or null/undefined
 * @returns the index the set gets (when there is one) and every problem (paths `index`, `name`)
 * @remarks A GUESS about production where its schema is silent: an index already in use is
 * refused rather than moving the other sets.
 * @example
 * ```ts
 * placeOfNewSet(project.labelSets, undefined, 'Entities'); // { index: 1, problems: [] }
 * ```
 */
export function placeOfNewSet(sets: readonly StoredLabelSet[], index: number | null | undefined, name: string | null | undefined): { index?: number; problems: LabelSetWriteProblem[] } {
  const problems: LabelSetWriteProblem[] = [];
  if (name !== undefined && name !== null && blank(name)) problems.push({ path: ['name'], message: 'must be a non-empty string, or absent' });
  if (sets.length >= MAX_LABEL_SETS) {
    problems.push({ path: ['index'], message: `the project already has ${sets.length} label sets, the most a project may have (index 0 to ${MAX_LABEL_SETS - 1})` });
    return { problems };
  }
  const used = new Map(sets.map((s) => [s.index, s]));
  if (index === undefined || index === null) {
    let free = 0;
    while (used.has(free)) free++;
    return { index: free, problems };
  }
  const badIndex = labelSetIndexProblem(index);
  if (badIndex) problems.push({ path: ['index'], message: badIndex });
  else if (used.has(index)) {
    problems.push({ path: ['index'], message: `${index} is already the index of label set "${used.get(index)!.id}" (${used.get(index)!.name})` });
  }
  return { index, problems };
}
