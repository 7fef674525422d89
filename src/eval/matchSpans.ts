import { maxMatching } from './maxMatching.js';
import type { MatchEdge } from './maxMatching.js';
import type { EvalCursor, EvalSpan, MatchMode } from './types.js';

/** A span the scoring cannot score in the mode asked (`token` mode and a span over two sentences). */
export class ScoringError extends Error {
  override name = 'ScoringError';
  /** @param message - which span, and what to use instead */
  constructor(message: string) {
    super(message);
  }
}

/** Orders two cursors: sentence, then token, then character. */
export function compareCursors(a: EvalCursor, b: EvalCursor): number {
  return a.sentenceId - b.sentenceId || a.tokenId - b.tokenId || a.charId - b.charId;
}

/** Whether two spans share at least one character (both ends inclusive). */
export function spansOverlap(a: EvalSpan, b: EvalSpan): boolean {
  return compareCursors(a.start, b.end) <= 0 && compareCursors(b.start, a.end) <= 0;
}

/** Whether two spans start and end at the same place. */
const sameBoundaries = (a: EvalSpan, b: EvalSpan) => compareCursors(a.start, b.start) === 0 && compareCursors(a.end, b.end) === 0;

/**
 * How far apart two spans' boundaries are, as a tuple compared left to right: the sentences
 * both boundaries moved, then the tokens, then the characters.
 */
function boundaryDistance(a: EvalSpan, b: EvalSpan): [number, number, number] {
  const d = (k: keyof EvalCursor) => Math.abs(a.start[k] - b.start[k]) + Math.abs(a.end[k] - b.end[k]);
  return [d('sentenceId'), d('tokenId'), d('charId')];
}

/** How one document's (and one layer's) gold and predicted spans met. */
export interface DocumentMatch {
  /** Pairs of a gold and a predicted span of the same label: true positives. */
  found: [gold: EvalSpan, predicted: EvalSpan][];
  /** Pairs of a gold and a predicted span that met with different labels. */
  confused: [gold: EvalSpan, predicted: EvalSpan][];
  /** Gold spans no prediction met. */
  missed: EvalSpan[];
  /** Predictions that met no gold span. */
  spurious: EvalSpan[];
}

