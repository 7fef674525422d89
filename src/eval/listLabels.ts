import { getLabelSets, ProtocolError, readDocumentLabels } from 'labelkit';
import { READ_AHEAD } from '../shared/constants.js';
import { mapInOrder } from '../shared/mapInOrder.js';
import type { CallOptions, LabelingClient, TextCursor, TextLabel } from 'labelkit';
import { GetCellsDocument } from 'labelkit/documents';
import { projectCopy } from './findCopies.js';

/** One line of a document: its text and where each token starts in it. */
interface Line {
  content: string;
  /** Character offset of each token in `content` (-1 where a token was not found). */
  starts: number[];
}

/** A line of a document copy, as `getCells` gives it (production's `Cell`), checked. */
export interface Cell {
  /** The zero-based line number (what `TextCursor.sentenceId` counts). */
  line: number;
  content: string;
  /** The line's tokens, in order (what `TextCursor.tokenId` counts). */
  tokens: string[];
  /** `DISPLAYED`, `HIDDEN` or `DELETED`; a node without one is taken as `DISPLAYED`. */
  status: 'DISPLAYED' | 'HIDDEN' | 'DELETED';
}

const CELL_STATUS = new Set<unknown>(['DISPLAYED', 'HIDDEN', 'DELETED']);

/**
 * Reads a document copy's lines (`getCells`), page by page, each node checked against `Cell`'s fields.
 *
 * @param client - the client
 * @param documentId - a document of a cabinet
 * @param call - signal and time-out of each page
 * @returns the lines, in the service's order
 * @throws a labelkit error; `BAD_RESPONSE` when a cell lacks `line`, `content` or `tokens`, or
 * has an unknown `status`
 */
export async function readCells(client: LabelingClient, documentId: string, call: CallOptions = {}): Promise<Cell[]> {
  const cells: Cell[] = [];
  let input: { cursor?: string; page?: { skip: number; take: number } } = { page: { skip: 0, take: 100 } };
  for (;;) {
    const { getCells: page } = await client.request(GetCellsDocument, { documentId, input }, call);
    for (const node of page.nodes) {
      const cell = node as { line?: unknown; content?: unknown; tokens?: unknown; status?: unknown };
      if (!Number.isInteger(cell?.line) || typeof cell.content !== 'string' || !Array.isArray(cell.tokens) || !cell.tokens.every((t) => typeof t === 'string')) {
        throw new ProtocolError(`a cell of document ${documentId} lacks line, content or tokens`, { operationName: 'GetCells' });
      }
      if (cell.status !== undefined && cell.status !== null && !CELL_STATUS.has(cell.status)) {
        throw new ProtocolError(`line ${cell.line as number} of document ${documentId} has an unknown status ${JSON.stringify(cell.status)}`, { operationName: 'GetCells' });
      }
      cells.push({ line: cell.line as number, content: cell.content, tokens: cell.tokens as string[], status: (cell.status ?? 'DISPLAYED') as Cell['status'] });
    }
    if (!page.pageInfo.nextCursor) return cells;
    input = { cursor: page.pageInfo.nextCursor };
  }
}

/**
 * Where each token of a line starts in its text: each token is looked for after the one before.
 *
 * @param content - the line's text
 * @param tokens - the line's tokens, in order
 * @returns each token's character offset in `content`, -1 where a token was not found
 */
export function tokenStarts(content: string, tokens: readonly string[]): number[] {
  let at = 0;
  return tokens.map((token) => {
    const found = content.indexOf(token, at);
    if (found >= 0) at = found + token.length;
    return found;
  });
}

/**
 * Reads a document copy's lines (`getCells`), page by page as labels are read.
 *
 * @param client - the client
 * @param documentId - a document of a cabinet
 * @param call - signal and time-out of each page
 * @returns line number → its text and token offsets
 * @throws a labelkit error; `BAD_RESPONSE` when a cell lacks `line`, `content` or `tokens`
 */
export async function readLines(client: LabelingClient, documentId: string, call: CallOptions = {}): Promise<Map<number, Line>> {
  const lines = new Map<number, Line>();
  for (const cell of await readCells(client, documentId, call)) lines.set(cell.line, { content: cell.content, starts: tokenStarts(cell.content, cell.tokens) });
  return lines;
}

/**
 * Every label of one document copy, read page by page (none for a copy that does not exist).
 *
 * @param client - the client
 * @param documentId - the copy's id, or null for none
 * @param call - signal and time-out of each call
 * @returns the labels, in the service's order
 */
export async function readAllLabels(client: LabelingClient, documentId: string | null, call: CallOptions = {}): Promise<TextLabel[]> {
  const labels: TextLabel[] = [];
  if (documentId !== null) for await (const page of readDocumentLabels(client, documentId, call)) for (const l of page) labels.push(l);
  return labels;
}

/**
 * The text a label covers.
 *
 * @param lines - the document's lines, from {@link readLines}
 * @param start - the label's first character
 * @param end - the label's last character (inclusive)
 * @returns the text (lines joined with a newline), or null when a line or token is unknown
 */
export function spanText(lines: ReadonlyMap<number, Line>, start: TextCursor, end: TextCursor): string | null {
  const parts: string[] = [];
  for (let s = start.sentenceId; s <= end.sentenceId; s++) {
    const line = lines.get(s);
    if (!line) return null;
    const from = s === start.sentenceId ? line.starts[start.tokenId]! + start.charId : 0;
    const to = s === end.sentenceId ? line.starts[end.tokenId]! + end.charId + 1 : line.content.length;
    if (!(from >= 0 && to >= from && to <= line.content.length)) return null;
    parts.push(line.content.slice(from, to));
  }
  return parts.join('\n');
}

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
  for await (const { lines, labels } of mapInOrder(cabinet.documents, READ_AHEAD, read, call.signal)) {
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
