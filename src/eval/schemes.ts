import { compareCursors, overlappingPairs } from './matchSpans.js';
import { maxMatching } from './maxMatching.js';
import type { EvalSpan, Mistake, SchemeName, SchemeScore, ZeroDivision } from './types.js';

/** The five counts of a scheme, before `possible`, `actual` and the figures. */
export interface SchemeCounts {
  correct: number;
  incorrect: number;
  partial: number;
  missed: number;
  spurious: number;
}

/** How one document's (and one layer's) spans were paired for the schemes. */
export interface SchemePairing {
  /** Gold and predicted spans that share at least one character, one to one, any labels. */
  pairs: [gold: EvalSpan, predicted: EvalSpan][];
  /** Gold spans that met no prediction. */
  missed: EvalSpan[];
  /** Predictions that met no gold span. */
  spurious: EvalSpan[];
}

/** Zero counts. */
export const noCounts = (): SchemeCounts => ({ correct: 0, incorrect: 0, partial: 0, missed: 0, spurious: 0 });

const sameBoundaries = (a: EvalSpan, b: EvalSpan) => compareCursors(a.start, b.start) === 0 && compareCursors(a.end, b.end) === 0;

/**
 * Pairs gold and predicted spans for the SemEval-2013 9.1 schemes.
 *
 * @param gold - one document's and one layer's gold spans, sorted with `sortSpans`
 * @param predicted - the same document's and layer's predictions, sorted with `sortSpans`
 * @returns the pairs (by gold order), the missed and the spurious spans
 * @remarks A pair is a gold and a predicted span that share a character, whatever their labels,
 * one to one. Among all pairings: the most pairs; among those, the most pairs with equal
 * boundaries; among those, the earliest spans (the least sum of the paired spans' ranks in text
 * order). On data where neither the gold spans nor the predictions overlap one another this is
 * exactly nervaluate's pairing (each prediction in text order meets the gold span with its
 * boundaries, else the first free gold span it overlaps); where they do overlap, nervaluate can
 * leave a pair unmade that this makes.
 */
export function schemePairs(gold: EvalSpan[], predicted: EvalSpan[]): SchemePairing {
  const edges = overlappingPairs(gold, predicted).map(([g, p]) => ({ left: g, right: p, cost: [sameBoundaries(gold[g]!, predicted[p]!) ? 0 : 1, g + p] }));
  const chosen = maxMatching(edges);
  const goldTaken = new Uint8Array(gold.length);
  const predTaken = new Uint8Array(predicted.length);
  for (const e of chosen) goldTaken[e.left] = predTaken[e.right] = 1;
  return {
    pairs: chosen.map((e) => [gold[e.left]!, predicted[e.right]!]),
    missed: gold.filter((_, i) => !goldTaken[i]),
    spurious: predicted.filter((_, i) => !predTaken[i]),
  };
}

/**
 * What one pair counts as in each scheme (SemEval-2013 9.1, nervaluate's scenarios I, IV, V, VI).
 *
 * @param gold - the gold span of the pair
 * @param predicted - the predicted span of the pair (it shares a character with `gold`)
 * @returns per scheme: `correct`, `incorrect` or `partial`
 * @remarks Equal boundaries and label: correct everywhere. Equal boundaries, another label:
 * correct in `exact` and `partial`, incorrect in `strict` and `ent_type`. Other boundaries, same
 * label: correct in `ent_type`, partial in `partial`, incorrect in `strict` and `exact`. Other
 * boundaries and label: partial in `partial`, incorrect elsewhere.
 */
export function pairOutcome(gold: EvalSpan, predicted: EvalSpan): Record<SchemeName, 'correct' | 'incorrect' | 'partial'> {
  const exact = sameBoundaries(gold, predicted);
  const label = gold.labelId === predicted.labelId && gold.layer === predicted.layer;
  return {
    strict: exact && label ? 'correct' : 'incorrect',
    exact: exact ? 'correct' : 'incorrect',
    partial: exact ? 'correct' : 'partial',
    ent_type: label ? 'correct' : 'incorrect',
  };
}

/**
 * A scheme's counts with `possible`, `actual`, precision, recall and F1, as nervaluate computes them.
 *
 * @param counts - correct, incorrect, partial, missed, spurious
 * @param scheme - which scheme: `partial` gives half a point to a partial match
 * @returns the score (see `SchemeScore`)
 */
export function schemeScore(counts: SchemeCounts, scheme: SchemeName): SchemeScore {
  const possible = counts.correct + counts.incorrect + counts.partial + counts.missed;
  const actual = counts.correct + counts.incorrect + counts.partial + counts.spurious;
  const credit = counts.correct + (scheme === 'partial' ? 0.5 * counts.partial : 0);
  const zeroDivision: ZeroDivision[] = [];
  const precision = actual === 0 ? (zeroDivision.push('precision'), 0) : credit / actual;
  const recall = possible === 0 ? (zeroDivision.push('recall'), 0) : credit / possible;
  const f1 = precision + recall === 0 ? (zeroDivision.push('f1'), 0) : (2 * precision * recall) / (precision + recall);
  return { ...counts, possible, actual, precision, recall, f1, zeroDivision };
}

/**
 * The model's mistakes in one pairing: every pair short of an exact match, every missed and every
 * spurious span.
 *
 * @param pairing - from {@link schemePairs}
 * @returns the mistakes, in text order (by the gold span, else the predicted one)
 */
export function mistakesOf(pairing: SchemePairing): Mistake[] {
  const out: Mistake[] = [];
  for (const [gold, predicted] of pairing.pairs) {
    const outcome = pairOutcome(gold, predicted);
    if (outcome.strict === 'correct') continue;
    out.push({ documentId: gold.documentId, kind: outcome.ent_type === 'correct' ? 'boundary' : 'wrong-label', gold, predicted });
  }
  for (const gold of pairing.missed) out.push({ documentId: gold.documentId, kind: 'missed', gold, predicted: null });
  for (const predicted of pairing.spurious) out.push({ documentId: predicted.documentId, kind: 'spurious', gold: null, predicted });
  const at = (m: Mistake) => (m.gold ?? m.predicted)!;
  return out.sort((a, b) => compareCursors(at(a).start, at(b).start) || compareCursors(at(a).end, at(b).end));
}
