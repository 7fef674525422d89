import { createHash } from 'node:crypto';
import { isRecord } from '../shared/isRecord.js';
import { labelFieldProblem, labelItemProblems } from '../shared/labelItemRules.js';
import type { LabelClassType, StoredLabel } from './types.js';

/** One broken rule in project data, with the path of the value at fault (keys and indexes). */
export interface DataProblem {
  path: (string | number)[];
  message: string;
}

/** A label set after checking, before it gets its id and index. */
interface CheckedLabelSet {
  id: string | undefined;
  name: string;
  arrowLabelRequired: boolean;
  signature: string | null | undefined;
  labels: StoredLabel[];
}

const TYPES: readonly LabelClassType[] = ['SPAN', 'ARROW', 'ALL'];
const LABEL_KEYS = new Set(['id', 'parentId', 'name', 'color', 'desc', 'type']);
const SET_KEYS = new Set(['id', 'name', 'arrowLabelRequired', 'signature', 'labels']);

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
 * non-empty `name` unique case-insensitively in the whole set, a `parentId` that names another
 * label of the set (no cycles), `color` any text or null, `type` one of SPAN, ARROW, ALL; unknown
 * keys are refused (they are usually typos). The rules of the labels are the shared ones
 * (src/shared/labelItemRules.ts, `uniqueNames: 'set'`, `colors: 'any'`).
 * @example
 * ```ts
 * const { problems } = checkLabelSet({ name: 'Entities', labels: [{ id: 'p', name: 'PERSON' }] });
 * ```
 */
export function checkLabelSet(raw: unknown): { set?: CheckedLabelSet; problems: DataProblem[] } {
  if (!isRecord(raw)) return { problems: [{ path: [], message: 'a label set must be an object' }] };
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
  raw.labels.forEach((label: unknown, i) => {
    const at = ['labels', i];
    if (!isRecord(label)) return void problems.push({ path: at, message: 'a label must be an object' });
    for (const key of Object.keys(label)) {
      if (!LABEL_KEYS.has(key)) problems.push({ path: [...at, key], message: `unknown key "${key}" (allowed: ${[...LABEL_KEYS].join(', ')})` });
    }
    const { id, name, parentId, color, desc, type } = label;
    for (const [field, value] of [['id', id], ['name', name], ['parentId', parentId], ['desc', desc]] as const) {
      const message = labelFieldProblem(field, value);
      if (message) problems.push({ path: [...at, field], message });
    }
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
  // Names are unique in the whole set here, not only under one parent as for writes: a model answers
  // with label names, and labelRefs.ts finds the item by its name. Colours may be any text, as
  // production may publish them (the specification calls them colour names).
  const rules = labelItemProblems(raw.labels, { uniqueNames: 'set', colors: 'any' });
  problems.push(...rules.map((p) => ({ path: ['labels', p.index, p.field], message: p.message })));
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
