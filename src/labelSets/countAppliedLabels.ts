import type { CallOptions, LabelingClient, LabelSet } from 'labelkit';
import { readAhead, readCabinets, readDocumentLabels } from 'labelkit/labels';
import type { AppliedLabelCounts } from './types.js';

/** Where counting the applied labels of a project is (see {@link countAppliedLabels}). */
export interface CountProgress {
  /** The project's copies (cabinets: each labeler's and the reviewer's). */
  copies: number;
  /** Documents read so far, over every copy. */
  documents: number;
  /** Documents to read, over every copy. */
  totalDocuments: number;
  /** Labels read so far. */
  labels: number;
}

/** Options of {@link countAppliedLabels}: signal and time-out of each call, and progress. */
export interface CountAppliedLabelsOptions extends CallOptions {
  /** Called once the copies are known (`documents` 0), then after each document. */
  onProgress?: (progress: CountProgress) => void;
}

/**
 * Counts the labels applied with each label of a project's label sets, from the service's own
 * reads: the project's cabinets (`getProjectCabinets`: every labeler's copy and the reviewer's),
 * then every label of each of their documents, page by page (`getLabelsPaginated`).
 *
 * @param client - a client made by `createLabelingClient` (only its `request` is used)
 * @param projectId - the project
 * @param sets - the project's label sets as just read: a label's `layer` is its set's index, its
 * `l` the label's id in that set
 * @param options - signal and time-out of each call, `onProgress`
 * @returns set id → label id → applied labels; a label of `sets` never applied has 0; labels
 * marked `deleted`, and those of no label of `sets`, are not counted
 * @throws the client's errors for the reads (nothing is guessed when a read fails)
 * @remarks One read of every label of every copy of the project: its cost grows with the number
 * of labels (one request per 100 labels of a document, and at least one per document of each
 * copy). Only one document's page is held at a time. What a removal destroys is every label of
 * the removed labels in every copy, so every copy is counted.
 * @example
 * ```ts
 * const sets = await getProjectLabelSets(client, 'demo-project', 'LABELER');
 * const counts = await countAppliedLabels(client, 'demo-project', sets, { onProgress: (p) => console.error(`${p.documents}/${p.totalDocuments}`) });
 * counts['1']?.['11']; // labels applied with label 11 of set 1
 * ```
 */
export async function countAppliedLabels(
  client: Pick<LabelingClient, 'request'>,
  projectId: string,
  sets: readonly Pick<LabelSet, 'id' | 'index' | 'labelItems'>[],
  options: CountAppliedLabelsOptions = {},
): Promise<AppliedLabelCounts> {
  const { onProgress, ...call } = options;
  const counts: Record<string, Record<string, number>> = {};
  const setOfLayer = new Map<number, Record<string, number>>();
  for (const set of sets) {
    const bySet = (counts[set.id] = Object.fromEntries(set.labelItems.map((item) => [item.id, 0])));
    setOfLayer.set(set.index, bySet);
  }
  const cabinets = await readCabinets(client, projectId, call);
  const progress: CountProgress = { copies: cabinets.length, documents: 0, totalDocuments: cabinets.reduce((n, c) => n + c.documents.length, 0), labels: 0 };
  onProgress?.({ ...progress });
  // Each document's labels are counted as they come, a few documents at once; progress
  // follows the documents' order.
  const countDocument = async (documentId: string, signal: AbortSignal) => {
    let read = 0;
    for await (const page of readDocumentLabels(client, documentId, { ...call, signal })) {
      read += page.length;
      for (const label of page) {
        if (label.deleted === true) continue;
        const bySet = setOfLayer.get(label.layer);
        if (bySet && Object.hasOwn(bySet, label.l)) bySet[label.l]! += 1;
      }
    }
    return read;
  };
  const documentIds = cabinets.flatMap((cabinet) => cabinet.documents.map((document) => document.id));
  for await (const read of readAhead(documentIds, countDocument, { signal: call.signal })) {
    progress.labels += read;
    progress.documents += 1;
    onProgress?.({ ...progress });
  }
  return counts;
}

/**
 * Whether a plan has a step whose applied labels are not known: a removal planned without counts.
 *
 * @param plan - a plan (its steps)
 * @returns true when counting would tell something (see {@link countAppliedLabels})
 */
export function needsCounts(plan: { steps: readonly { appliedLabels: number | null }[] }): boolean {
  return plan.steps.some((step) => step.appliedLabels === null);
}

/**
 * Whether a client can count applied labels (it has `request`, as every client made by
 * `createLabelingClient` does).
 *
 * @param client - a label-sets client
 * @returns true when {@link countAppliedLabels} can be called with it
 */
export function canCount<T extends object>(client: T): client is T & Pick<LabelingClient, 'request'> {
  return 'request' in client && typeof client.request === 'function';
}
