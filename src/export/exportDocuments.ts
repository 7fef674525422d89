import type { CallOptions, LabelingClient, LabelSet } from 'labelkit';
import { projectCopy, readAhead, READ_AHEAD, readAllLabels, readCells } from 'labelkit/labels';
import { ExportError } from './errors.js';
import { keepLabels } from './filters.js';
import { flattenDocument, labelDepths } from './flattenDocument.js';
import { tagList, unwritable } from './formats.js';
import type { ExportedDocument, ExportFormat } from './types.js';
import { getLabelSets } from 'labelkit';

/** Which copy and label set to export. */
export interface ExportCopyOptions extends CallOptions {
  /** That labeler's copy (e.g. the `labelerEmail` a job was given). @defaultValue the reviewer copy */
  labelerEmail?: string | undefined;
  /** The label set exported (its index, `TextLabel.layer`). @defaultValue 0 */
  layer?: number | undefined;
  /** The format the plan is for: `conll` refuses label names with white space at once. @defaultValue none checked */
  format?: ExportFormat | undefined;
}

/** One document of an export plan. */
export interface PlannedDocument {
  /** Index into {@link ExportPlan.projects}. */
  project: number;
  /** The document's id in the exported copy (what `getCells` and `getLabelsPaginated` take). */
  copyId: string;
  /** The project's document id (`originId`). */
  documentId: string;
  fileName: string;
  /** The copy's owner marked it complete (`TextDocument.isCompleted`): what `--status` filters on. */
  completed: boolean;
}

/** What an export reads, found before anything is read or written: the copies, the label set, the documents. */
export interface ExportPlan {
  /** The projects, in order, with the copy exported and its label set's item id → name. */
  projects: { projectId: string; cabinetId: string; names: ReadonlyMap<string, string>; depth: ReadonlyMap<string, number> }[];
  /** Every document of every project, in the export's order. */
  documents: PlannedDocument[];
  /** The label names, each once, in label-set order (projects in order, new names after). */
  labels: string[];
  /** The IOB2 tag list: `O`, then `B-`/`I-` of each label ({@link tagList}). */
  tags: string[];
  layer: number;
  /** The copy: `reviewer`, or the labeler's e-mail. */
  copy: string;
}

/**
 * The names a layer's labels are exported with: the label's name, or its path from the top of the
 * hierarchy (`ENTITY/OTHER`) where two labels of the set share a name under different parents.
 */
function namesOf(set: LabelSet): Map<string, string> {
  const byId = new Map(set.labelItems.map((item) => [item.id, item]));
  const count = new Map<string, number>();
  for (const item of set.labelItems) count.set(item.labelName.toLowerCase(), (count.get(item.labelName.toLowerCase()) ?? 0) + 1);
  const path = (id: string | null, depth = 0): string[] => {
    const item = id === null ? undefined : byId.get(id);
    return item && depth < set.labelItems.length ? [...path(item.parentId, depth + 1), item.labelName] : [];
  };
  return new Map(set.labelItems.map((item) => [item.id, count.get(item.labelName.toLowerCase())! > 1 ? path(item.id).join('/') : item.labelName]));
}

/**
 * Finds what an export of one copy of some projects reads: each project's copy, the label set at
 * `layer`, the documents and the tag list.
 *
 * @param client - the client
 * @param projectIds - the projects, in the export's order
 * @param options - `labelerEmail` (default: the reviewer copy), `layer` (default 0), `format`,
 * signal and time-out of each call
 * @returns the plan: nothing is read of the documents yet
 * @throws `CopyNotFoundError` (from `labelkit/labels`) when a project has no such copy;
 * {@link ExportError} `LAYER` when a project has no label set at `layer`, `FORMAT` when `conll`
 * cannot hold a label's name; a labelkit error when a call fails
 * @remarks Reads `getProjectCabinets` (and `getProjectsFinalReport` for the e-mail behind each
 * labeler copy) and the copy's label sets, a few projects at once.
 */
