import { ProtocolError, ValidationError } from 'labelkit';
import type { CallOptions, LabelingClient } from 'labelkit';
import { GetLabelsPaginatedDocument } from 'labelkit/documents';
import { MAX_GRAPHQL_INT } from '../shared/constants.js';
import { isRecord } from '../shared/isRecord.js';
import { checkNumber, checkTimingOptions } from '../shared/problem.js';
import { readAhead, READ_AHEAD } from './readAhead.js';

/** What the reads take as their client: only its `request` is used. */
export type Requester = Pick<LabelingClient, 'request'>;

/** A place in a document: a character of a token of a line (`TextCursor`). */
export interface TextCursor {
  sentenceId: number;
  tokenId: number;
  /** Counted from the token's start. */
  charId: number;
}

/**
 * A label applied in a document copy, as `getLabelsPaginated` gives it: the published fields of
 * `TextLabel`, checked; any other field the service sends is kept as it came.
 */
export interface TextLabel {
  id: string;
  /** The label item's id (`TagItem.id`) in the label set whose index is `layer`. */
  l: string;
  layer: number;
  start: TextCursor;
  /** Inclusive: the span's last character. */
  end: TextCursor;
  labeledBy?: 'AUTO' | 'CONFLICT' | 'EXTERNAL' | 'LABELER' | 'PRELABELED' | 'REVIEWER' | null;
  deleted?: boolean | null;
  confidenceScore?: number | null;
  [field: string]: unknown;
}

const LABELED_BY = new Set<unknown>(['AUTO', 'CONFLICT', 'EXTERNAL', 'LABELER', 'PRELABELED', 'REVIEWER']);
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const optional = (v: unknown, ok: (v: unknown) => boolean) => v === undefined || v === null || ok(v);

/** What is wrong with a node against `TextLabel`'s published fields, or undefined. */
function labelProblem(node: unknown): string | undefined {
  if (!isRecord(node)) return 'is not an object';
  if (typeof node.id !== 'string' || typeof node.l !== 'string') return 'lacks the string id or l';
  if (!isInt(node.layer)) return 'has no layer (a whole number from 0)';
  for (const end of ['start', 'end'] as const) {
    const c = node[end];
    if (!isRecord(c) || !isInt(c.sentenceId) || !isInt(c.tokenId) || !isInt(c.charId)) return `has no ${end} { sentenceId tokenId charId } of whole numbers`;
  }
  if (!optional(node.labeledBy, (v) => LABELED_BY.has(v))) return `has an unknown labeledBy ${JSON.stringify(node.labeledBy)}`;
  if (!optional(node.deleted, (v) => typeof v === 'boolean')) return 'has a deleted that is not a boolean';
  if (!optional(node.confidenceScore, (v) => typeof v === 'number')) return 'has a confidenceScore that is not a number';
  return undefined;
}

/** Options of {@link readDocumentLabels}: the call's signal and time-out, and the page size. */
export interface ReadLabelsOptions extends CallOptions {
  /** Labels asked per page (the first page; the service's cursor sets the rest). @defaultValue 100 */
  pageSize?: number;
}

/** Refuses bad reading options before anything is sent (the call's, the page size, the read-ahead), every problem at once. */
function assertReadOptions(options: ReadLabelsOptions & { readAhead?: unknown }): void {
  const problems = [...checkTimingOptions(options, 'options'), ...checkNumber(options.pageSize, 'options.pageSize', 1, true, MAX_GRAPHQL_INT), ...checkNumber(options.readAhead, 'options.readAhead', 1, true)];
  if (problems.length > 0) throw new ValidationError(problems, { operationName: 'GetLabelsPaginated' });
}

/**
 * Reads one document copy's labels, a page at a time (`getLabelsPaginated`).
 *
 * @param client - the client (only its `request` is used)
 * @param documentId - a document of a cabinet (`getProjectCabinets`' `documents[].id`)
 * @param options - signal, time-out of each page, page size
 * @returns the labels, one page per step, each node checked against `TextLabel`'s fields
 * @throws `ValidationError` before anything is sent (`options.pageSize`, or the call's options);
 * a labelkit error; `BAD_RESPONSE` naming the node when one lacks a field or has a wrong type
 * @remarks Pages as the vendor does: `{ page: { skip: 0, take: 100 } }` first, then
 * `{ cursor: nextCursor }` until it is null.
 * @example
 * ```ts
 * for await (const page of readDocumentLabels(client, documentId)) for (const label of page) console.log(label.l);
 * ```
 */
