import { readFlags } from './compactLines.js';
import type { CompactLines, LabeledBy } from './compactLines.js';
import type { Copy } from './copies.js';
import { tokenTexts } from './tokens.js';
import type { Tokens } from './tokens.js';
import type { StoredDocument } from './types.js';

/** The page size when the input gives none (neither `page` nor a cursor). */
const DEFAULT_PAGE_SIZE = 100;
/** The largest `page.take` the emulator answers (production publishes no limit). */
const MAX_PAGE_SIZE = 1000;

/** The input of a paginated read (`GetLabelsPaginatedInput`, `GetCellsPaginatedInput`). */
export interface PageInput {
  cursor?: string | null;
  page?: { skip: number; take: number } | null;
}

/**
 * A paginated read's input that the emulator refuses, with every problem.
 *
 * @remarks The resolvers answer it as one GraphQL error, `extensions.code` BAD_USER_INPUT, listing
 * `{ field, message }` per problem.
 */
export class PageInputError extends Error {
  override readonly name = 'PageInputError';

  /**
   * @param problems - each with the input field it is about, e.g. `input.page.take`
   */
  constructor(readonly problems: { field: string; message: string }[]) {
    super(`Invalid input (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`);
  }
}

/** What a cursor holds: the document, the offset, the page size, and where the offset was in the store. */
interface Cursor {
  /** The document copy id the cursor belongs to. */
  d: string;
  /** The offset of the page's first node. */
  o: number;
  /** The page size. */
  t: number;
  /** The store's version of the document when the cursor was made, with the line and the label within it. */
  v?: number;
  l?: number;
  k?: number;
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

/** Where a page starts and how long it is, from `page` or from a cursor. */
function pageOf(documentId: string, input: PageInput): { offset: number; take: number; at?: { v: number; l: number; k: number } } {
  const problems: { field: string; message: string }[] = [];
  const { cursor, page } = input;
  if (typeof cursor === 'string' && page) problems.push({ field: 'input', message: 'give cursor or page, not both' });
  if (page) {
    if (!Number.isInteger(page.skip) || page.skip < 0) problems.push({ field: 'input.page.skip', message: 'must be an integer >= 0' });
    if (!Number.isInteger(page.take) || page.take < 1 || page.take > MAX_PAGE_SIZE) problems.push({ field: 'input.page.take', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
  }
  let decoded: Cursor | undefined;
  if (typeof cursor === 'string') {
    try {
      decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
    } catch {
      decoded = undefined;
    }
    const ok = decoded && typeof decoded === 'object' && Number.isInteger(decoded.o) && decoded.o >= 0 && Number.isInteger(decoded.t) && decoded.t >= 1 && decoded.t <= MAX_PAGE_SIZE;
    if (!ok) problems.push({ field: 'input.cursor', message: 'is not a cursor of this read (pass pageInfo.nextCursor as it came)' });
    else if (decoded!.d !== documentId) problems.push({ field: 'input.cursor', message: 'was made for another document' });
  }
  if (problems.length > 0) throw new PageInputError(problems);
  if (decoded) {
    const { v, l, k } = decoded;
    return { offset: decoded.o, take: decoded.t, ...(Number.isInteger(v) && Number.isInteger(l) && Number.isInteger(k) && { at: { v: v!, l: l!, k: k! } }) };
  }
  return page ? { offset: page.skip, take: page.take } : { offset: 0, take: DEFAULT_PAGE_SIZE };
}

/** The cursors around a page that starts at `offset` and holds `count` of `total` nodes. */
function pageInfo(documentId: string, offset: number, take: number, count: number, total: number, at?: { v: number; l: number; k: number }) {
  const next = offset + count;
  return {
    nextCursor: count > 0 && next < total ? encodeCursor({ d: documentId, o: next, t: take, ...at }) : null,
    prevCursor: offset > 0 ? encodeCursor({ d: documentId, o: Math.max(0, offset - take), t: take }) : null,
  };
}

/** A `TextCursor`. */
export interface TextCursorJson {
  sentenceId: number;
  tokenId: number;
  charId: number;
}

/** A node of `getLabelsPaginated`: the JSON of a `TextLabelScalar`, with the fields of production's `TextLabel`. */
export interface TextLabelJson {
  id: string;
  /** The label item's id; '' for a name bound to no item (possible in process only). */
  l: string;
  layer: number;
  start: TextCursorJson;
  end: TextCursorJson;
  hashCode: string;
  labeledBy: LabeledBy;
  confidenceScore: number | null;
  deleted: boolean;
  documentId: string;
  /**
   * Who rejected the label: `REVIEWER_USER_ID` for a gold label given `rejected`, else null.
   * Not a field of production's `TextLabel` (its `GqlConflictable` has it): a GUESS.
   */
  rejectedByUserId: number | null;
}

/** The user id the emulator gives its reviewer in `rejectedByUserId`. */
const REVIEWER_USER_ID = 1;

/** A page of a paginated read. */
export interface Page<T> {
  nodes: T[];
  pageInfo: { nextCursor: string | null; prevCursor: string | null };
  totalCount: number;
}

/** FNV-1a over a string, as 8 hex digits: a label's `hashCode` (production's digest is unpublished). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Builds the node of one stored label. `tokens` holds the cut of its line.
 *
 * @remarks The id has the vendor's documented shape
 * `<item id>:<layer>:<sidS>:<s>:<charS>:<sidE>:<e>:<charE>:<index>`, `index` counting the same
 * label on the same tokens earlier in the line (0 for the first).
 */
function labelNode(copy: Copy, lines: CompactLines, line: number, first: number, at: number, tokens: Tokens, documentId: string): TextLabelJson {
  const entry = lines.entryAt(at);
  const startToken = lines.startTokenAt(at);
  const endToken = lines.endTokenAt(at);
  let index = 0;
  for (let before = first; before < at; before++) {
    if (lines.entryAt(before) === entry && lines.startTokenAt(before) === startToken && lines.endTokenAt(before) === endToken) index++;
  }
  const l = copy.labels.itemIdAt(entry) ?? '';
  const layer = copy.labels.layerAt(entry);
  const endChar = tokens.end(endToken) - tokens.start(endToken) - 1;
  const id = `${l}:${layer}:${line}:${startToken}:0:${line}:${endToken}:${endChar}:${index}`;
  const { labeledBy, deleted, rejected } = readFlags(lines.flagsAt(at), copy.labeledBy);
  const confidence = lines.confidenceAt(at);
  return {
    id,
    l,
    layer,
    start: { sentenceId: line, tokenId: startToken, charId: 0 },
    end: { sentenceId: line, tokenId: endToken, charId: endChar },
    hashCode: fnv1a(id),
    labeledBy,
    confidenceScore: Number.isNaN(confidence) ? null : confidence,
    deleted,
    documentId,
    rejectedByUserId: rejected ? REVIEWER_USER_ID : null,
  };
}

/**
 * One page of the labels of a document copy (`getLabelsPaginated`).
 *
 * @param documentId - the document copy's id, as asked
 * @param copy - the copy, or undefined when nothing was written into it (no labels)
 * @param doc - the project's document
 * @param input - `page` (`skip`, `take` from 1 to {@link MAX_PAGE_SIZE}) or `cursor` (a
 * `nextCursor` or `prevCursor` of this document); neither reads the first {@link DEFAULT_PAGE_SIZE}
 * @param tokens - a reusable tokenizer
 * @returns the labels in line order (within a line, as stored), deleted ones included;
 * `nextCursor` is null on the last page; `totalCount` counts every label of the copy
 * @throws {@link PageInputError} listing every problem of `input`
 * @remarks A cursor goes on with the page size it was made with. It remembers where its offset
 * was in the store, so reading a long document page by page does not walk it from the start each
 * time; after the document changed, it finds its offset again from the start.
 */
export function labelPage(documentId: string, copy: Copy | undefined, doc: StoredDocument, input: PageInput, tokens: Tokens): Page<TextLabelJson> {
  const { offset, take, at } = pageOf(documentId, input);
  const lines = copy?.documents.get(doc.id);
  if (!copy || !lines) return { nodes: [], pageInfo: pageInfo(documentId, offset, take, 0, 0), totalCount: 0 };
  const total = lines.total;
  const nodes: TextLabelJson[] = [];
  let line = 0;
  let k = 0;
  if (at && at.v === lines.version) [line, k] = [at.l, at.k];
  else {
    let seen = 0;
    for (; line < lines.lineSlots; line++) {
      const count = lines.countOf(line);
      if (seen + count > offset) break;
      seen += count;
    }
    k = offset - seen;
  }
  while (nodes.length < take && line < lines.lineSlots && offset < total) {
    const count = lines.countOf(line);
    if (k < count) {
      tokens.cut(doc.lines[line] ?? '');
      const first = lines.firstOf(line);
      for (; k < count && nodes.length < take; k++) nodes.push(labelNode(copy, lines, line, first, first + k, tokens, documentId));
    }
    if (k >= count) {
      line++;
      k = 0;
    }
  }
  return { nodes, pageInfo: pageInfo(documentId, offset, take, nodes.length, total, { v: lines.version, l: line, k }), totalCount: total };
}

/** A node of `getCells`: the JSON of a `CellScalar`, with fields of production's `Cell`. */
export interface CellJson {
  line: number;
  index: number;
  content: string;
  tokens: string[];
  status: 'DISPLAYED';
}

/**
 * One page of the lines of a document copy (`getCells`), with their tokens.
 *
 * @param documentId - the document copy's id, as asked
 * @param doc - the project's document
 * @param input - as {@link labelPage}'s; the offset counts lines
 * @param tokens - a reusable tokenizer
 * @returns one node per line (`index` 0, the line's only cell; `status` DISPLAYED), `tokens` cut
 * by the emulator's rule (tokens.ts), the tokens that `TextCursor.tokenId` counts
 * @throws {@link PageInputError} listing every problem of `input`
 */
export function cellPage(documentId: string, doc: StoredDocument, input: PageInput, tokens: Tokens): Page<CellJson> {
  const { offset, take } = pageOf(documentId, input);
  const nodes: CellJson[] = [];
  for (let line = offset; line < doc.lines.length && nodes.length < take; line++) {
    const content = doc.lines[line]!;
    nodes.push({ line, index: 0, content, tokens: tokenTexts(content, tokens), status: 'DISPLAYED' });
  }
  return { nodes, pageInfo: pageInfo(documentId, offset, take, nodes.length, doc.lines.length), totalCount: doc.lines.length };
}

/** The figures of one copy of one document against the reviewer copy (production's `FinalReport`). */
export interface FinalReportFigures {
  precision: number;
  recall: number;
  totalAppliedLabels: number;
  totalAcceptedLabels: number;
  totalRejectedLabels: number;
  totalResolvedLabels: number;
}

/** The keys of a copy's labels in one document (line, tokens, layer, item), counted; deleted ones left out, and `CONFLICT` and rejected ones when `gold`. */
function labelKeys(copy: Copy | undefined, documentId: string, gold: boolean): Map<string, number> {
  const keys = new Map<string, number>();
  const lines = copy?.documents.get(documentId);
  lines?.forEachLine((line, first, count) => {
    for (let at = first; at < first + count; at++) {
      const { labeledBy, deleted, rejected } = readFlags(lines.flagsAt(at), copy!.labeledBy);
      if (deleted || (gold && (labeledBy === 'CONFLICT' || rejected))) continue;
      const entry = lines.entryAt(at);
      const key = `${line}:${lines.startTokenAt(at)}:${lines.endTokenAt(at)}:${copy!.labels.layerAt(entry)}:${copy!.labels.itemIdAt(entry) ?? `?${copy!.labels.nameAt(entry)}`}`;
      keys.set(key, (keys.get(key) ?? 0) + 1);
    }
  });
  return keys;
}

/**
 * The gold labels of one document, keyed as {@link finalReport} compares them: read once per
 * document, whatever the number of labeler copies.
 *
 * @param reviewer - the reviewer copy, or undefined when the project has none yet
 * @param documentId - the project's document id
 * @returns the keys of the reviewer copy's labels less deleted, rejected and `CONFLICT` ones, counted
 */
export function goldKeys(reviewer: Copy | undefined, documentId: string): ReadonlyMap<string, number> {
  return labelKeys(reviewer, documentId, true);
}

/**
 * The emulator's final report of one labeler's copy of one document: its labels against the
 * reviewer copy's gold (production computes its own figures and does not publish how).
 *
 * @param labeler - the labeler's copy
 * @param gold - the document's gold, from {@link goldKeys}
 * @param documentId - the project's document id
 * @returns `totalAppliedLabels`: the copy's labels, deleted ones left out; `totalAcceptedLabels`:
 * those equal to a gold label (same line, tokens, layer and label item; each gold label accepts
 * one); `totalRejectedLabels`: the others; `totalResolvedLabels`: accepted plus rejected;
 * `precision` = accepted / applied, `recall` = gold labels matched / gold labels (0 when there is
 * nothing to divide by). Gold = the reviewer copy's labels less deleted, rejected and `CONFLICT` ones.
 */
export function finalReport(labeler: Copy, gold: ReadonlyMap<string, number>, documentId: string): FinalReportFigures {
  const applied = labelKeys(labeler, documentId, false);
  let appliedCount = 0;
  let accepted = 0;
  let goldCount = 0;
  for (const n of gold.values()) goldCount += n;
  for (const [key, n] of applied) {
    appliedCount += n;
    accepted += Math.min(n, gold.get(key) ?? 0);
  }
  return {
    precision: appliedCount === 0 ? 0 : accepted / appliedCount,
    recall: goldCount === 0 ? 0 : accepted / goldCount,
    totalAppliedLabels: appliedCount,
    totalAcceptedLabels: accepted,
    totalRejectedLabels: appliedCount - accepted,
    totalResolvedLabels: appliedCount,
  };
}
