import type { TextLabel } from 'labelkit/labels';
import { notGold } from 'labelkit/labels';
import type { Problem } from '../shared/problem.js';
import { ExportError } from './errors.js';
import { tagList } from './formats.js';

/**
 * A document's state in the copy exported, from the production field `TextDocument.isCompleted`
 * (the copy's owner, the reviewer in the reviewer copy, marked the document complete): `completed`
 * or `in-progress`.
 */
export type DocumentStatus = 'completed' | 'in-progress';

/** The statuses `--status` takes. */
export const DOCUMENT_STATUSES: readonly DocumentStatus[] = ['completed', 'in-progress'];

/**
 * A document's status from its copy's `isCompleted`.
 *
 * @param isCompleted - `TextDocument.isCompleted` of the copy exported
 * @returns `completed` or `in-progress`
 */
export function documentStatus(isCompleted: boolean): DocumentStatus {
  return isCompleted ? 'completed' : 'in-progress';
}

/**
 * Reads `--status completed` (or a comma-separated list).
 *
 * @param text - the flag's value
 * @param field - the flag
 * @returns the statuses, each once, or the problems
 * @example
 * ```ts
 * parseStatuses('completed'); // { statuses: ['completed'], problems: [] }
 * ```
 */
export function parseStatuses(text: string, field = '--status'): { statuses: DocumentStatus[]; problems: Problem[] } {
  const statuses: DocumentStatus[] = [];
  const problems: Problem[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    if (!(DOCUMENT_STATUSES as readonly string[]).includes(part)) problems.push({ path: field, message: `"${part}" is not a status: use ${DOCUMENT_STATUSES.join(' or ')} (TextDocument.isCompleted of the copy)` });
    else if (!statuses.includes(part as DocumentStatus)) statuses.push(part as DocumentStatus);
  }
  return { statuses, problems };
}

/**
 * Reads `--labels A,B`: the label names a release keeps.
 *
 * @param text - the flag's value
 * @param field - the flag
 * @returns the names, in the order given, or the problems (an empty name, one given twice)
 */
export function parseLabelNames(text: string, field = '--labels'): { labels: string[]; problems: Problem[] } {
  const labels: string[] = [];
  const problems: Problem[] = [];
  for (const name of text.split(',').map((p) => p.trim())) {
    if (name === '') problems.push({ path: field, message: 'holds an empty label name (names are separated by commas)' });
    else if (labels.includes(name)) problems.push({ path: field, message: `names "${name}" twice` });
    else labels.push(name);
  }
  return { labels, problems };
}

/**
 * Reads the text of a `--documents FILE`: one document id per line; blank lines and `#` comments
 * are skipped.
 *
 * @param text - the file's text
 * @param field - the flag
 * @returns the ids, each once, in file order, or the problems (none at all, one given twice, with its line)
 */
export function parseDocumentIds(text: string, field = '--documents'): { ids: string[]; problems: Problem[] } {
  const ids: string[] = [];
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, n) => {
    const id = raw.replace(/#.*$/, '').trim();
    if (id === '') return;
    const first = seen.get(id);
    if (first !== undefined) problems.push({ path: `${field}:${n + 1}`, message: `repeats document "${id}" of line ${first}` });
    else {
      seen.set(id, n + 1);
      ids.push(id);
    }
  });
  if (ids.length === 0 && problems.length === 0) problems.push({ path: field, message: 'lists no document id (one per line)' });
  return { ids, problems };
}

/**
 * Keeps the labels a release asks for (`--labels`): a label of the layer, one the export would
 * keep otherwise (not deleted, rejected or in conflict), whose name is not among `keep` is dropped
 * and counted by its name.
 *
 * @param labels - a document's labels
 * @param options - the layer, its item id → name, and the names kept
 * @returns the labels left (others, and those of other layers, untouched: the export counts them
 * by its own rules) and the count dropped per name
 * @remarks Done before the flat format's rules, so a child kept inside a parent dropped stays.
 */
export function keepLabels(labels: readonly TextLabel[], options: { layer: number; names: ReadonlyMap<string, string>; keep: ReadonlySet<string> }): { labels: TextLabel[]; dropped: Map<string, number> } {
  const { layer, names, keep } = options;
  const dropped = new Map<string, number>();
  const left = labels.filter((label) => {
    if (label.layer !== layer || notGold(label)) return true;
    const name = names.get(label.l);
    if (name === undefined || keep.has(name)) return true;
    dropped.set(name, (dropped.get(name) ?? 0) + 1);
    return false;
  });
  return { labels: left, dropped };
}

/** What an export or a release keeps (`--status`, `--documents`, `--labels`); each unset keeps all. */
export interface DocumentFilters {
  /** Keep only documents of these statuses (`TextDocument.isCompleted` of the copy). */
  status?: readonly DocumentStatus[] | undefined;
  /** Keep only these document ids. */
  documents?: readonly string[] | undefined;
  /** Keep only these label names; the others are dropped and counted. */
  labels?: readonly string[] | undefined;
}

/** What {@link filterPlan} left out of a plan. */
export interface FilteredPlan {
  /** Documents left out by `status` and by `documents` (not listed). */
  dropped: { status: number; notListed: number };
  /** Ids of `documents` that no project of the plan has. */
  unknownIds: number;
  /** The label names kept, to give `exportDocuments` as `keep`; undefined when `labels` is not set. */
  keep: ReadonlySet<string> | undefined;
}

/**
 * Applies the filters to an export's plan (from `planExport`), before any document is read: its
 * documents become those kept, and under `labels` its labels and tag list those kept.
 *
 * @param plan - the plan, changed in place
 * @param filters - the filters
 * @returns what was left out, and the names to keep while reading
 * @throws {@link ExportError} `FILTER` naming `--labels` when a name is in no label set of the plan
 */
export function filterPlan(plan: { documents: { documentId: string; completed: boolean }[]; labels: string[]; tags: string[] }, filters: DocumentFilters): FilteredPlan {
  const { status, documents: ids, labels } = filters;
  const dropped = { status: 0, notListed: 0 };
  const listed = ids && new Set(ids);
  const all = new Set(plan.documents.map((d) => d.documentId));
  const unknownIds = ids ? ids.filter((id) => !all.has(id)).length : 0;
  if (labels) {
    const unknown = labels.filter((n) => !plan.labels.includes(n));
    if (unknown.length > 0) throw new ExportError('FILTER', '--labels', `${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} in no label set of the export (its labels: ${plan.labels.join(', ')})`);
  }
  plan.documents = plan.documents.filter((d) => {
    if (status && !status.includes(documentStatus(d.completed))) return void dropped.status++;
    if (listed && !listed.has(d.documentId)) return void dropped.notListed++;
    return true;
  });
  if (!labels) return { dropped, unknownIds, keep: undefined };
  plan.labels = plan.labels.filter((n) => labels.includes(n));
  plan.tags = tagList(plan.labels);
  return { dropped, unknownIds, keep: new Set(plan.labels) };
}
