import type { DocumentMatch } from './matchSpans.js';
import type { EvalLabel, EvalSpan } from './types.js';

/**
 * A precision-recall curve over the predictions' confidences, point for point as scikit-learn's
 * `precision_recall_curve` gives it, and the threshold that maximises F1.
 *
 * @remarks `thresholds` are the distinct confidences, ascending; `precision[i]` and `recall[i]`
 * are those of the predictions whose confidence is at least `thresholds[i]`; the last point
 * (precision 1, recall 0) has no threshold, as in scikit-learn. Recall is over every gold span of
 * the label, found or not (scikit-learn: over every positive sample).
 */
export interface PrCurve {
  /** Ascending distinct confidences. */
  thresholds: number[];
  /** One more entry than `thresholds`: the last is 1. */
  precision: number[];
  /** One more entry than `thresholds`: decreasing, the last is 0. */
  recall: number[];
  /**
   * The threshold whose point has the highest F1 (2·TP / (predicted + gold)), the highest such
   * threshold on a tie; null when no threshold gives an F1 above 0.
   */
  best: { threshold: number; precision: number; recall: number; f1: number } | null;
}

/** The curves of a report: over all labels (micro) and per label. */
export interface ConfidenceCurves {
  /** Over every prediction of every label; null when no prediction has a confidence. */
  micro: PrCurve | null;
  /** Per label, in the report's label order; `curve` null when no prediction of it has a confidence. */
  labels: (EvalLabel & { curve: PrCurve | null })[];
  /**
   * Predictions that carried no confidence: they count at every threshold (as `--min-confidence`
   * keeps them), so the curve's last point is theirs rather than (1, 0) when there are some.
   */
  unscored: number;
}

/** Per confidence: how many predictions with it were right (tp) and wrong (fp). */
interface Tally {
  byScore: Map<number, [tp: number, fp: number]>;
  /** Predictions without a confidence: kept at every threshold. */
  unscored: [tp: number, fp: number];
  gold: number;
}

const newTally = (): Tally => ({ byScore: new Map(), unscored: [0, 0], gold: 0 });

/**
 * The curve of one tally: scikit-learn's `_binary_clf_curve` over distinct scores, then
 * `precision_recall_curve` (no intermediate point dropped).
 */
function curveOf(t: Tally): PrCurve | null {
  if (t.byScore.size === 0) return null;
  const scores = [...t.byScore.keys()].sort((a, b) => b - a);
  const n = scores.length;
  const thresholds: number[] = new Array<number>(n);
  const precision: number[] = new Array<number>(n + 1);
  const recall: number[] = new Array<number>(n + 1);
  let [tp, fp] = t.unscored;
  let best: PrCurve['best'] = null;
  for (let k = 0; k < n; k++) {
    const s = scores[k]!;
    const [dt, df] = t.byScore.get(s)!;
    tp += dt;
    fp += df;
    const i = n - 1 - k; // ascending order, as scikit-learn returns them
    thresholds[i] = s;
    precision[i] = tp + fp === 0 ? 0 : tp / (tp + fp);
    // scikit-learn sets recall to 1 when there is no positive sample at all.
    recall[i] = t.gold === 0 ? 1 : tp / t.gold;
    const f1 = tp + fp + t.gold === 0 ? 0 : (2 * tp) / (tp + fp + t.gold);
    // Scores are visited from the highest down: a tie keeps the higher threshold.
    if (f1 > 0 && (best === null || f1 > best.f1)) best = { threshold: s, precision: precision[i]!, recall: t.gold === 0 ? 1 : tp / t.gold, f1 };
  }
  const [utp, ufp] = t.unscored;
  precision[n] = utp + ufp === 0 ? 1 : utp / (utp + ufp);
  recall[n] = t.gold === 0 ? (utp + ufp === 0 ? 0 : 1) : utp / t.gold;
  return { thresholds, precision, recall, best };
}