export async function* readDocumentLabels(client: Requester, documentId: string, options: ReadLabelsOptions = {}): AsyncGenerator<TextLabel[]> {
  assertReadOptions(options);
  const { pageSize = 100, ...callOptions } = options;
  let input: { cursor?: string; page?: { skip: number; take: number } } = { page: { skip: 0, take: pageSize } };
  for (let seen = 0; ; ) {
    const { getLabelsPaginated: page } = await client.request(GetLabelsPaginatedDocument, { documentId, input }, callOptions);
    for (const [i, node] of page.nodes.entries()) {
      const problem = labelProblem(node);
      if (problem) throw new ProtocolError(`label ${seen + i} of document ${documentId} ${problem}`, { operationName: 'GetLabelsPaginated' });
    }
    seen += page.nodes.length;
    yield page.nodes as TextLabel[];
    if (page.pageInfo.nextCursor === null || page.pageInfo.nextCursor === undefined) return;
    input = { cursor: page.pageInfo.nextCursor };
  }
}

/** Options of {@link readLabelsOfDocuments}. */
export interface ReadLabelsOfDocumentsOptions extends ReadLabelsOptions {
  /** Called after each document, in order, with how many are done and how many there are. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Documents read at once, ahead of the one being handled (1: one after the other). @defaultValue 4 */
  readAhead?: number | undefined;
}

/**
 * Reads the labels of many document copies, a few at once, and gives them in order.
 *
 * @param client - the client
 * @param documentIds - the copies' ids, given back in this order
 * @param options - as {@link readDocumentLabels}, `onProgress(done, total)` after each document,
 * and `readAhead`, the documents in flight at once
 * @returns each document's id and all its labels
 * @throws `ValidationError` (`options.readAhead`, `options.pageSize`, a signal, time-out or
 * progress callback that is not one) before anything is sent; then the first failure
 * in the documents' order, after the documents before it (the reads ahead are aborted)
 * @remarks Over a network each document costs a round trip or more: reading `readAhead`
 * documents at once divides the wait. At most that many documents (and the one being handled)
 * are held at once; breaking out of the loop aborts the reads in flight.
 * @example
 * ```ts
 * for await (const { documentId, labels } of readLabelsOfDocuments(client, ids, { onProgress: (d, t) => console.error(`${d}/${t}`) })) …
 * ```
 */
export async function* readLabelsOfDocuments(client: Requester, documentIds: readonly string[], options: ReadLabelsOfDocumentsOptions = {})
  : AsyncGenerator<{ documentId: string; labels: TextLabel[] }> {
  const { onProgress, readAhead: width = READ_AHEAD, signal, ...readOptions } = options;
  assertReadOptions(options);
  const readAll = async (documentId: string, inFlight: AbortSignal) => {
    const labels: TextLabel[] = [];
    for await (const page of readDocumentLabels(client, documentId, { ...readOptions, signal: inFlight })) labels.push(...page);
    return labels;
  };
  let done = 0;
  for await (const labels of readAhead(documentIds, readAll, { width, signal })) {
    const documentId = documentIds[done++] as string;
    onProgress?.(done, documentIds.length);
    yield { documentId, labels };
  }
}

/**
 * Every label of one document copy, read page by page (none for a copy that does not exist).
 *
 * @param client - the client
 * @param documentId - the copy's id, or null for none
 * @param options - as {@link readDocumentLabels}
 * @returns the labels, in the service's order
 */
export async function readAllLabels(client: Requester, documentId: string | null, options: ReadLabelsOptions = {}): Promise<TextLabel[]> {
  const labels: TextLabel[] = [];
  if (documentId !== null) for await (const page of readDocumentLabels(client, documentId, options)) for (const l of page) labels.push(l);
  return labels;
}
