import { createHash } from 'node:crypto';
import type { LabelClassType, StoredLabel } from './types.js';

/** One broken rule in project data, with the path of the value at fault (keys and indexes). */
export interface DataProblem {
  path: (string | number)[];
  message: string;
}

/** A label set after checking, before it gets its id and index. */
export interface CheckedLabelSet {
  id: string | undefined;
  name: string;
  arrowLabelRequired: boolean;
  signature: string | null | undefined;
  labels: StoredLabel[];
}

const TYPES: readonly LabelClassType[] = ['SPAN', 'ARROW', 'ALL'];
const LABEL_KEYS = new Set(['id', 'parentId', 'name', 'color', 'desc', 'type']);
const SET_KEYS = new Set(['id', 'name', 'arrowLabelRequired', 'signature', 'labels']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/**
 * The hex digest that the emulator publishes as a label set's `signature`.
 *
 * @param items - the set's labels
 * @returns the sha256 hex digest of the canonical JSON of each item's id, parentId, name, colour,
 * description and type, in order
 * @remarks Any change to an item changes the signature; the same items give the same digest.
 * @example
 * ```ts
 * labelSetSignature([{ id: 'p', parentId: null, name: 'PERSON', color: null, desc: null, type: 'SPAN' }]);
 * ```
 */
export function labelSetSignature(items: readonly StoredLabel[]): string {
  const canonical = items.map((i) => [i.id, i.parentId, i.name, i.color, i.desc, i.type]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * Checks one label set as given in process or read from a data file, and lists every problem.
 *
 * @param raw - a value shaped like {@link LabelSetInput} (unchecked)
 * @returns the checked set (when there are no problems) and the problems, each with its path
 * @remarks Rules: a non-empty `name`; `labels` an array of objects with a non-empty unique `id`, a
 * non-empty `name` unique case-insensitively, a `parentId` that names another label of the set
 * (no cycles), `type` one of SPAN, ARROW, ALL; unknown keys are refused (they are usually typos).
 * @example
 * ```ts
 * const { problems } = checkLabelSet({ name: 'Entities', labels: [{ id: 'p', name: 'PERSON' }] });
 * ```
 */
export function checkLabelSet(raw: unknown): { set?: CheckedLabelSet; problems: DataProblem[] } {
  if (!isObject(raw)) return { problems: [{ path: [], message: 'a label set must be an object' }] };
  const problems: DataProblem[] = [];
  for (const key of Object.keys(raw)) {
    if (!SET_KEYS.has(key)) problems.push({ path: [key], message: `unknown key "${key}" (allowed: ${[...SET_KEYS].join(', ')})` });
  }
  if (typeof raw.name !== 'string' || raw.name.trim() === '') problems.push({ path: ['name'], message: 'name must be a non-empty string' });
  if (raw.id !== undefined && (typeof raw.id !== 'string' || raw.id === '')) problems.push({ path: ['id'], message: 'id must be a non-empty string' });
  if (raw.arrowLabelRequired !== undefined && typeof raw.arrowLabelRequired !== 'boolean') {
    problems.push({ path: ['arrowLabelRequired'], message: 'arrowLabelRequired must be true or false' });
  }
  if (!optionalString(raw.signature)) problems.push({ path: ['signature'], message: 'signature must be a string or null' });
  if (!Array.isArray(raw.labels)) {
    problems.push({ path: ['labels'], message: 'labels must be an array of labels' });
    return { problems };
  }
  const items: StoredLabel[] = [];
  const ids = new Map<string, number>();
  const names = new Map<string, number>();
  raw.labels.forEach((label: unknown, i) => {
    const at = ['labels', i];
    if (!isObject(label)) return void problems.push({ path: at, message: 'a label must be an object' });
    for (const key of Object.keys(label)) {
      if (!LABEL_KEYS.has(key)) problems.push({ path: [...at, key], message: `unknown key "${key}" (allowed: ${[...LABEL_KEYS].join(', ')})` });
    }
    const { id, name, parentId, color, desc, type } = label;
    if (typeof id !== 'string' || id === '') problems.push({ path: [...at, 'id'], message: 'id must be a non-empty string' });
    else if (ids.has(id)) problems.push({ path: [...at, 'id'], message: `id "${id}" is also used by label ${ids.get(id)}` });
    else ids.set(id, i);
    if (typeof name !== 'string' || name.trim() === '') problems.push({ path: [...at, 'name'], message: 'name must be a non-empty string' });
    else if (names.has(name.toLowerCase())) {
      problems.push({ path: [...at, 'name'], message: `name "${name}" is also used by label ${names.get(name.toLowerCase())} (names compare case-insensitively)` });
    } else names.set(name.toLowerCase(), i);
    if (!optionalString(parentId) || parentId === '') problems.push({ path: [...at, 'parentId'], message: 'parentId must be a label id or null' });
    if (!optionalString(color)) problems.push({ path: [...at, 'color'], message: 'color must be a string or null' });
    if (!optionalString(desc)) problems.push({ path: [...at, 'desc'], message: 'desc must be a string or null' });
    if (type !== undefined && !TYPES.includes(type as LabelClassType)) {
      problems.push({ path: [...at, 'type'], message: `type must be one of ${TYPES.join(', ')}` });
    }
    items.push({
      id: String(id),
      parentId: typeof parentId === 'string' ? parentId : null,
      name: String(name),
      color: typeof color === 'string' ? color : null,
      desc: typeof desc === 'string' ? desc : null,
      type: TYPES.includes(type as LabelClassType) ? (type as LabelClassType) : 'SPAN',
    });
    return undefined;
  });
  problems.push(...hierarchyProblems(items, ids));
  if (problems.length > 0) return { problems };
  return {
    set: {
      id: raw.id as string | undefined,
      name: raw.name as string,
      arrowLabelRequired: (raw.arrowLabelRequired as boolean | undefined) ?? false,
      signature: raw.signature as string | null | undefined,
      labels: items,
    },
    problems,
  };
}

/** Parents that do not exist, and cycles, reported at the label that has them. */
function hierarchyProblems(items: StoredLabel[], ids: Map<string, number>): DataProblem[] {
  const problems: DataProblem[] = [];
  const parentOf = new Map(items.map((item) => [item.id, item.parentId]));
  items.forEach((item, i) => {
    if (item.parentId === null) return;
    if (!ids.has(item.parentId)) {
      problems.push({ path: ['labels', i, 'parentId'], message: `parentId "${item.parentId}" is not the id of a label of this set` });
      return;
    }
    const seen = new Set<string>([item.id]);
    for (let p: string | null | undefined = item.parentId; p != null; p = parentOf.get(p)) {
      if (seen.has(p)) {
        problems.push({ path: ['labels', i, 'parentId'], message: `the parent chain of label "${item.id}" is a cycle (it comes back to "${p}")` });
        return;
      }
      seen.add(p);
    }
  });
  return problems;
}