/** The first index in `[0, n)` for which `after(i)` holds (`after` false, then true), or n. */
function firstWhere(n: number, after: (i: number) => boolean): number {
  let [lo, hi] = [0, n];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * For a prediction, the range of gold spans (sorted by start) that can meet it: those starting at
 * its start (strict), or those from the first whose span, or an earlier one's, reaches its start
 * to the last starting before its end (overlap). Binary searches: a long document costs n log n,
 * not n².
 */
function goldRange(gold: EvalSpan[], overlap: boolean): (pred: EvalSpan) => [number, number] {
  if (!overlap) {
    return (pred) => [firstWhere(gold.length, (i) => compareCursors(gold[i]!.start, pred.start) >= 0), firstWhere(gold.length, (i) => compareCursors(gold[i]!.start, pred.start) > 0)];
  }
  // reach[i]: the furthest end among gold[0..i]; it never decreases, so it can be searched.
  const reach: EvalCursor[] = [];
  for (const [i, span] of gold.entries()) reach.push(i > 0 && compareCursors(reach[i - 1]!, span.end) > 0 ? reach[i - 1]! : span.end);
  return (pred) => [firstWhere(gold.length, (i) => compareCursors(reach[i]!, pred.start) >= 0), firstWhere(gold.length, (i) => compareCursors(gold[i]!.start, pred.end) > 0)];
}

/**
 * Pairs spans one to one among the pairs `meets` allows: in `overlap` mode the most pairs and,
 * among the largest pairings, the closest boundaries ({@link maxMatching}); otherwise (equal
 * boundaries, where every pairing of a group of equal spans is as large and as close) in order.
 *
 * @returns the pairs, in gold order, and marks the paired spans in `goldTaken`/`predTaken`
 */
function pairSpans(
  gold: EvalSpan[],
  predicted: EvalSpan[],
  goldTaken: Uint8Array,
  predTaken: Uint8Array,
  range: (pred: EvalSpan) => [number, number],
  meets: (g: EvalSpan, p: EvalSpan) => boolean,
  most: boolean,
): [EvalSpan, EvalSpan][] {
  const edges: MatchEdge[] = [];
  for (let p = 0; p < predicted.length; p++) {
    if (predTaken[p]) continue;
    const pred = predicted[p]!;
    const [from, to] = range(pred);
    for (let g = from; g < to; g++) if (!goldTaken[g] && meets(gold[g]!, pred)) edges.push({ left: g, right: p, cost: boundaryDistance(gold[g]!, pred) });
  }
  let chosen: MatchEdge[];
  if (most) chosen = maxMatching(edges);
  else {
    chosen = [];
    edges.sort((x, y) => x.left - y.left || x.right - y.right);
    for (const e of edges) {
      if (goldTaken[e.left] || predTaken[e.right]) continue;
      goldTaken[e.left] = predTaken[e.right] = 1;
      chosen.push(e);
    }
  }
  for (const e of chosen) goldTaken[e.left] = predTaken[e.right] = 1;
  return chosen.map((e) => [gold[e.left]!, predicted[e.right]!]);
}

/**
 * Every pair of a gold and a predicted span that share a character, whatever their labels.
 *
 * @param gold - spans sorted with {@link sortSpans}
 * @param predicted - spans sorted with {@link sortSpans}
 * @returns [gold index, predicted index] pairs, by predicted then gold index
 * @remarks Binary searches narrow each prediction's candidates, so spans far apart cost nothing.
 */
export function overlappingPairs(gold: EvalSpan[], predicted: EvalSpan[]): [number, number][] {
  const range = goldRange(gold, true);
  const pairs: [number, number][] = [];
  for (const [p, pred] of predicted.entries()) {
    const [from, to] = range(pred);
    for (let g = from; g < to; g++) if (spansOverlap(gold[g]!, pred)) pairs.push([g, p]);
  }
  return pairs;
}

/** Sorts spans by start, end, layer and label id, so that the pairing never depends on the order read. */
export function sortSpans(spans: EvalSpan[]): EvalSpan[] {
  return spans.sort((a, b) => compareCursors(a.start, b.start) || compareCursors(a.end, b.end) || a.layer - b.layer || (a.labelId < b.labelId ? -1 : a.labelId > b.labelId ? 1 : 0));
}

/**
 * Matches the gold and predicted spans of one document and one layer.
 *
 * @param gold - the gold spans, sorted with {@link sortSpans}
 * @param predicted - the predicted spans, sorted with {@link sortSpans}
 * @param mode - `strict`: the same start and end; `overlap`: at least one character in common;
 * `token`: give spans of one token each (see `tokenUnits`) and match them strictly
 * @returns the true positives, the label confusions, the missed and the spurious spans
 * @remarks Two passes, each one to one: first pairs of the same label (true positives), then,
 * among the spans left, pairs of different labels (the confusion table's off-diagonal cells).
 * In `overlap` mode each pass is a maximum matching: the most pairs of spans that share a
 * character and, among all pairings with that many pairs, the one whose boundaries are closest
 * (distance: the sentences, then tokens, then characters both boundaries differ by, summed over
 * the pairs and compared in that order). Gold LOC[0,3] and LOC[4,20] with predictions LOC[0,0]
 * and LOC[1,4] thus make 2 pairs ([0,3]–[0,0] and [4,20]–[1,4]), where taking the closest pair
 * first ([0,3]–[1,4]) would make 1. A prediction meets at most one gold span and a gold span at
 * most one prediction, so a span covering a whole sentence finds one of the gold spans in it
 * (the one whose boundaries are closest to its own) and every other gold span there stays
 * missed. In `strict` and `token` mode only equal spans meet, and they are paired in order.
 */
export function matchSpans(gold: EvalSpan[], predicted: EvalSpan[], mode: MatchMode): DocumentMatch {
  const meetsAt = mode === 'overlap' ? spansOverlap : sameBoundaries;
  const goldTaken = new Uint8Array(gold.length);
  const predTaken = new Uint8Array(predicted.length);
  const range = goldRange(gold, mode === 'overlap');
  const most = mode === 'overlap';
  const found = pairSpans(gold, predicted, goldTaken, predTaken, range, (g, p) => g.labelId === p.labelId && meetsAt(g, p), most);
  const confused = pairSpans(gold, predicted, goldTaken, predTaken, range, meetsAt, most);
  return {
    found,
    confused,
    missed: gold.filter((_, i) => !goldTaken[i]),
    spurious: predicted.filter((_, i) => !predTaken[i]),
  };
}

/**
 * Cuts spans into one span per token they cover, for `token` mode; a token that carries the
 * same label twice counts once.
 *
 * @param spans - spans of one document and one layer
 * @returns one span per (token, label), starting and ending at the token (`charId` 0), sorted
 * @throws {@link ScoringError} when a span ends in another sentence than it starts (its tokens cannot be told
 * without the sentence's length); the emulator never makes one, as it snaps a model's span
 * within its line
 */
export function tokenUnits(spans: EvalSpan[]): EvalSpan[] {
  const seen = new Set<string>();
  const units: EvalSpan[] = [];
  for (const span of spans) {
    if (span.start.sentenceId !== span.end.sentenceId) {
      throw new ScoringError(`a label of document ${span.documentId} spans sentences ${span.start.sentenceId} to ${span.end.sentenceId}: token mode scores labels within one sentence only (use strict or overlap)`);
    }
    for (let t = span.start.tokenId; t <= span.end.tokenId; t++) {
      const key = `${span.start.sentenceId}\u0000${t}\u0000${span.labelId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const at = { sentenceId: span.start.sentenceId, tokenId: t, charId: 0 };
      units.push({ ...span, start: at, end: at });
    }
  }
  return sortSpans(units);
}
