import { getLabelSets } from 'labelkit';
import type { CallOptions, LabelingClient } from 'labelkit';
import { readLines, spanText } from './cells.js';
import { projectCopy } from './copies.js';
import { readAhead } from './readAhead.js';
import { readAllLabels } from './readLabels.js';
import type { TextCursor, TextLabel } from './readLabels.js';

/** One label of a copy, as `labelkit labels` prints it. */
export interface LabelRow {
  /** The project's document (`originId`). */
  documentId: string;
  fileName: string;
  sentenceId: number;
  /** The text the label covers, or null when the lines could not tell. */
  text: string | null;
  /** The label's name, or null when no label set has its id at its layer. */
  label: string | null;
  labelId: string;
  layer: number;
  labeledBy: TextLabel['labeledBy'] | null;
  confidenceScore: number | null;
  deleted: boolean;
  start: TextCursor;
  end: TextCursor;
}

/**
 * The labels of one copy of a project, a document at a time.
 *
 * @param client - the client
 * @param projectId - the project
 * @param options - `labelerEmail`: that labeler's copy (default: the reviewer copy); progress;
 * signal and time-out of each call
 * @returns one row per label, document after document, each with its text and label name
 * @throws `CopyNotFoundError` when the copy does not exist; a labelkit error when a call fails
 * @example
 * ```ts
 * for await (const row of listLabels(client, 'demo-project', { labelerEmail: 'model@example.com' })) console.log(row.text, row.label);
 * ```
 */
export async function* listLabels(
  client: LabelingClient,
  projectId: string,
  options: CallOptions & { labelerEmail?: string; onProgress?: (done: number, total: number) => void } = {},
): AsyncGenerator<LabelRow> {
  const { labelerEmail, onProgress, ...call } = options;
  const cabinet = await projectCopy(client, projectId, labelerEmail, call);
  const sets = await getLabelSets(client, cabinet.id, call);
  const names = new Map(sets.flatMap((set) => set.labelItems.map((item) => [`${set.index}\u0000${item.id}`, item.labelName] as const)));
  // A document's text and labels together, READ_AHEAD documents ahead of the one being listed.
  const read = async (doc: (typeof cabinet.documents)[number], signal: AbortSignal) => {
    const [lines, labels] = await Promise.all([readLines(client, doc.id, { ...call, signal }), readAllLabels(client, doc.id, { ...call, signal })]);
    return { lines, labels };
  };
  let i = 0;
  for await (const { lines, labels } of readAhead(cabinet.documents, read, { signal: call.signal })) {
    const doc = cabinet.documents[i++]!;
    for (const l of labels) {
      yield {
        documentId: doc.originId ?? doc.id,
        fileName: doc.fileName,
        sentenceId: l.start.sentenceId,
        text: spanText(lines, l.start, l.end),
        label: names.get(`${l.layer}\u0000${l.l}`) ?? null,
        labelId: l.l,
        layer: l.layer,
        labeledBy: l.labeledBy ?? null,
        confidenceScore: l.confidenceScore ?? null,
        deleted: l.deleted === true,
        start: l.start,
        end: l.end,
      };
    }
    onProgress?.(i, cabinet.documents.length);
  }
}
