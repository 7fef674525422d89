import { ProtocolError } from 'labelkit';
import { notGold, tokenStarts } from 'labelkit/labels';
import type { Cell, TextLabel } from 'labelkit/labels';
import { StrictExportError } from './errors.js';
import { noneLeftOut, STRICT_REASONS } from './types.js';
import type { ExportedLine, ExportedSpan, LeftOut, LeftOutReason } from './types.js';

/** What {@link flattenDocument} needs besides the document. */
export interface FlattenOptions {
  /** The label set exported (`TextLabel.layer`). */
  layer: number;
  /** The layer's label item id → its name in the export. */
  names: ReadonlyMap<string, string>;
  /** Refuse (throw {@link StrictExportError}) instead of leaving out or changing a label. */
  strict: boolean;
  /** The document, for messages: `<project>/<document>`. */
  where: string;
  /**
   * The layer's label item id → its depth in the label tree (0 for a label without a parent): on
   * identical spans the deeper label (a child before its parent) wins. {@link labelDepths} makes it.
   * @defaultValue every label at depth 0 (the label set's order decides)
   */
  depth?: ReadonlyMap<string, number> | undefined;
}

/**
 * Each label item's depth in its label tree: 0 for a label without a parent, its parent's depth
 * plus one otherwise.
 *
 * @param items - the label set's items (`id`, `parentId`)
 * @returns item id → depth; a parent that is not in the set counts as none, and a cycle stops at
 * the number of items
 * @example
 * ```ts
 * labelDepths([{ id: '1', parentId: null }, { id: '2', parentId: '1' }]); // Map { '1' => 0, '2' => 1 }
 * ```
 */
export function labelDepths(items: readonly { id: string; parentId: string | null }[]): Map<string, number> {
  const parent = new Map(items.map((item) => [item.id, item.parentId]));
  const depth = new Map<string, number>();
  for (const item of items) {
    let d = 0;
    for (let up = item.parentId; up !== null && parent.has(up) && d < items.length; up = parent.get(up)!) d++;
    depth.set(item.id, d);
  }
  return depth;
}

const WHY: Record<LeftOutReason, string> = {
  deleted: 'is marked deleted',
  conflict: 'is in conflict (labeledBy CONFLICT)',
  rejected: 'was rejected',
  otherLayer: 'is of another label set',
  unknownLabel: 'names no label of the label set',
  multiLine: 'spans more than one line',
  hiddenLine: 'is on a hidden or deleted line',
  nested: 'is nested in another span',
  overlapping: 'overlaps another span',
  duplicate: 'repeats another span',
  snapped: 'starts or ends inside a token',
};

/**
 * Turns one document copy's lines and labels into the lines of a flat format: whole-token spans
 * of one label set, at most one label per token, and their IOB2 tags.
 *
 * @param cells - the document's lines, from `readCells`
 * @param labels - the document's labels, from `readDocumentLabels`
 * @param options - the layer, its names, `strict`, and the document's name for messages
 * @returns the lines kept (hidden and deleted ones left out) and what was left out, by reason
 * @throws `ProtocolError` (`BAD_RESPONSE`) naming a token that cannot be found in its line's
 * text, or a label whose line or token does not exist; {@link StrictExportError} under `strict`
 * for the first label a flat format cannot hold as it is
 * @remarks The rules, in order: a label of another layer is left out (`otherLayer`); a deleted,
 * `CONFLICT` or rejected one too (the gold rule of `labelkit eval`); then one naming no label of
 * the set (`unknownLabel`), one over two lines (`multiLine`) or on a hidden or deleted line
 * (`hiddenLine`). A label starting or ending inside a token is widened to whole tokens
 * (`snapped`, kept). Then per line, spans are taken by start, the longer first (then the label
 * set's order): one that meets a span already taken is left out as `duplicate` (same tokens and
 * label), `nested` (inside it) or `overlapping` (crossing it). So the outer span of a nesting
 * wins, and of two crossing spans the one that starts first. On identical spans (same tokens) the
 * deeper label of the tree wins (`depth`: a child such as `PERSON` over its parent `ENTITY`, which
 * is left out as `nested`), then the label set's order.
 */
