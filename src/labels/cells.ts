import { ProtocolError } from 'labelkit';
import type { CallOptions } from 'labelkit';
import type { Requester, TextCursor } from './readLabels.js';
import { GetCellsDocument } from 'labelkit/documents';

/** One line of a document: its text and where each token starts in it. */
export interface Line {
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
export async function readCells(client: Requester, documentId: string, call: CallOptions = {}): Promise<Cell[]> {
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
export async function readLines(client: Requester, documentId: string, call: CallOptions = {}): Promise<Map<number, Line>> {
  const lines = new Map<number, Line>();
  for (const cell of await readCells(client, documentId, call)) lines.set(cell.line, { content: cell.content, starts: tokenStarts(cell.content, cell.tokens) });
  return lines;
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