export async function planExport(client: LabelingClient, projectIds: readonly string[], options: ExportCopyOptions = {}): Promise<ExportPlan> {
  const { labelerEmail, layer = 0, format, ...call } = options;
  const readProject = async (projectId: string, signal: AbortSignal) => {
    const cabinet = await projectCopy(client, projectId, labelerEmail, { ...call, signal });
    const sets = await getLabelSets(client, cabinet.id, { ...call, signal });
    const set = sets.find((s) => s.index === layer);
    if (!set) {
      const known = sets.map((s) => `${s.index} "${s.name}"`).join(', ') || 'none';
      throw new ExportError('LAYER', '--layer', `project ${projectId} has no label set at index ${layer} (its label sets: ${known})`);
    }
    return { projectId, cabinet, names: namesOf(set), depth: labelDepths(set.labelItems) };
  };
  const plan: ExportPlan = { projects: [], documents: [], labels: [], tags: [], layer, copy: labelerEmail ?? 'reviewer' };
  const seen = new Set<string>();
  for await (const { projectId, cabinet, names, depth } of readAhead(projectIds, readProject, { signal: call.signal })) {
    for (const name of names.values()) {
      const problem = format && unwritable(format, name);
      if (problem) throw new ExportError('FORMAT', '--format', `label "${name}" of project ${projectId} ${problem}: use jsonl or spacy`);
      if (!seen.has(name)) plan.labels.push(name);
      seen.add(name);
    }
    const project = plan.projects.push({ projectId, cabinetId: cabinet.id, names, depth }) - 1;
    for (const d of cabinet.documents) plan.documents.push({ project, copyId: d.id, documentId: d.originId ?? d.id, fileName: d.fileName, completed: d.isCompleted });
  }
  plan.tags = tagList(plan.labels);
  return plan;
}

/** How an export reads: the copy, the label set, `strict`, the read-ahead and progress. */
export interface ExportReadOptions extends ExportCopyOptions {
  /** Refuse a label a flat format cannot hold as it is (see `flattenDocument`) instead of leaving it out. @defaultValue false */
  strict?: boolean | undefined;
  /** Documents read at once, ahead of the one being yielded. @defaultValue `READ_AHEAD` (4) */
  readAhead?: number | undefined;
  /** `--labels`: only these label names are kept; the others are dropped before the flat rules and counted per document (`ExportedDocument.dropped`). @defaultValue all */
  keep?: ReadonlySet<string> | undefined;
  /** Called after each document with how many are done (counting those before `from`) and how many there are. */
  onProgress?: ((done: number, total: number) => void) | undefined;
}

/** Options of {@link exportDocuments}. */
export interface ExportDocumentsOptions extends ExportReadOptions {
  /** Start at this document of the plan (those before are not read): how a resumed export goes on. @defaultValue 0 */
  from?: number | undefined;
}

/**
 * The documents of one copy of one or more projects, ready for a flat training format, one at a
 * time and in order, read a few ahead.
 *
 * @param client - the client
 * @param source - a project id, several, or a plan from {@link planExport}
 * @param options - the copy (`labelerEmail`, default the reviewer copy), `layer` (default 0),
 * `strict`, `from`, `readAhead`, `onProgress`, signal and time-out of each call
 * @returns each document's lines: text, the service's tokens, IOB2 tags and whole-token spans,
 * with what was left out and why
 * @throws as {@link planExport}; `StrictExportError` under `strict`; `BAD_RESPONSE` naming a
 * token not found in its line; a labelkit error when a call fails
 * @remarks Memory stays flat: each document's text and labels (`getCells`, `getLabelsPaginated`)
 * are read `readAhead` documents ahead of the one yielded, and dropped once it is. What a flat
 * format cannot hold is decided by `flattenDocument`'s rules (docs/export.md).
 * @example
 * ```ts
 * for await (const doc of exportDocuments(client, 'demo-project', { layer: 0 })) {
 *   for (const line of doc.lines) console.log(line.tokens, line.tags);
 * }
 * ```
 */
export async function* exportDocuments(client: LabelingClient, source: string | readonly string[] | ExportPlan, options: ExportDocumentsOptions = {}): AsyncGenerator<ExportedDocument> {
  const { strict = false, from = 0, readAhead: width = READ_AHEAD, onProgress, keep, ...copy } = options;
  const call: CallOptions = { ...(copy.timeoutMs !== undefined && { timeoutMs: copy.timeoutMs }) };
  const plan = typeof source === 'string' || Array.isArray(source) ? await planExport(client, typeof source === 'string' ? [source] : (source as string[]), copy) : (source as ExportPlan);
  const documents = plan.documents.slice(from);
  const read = async (doc: PlannedDocument, signal: AbortSignal) => {
    const [cells, labels] = await Promise.all([readCells(client, doc.copyId, { ...call, signal }), readAllLabels(client, doc.copyId, { ...call, signal })]);
    return { cells, labels };
  };
  let i = from;
  for await (const { cells, labels } of readAhead(documents, read, { width, signal: copy.signal })) {
    const doc = plan.documents[i]!;
    const project = plan.projects[doc.project]!;
    const filtered = keep && keepLabels(labels, { layer: plan.layer, names: project.names, keep });
    const { lines, leftOut } = flattenDocument(cells, filtered ? filtered.labels : labels, { layer: plan.layer, names: project.names, depth: project.depth, strict, where: `${project.projectId}/${doc.documentId}` });
    yield { projectId: project.projectId, documentId: doc.documentId, fileName: doc.fileName, index: i, lines, leftOut, ...(filtered && { dropped: filtered.dropped }) };
    i++;
    onProgress?.(i, plan.documents.length);
  }
}