export function flattenDocument(cells: readonly Cell[], labels: readonly TextLabel[], options: FlattenOptions): { lines: ExportedLine[]; leftOut: LeftOut } {
  const { layer, names, strict, where, depth } = options;
  const leftOut = noneLeftOut();
  const order = new Map([...names.keys()].map((id, i) => [id, i]));
  const byLine = new Map<number, { cell: Cell; starts: number[]; spans: (ExportedSpan & { rank: number; depth: number })[] }>();
  for (const cell of cells) {
    if (cell.status !== 'DISPLAYED') {
      leftOut.lines[cell.status === 'HIDDEN' ? 'hidden' : 'deleted']++;
      byLine.set(cell.line, { cell, starts: [], spans: [] });
      continue;
    }
    const starts = tokenStarts(cell.content, cell.tokens);
    const missing = starts.indexOf(-1);
    if (missing >= 0) throw new ProtocolError(`${where} line ${cell.line}: token ${missing} ${JSON.stringify(cell.tokens[missing])} is not in the line's text (after the tokens before it)`, { operationName: 'GetCells' });
    byLine.set(cell.line, { cell, starts, spans: [] });
  }
  const skip = (reason: LeftOutReason, label: TextLabel) => {
    if (strict && STRICT_REASONS.has(reason)) {
      throw new StrictExportError(reason, `${where} line ${label.start.sentenceId}: label ${label.id} (${names.get(label.l) ?? label.l}) ${WHY[reason]}`);
    }
    leftOut.labels[reason]++;
  };
  for (const label of labels) {
    if (label.layer !== layer) {
      skip('otherLayer', label);
      continue;
    }
    const why = notGold(label);
    if (why) {
      skip(why, label);
      continue;
    }
    const name = names.get(label.l);
    if (name === undefined) {
      skip('unknownLabel', label);
      continue;
    }
    if (label.start.sentenceId !== label.end.sentenceId) {
      skip('multiLine', label);
      continue;
    }
    const line = byLine.get(label.start.sentenceId);
    if (!line) throw new ProtocolError(`${where}: label ${label.id} is on line ${label.start.sentenceId}, which the document does not have`, { operationName: 'GetLabelsPaginated' });
    if (line.cell.status !== 'DISPLAYED') {
      skip('hiddenLine', label);
      continue;
    }
    const { tokens } = line.cell;
    const { start, end } = label;
    if (start.tokenId >= tokens.length || end.tokenId >= tokens.length || end.tokenId < start.tokenId) {
      throw new ProtocolError(`${where} line ${start.sentenceId}: label ${label.id} covers tokens ${start.tokenId} to ${end.tokenId}, the line has ${tokens.length}`, { operationName: 'GetLabelsPaginated' });
    }
    if (start.charId !== 0 || end.charId !== tokens[end.tokenId]!.length - 1) skip('snapped', label);
    const from = line.starts[start.tokenId]!;
    const to = line.starts[end.tokenId]! + tokens[end.tokenId]!.length;
    line.spans.push({ startToken: start.tokenId, endToken: end.tokenId, start: from, end: to, label: name, rank: order.get(label.l)!, depth: depth?.get(label.l) ?? 0 });
  }
  const lines: ExportedLine[] = [];
  for (const { cell, starts, spans } of byLine.values()) {
    if (cell.status !== 'DISPLAYED') continue;
    spans.sort((a, b) => a.startToken - b.startToken || b.endToken - a.endToken || b.depth - a.depth || a.rank - b.rank);
    const placed: ExportedSpan[] = [];
    const tags = cell.tokens.map(() => 'O');
    for (const span of spans) {
      const met = placed.find((k) => k.startToken <= span.endToken && span.startToken <= k.endToken);
      if (met) {
        const reason = met.startToken === span.startToken && met.endToken === span.endToken && met.label === span.label ? 'duplicate' : met.startToken <= span.startToken && span.endToken <= met.endToken ? 'nested' : 'overlapping';
        if (strict) throw new StrictExportError(reason, `${where} line ${cell.line}: a ${span.label} span (tokens ${span.startToken}-${span.endToken}) ${WHY[reason]} (${met.label}, tokens ${met.startToken}-${met.endToken})`);
        leftOut.labels[reason]++;
        continue;
      }
      placed.push({ startToken: span.startToken, endToken: span.endToken, start: span.start, end: span.end, label: span.label });
      for (let t = span.startToken; t <= span.endToken; t++) tags[t] = `${t === span.startToken ? 'B' : 'I'}-${span.label}`;
    }
    placed.sort((a, b) => a.startToken - b.startToken);
    lines.push({ line: cell.line, text: cell.content, tokens: cell.tokens, starts, tags, spans: placed });
  }
  lines.sort((a, b) => a.line - b.line);
  return { lines, leftOut };
}