/**
 * The precision-recall curve of scores against binary truth, as scikit-learn's
 * `precision_recall_curve(y_true, probas_pred)` computes it.
 *
 * @param truth - 1 (or true) for a positive sample, 0 (false) for a negative one
 * @param scores - each sample's score
 * @returns thresholds ascending, precision and recall with the final (1, 0) point, and the best
 * threshold by F1
 * @throws RangeError when the two arrays differ in length or a score is not a finite number
 * @example
 * ```ts
 * precisionRecallCurve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]);
 * // precision [0.5, 0.667, 0.5, 1, 1], recall [1, 1, 0.5, 0.5, 0], thresholds [0.1, 0.35, 0.4, 0.8]
 * ```
 */
export function precisionRecallCurve(truth: readonly (number | boolean)[], scores: readonly number[]): PrCurve {
  if (truth.length !== scores.length) throw new RangeError(`truth has ${truth.length} entries and scores ${scores.length}: they must pair one to one`);
  const t = newTally();
  for (const [i, s] of scores.entries()) {
    if (!Number.isFinite(s)) throw new RangeError(`scores[${i}] is ${String(s)}: each score must be a finite number`);
    const positive = truth[i] === 1 || truth[i] === true;
    if (positive) t.gold++;
    const cell = t.byScore.get(s) ?? [0, 0];
    cell[positive ? 0 : 1]++;
    t.byScore.set(s, cell);
  }
  return curveOf(t) ?? { thresholds: [], precision: [1], recall: [0], best: null };
}

const keyOf = (layer: number, id: string) => `${layer}\u0000${id}`;

/**
 * Gathers, document after document, each prediction's confidence and whether it was found, and
 * gives the curves per label and over all labels.
 *
 * @remarks Feed it what `Scorer.add` returns. A prediction is right when the scoring paired it
 * with a gold span of its label (strict, overlap or token mode alike); every gold span counts in
 * recall. The outcomes are those of the matching with every prediction present: dropping the
 * predictions under a threshold does not match the others again (exact in strict and token mode
 * but for duplicate spans; in overlap mode a dropped prediction could free a gold span for
 * another). Memory: one count pair per distinct confidence and label.
 * @example
 * ```ts
 * const curves = new ConfidenceCollector();
 * curves.add(scorer.add(gold, predicted));
 * const { micro } = curves.curves(report.labels);
 * ```
 */
export class ConfidenceCollector {
  private readonly perLabel = new Map<string, Tally>();
  private readonly all = newTally();
  private unscored = 0;

  private tally(span: EvalSpan): Tally {
    const key = keyOf(span.layer, span.labelId);
    let t = this.perLabel.get(key);
    if (!t) this.perLabel.set(key, (t = newTally()));
    return t;
  }

  private predicted(span: EvalSpan, right: boolean) {
    const score = span.confidenceScore;
    for (const t of [this.tally(span), this.all]) {
      if (typeof score !== 'number' || !Number.isFinite(score)) t.unscored[right ? 0 : 1]++;
      else {
        const cell = t.byScore.get(score) ?? [0, 0];
        cell[right ? 0 : 1]++;
        t.byScore.set(score, cell);
      }
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) this.unscored++;
  }

  private goldSpan(span: EvalSpan) {
    this.tally(span).gold++;
    this.all.gold++;
  }

  /**
   * Adds one document's matches (one per layer).
   *
   * @param matches - what `Scorer.add` returned for the document
   */
  add(matches: readonly DocumentMatch[]): void {
    for (const m of matches) {
      for (const [g, p] of m.found) {
        this.goldSpan(g);
        this.predicted(p, true);
      }
      for (const [g, p] of m.confused) {
        this.goldSpan(g);
        this.predicted(p, false);
      }
      for (const g of m.missed) this.goldSpan(g);
      for (const p of m.spurious) this.predicted(p, false);
    }
  }

  /**
   * The curves of everything added.
   *
   * @param labels - the report's labels, for their order and names
   * @returns micro and per-label curves
   */
  curves(labels: readonly EvalLabel[]): ConfidenceCurves {
    return {
      micro: curveOf(this.all),
      labels: labels.map((l) => {
        const t = this.perLabel.get(keyOf(l.layer, l.id));
        return { id: l.id, layer: l.layer, name: l.name, curve: t ? curveOf(t) : null };
      }),
      unscored: this.unscored,
    };
  }
}
