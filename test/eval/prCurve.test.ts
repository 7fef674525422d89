// The precision-recall curve over confidences, against scikit-learn's definition of
// precision_recall_curve (sklearn/metrics/_ranking.py): thresholds are the distinct scores
// ascending, precision[i] / recall[i] those of the samples scored at least thresholds[i], and a
// final point (precision 1, recall 0) without a threshold.
import { describe, expect, it } from 'vitest';
import { ConfidenceCollector, precisionRecallCurve, Scorer } from '../../src/eval/index.js';
import type { EvalSpan } from '../../src/eval/index.js';

describe('precisionRecallCurve', () => {
  it("gives scikit-learn's points for its published example", () => {
    // From scikit-learn's docstring of sklearn.metrics.precision_recall_curve (sklearn/metrics/_ranking.py, 1.3):
    //   y_true = [0, 0, 1, 1]; y_scores = [0.1, 0.4, 0.35, 0.8]
    //   precision → [0.5, 0.66666667, 0.5, 1., 1.]; recall → [1., 1., 0.5, 0.5, 0.]; thresholds → [0.1, 0.35, 0.4, 0.8]
    const curve = precisionRecallCurve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]);
    expect(curve.thresholds).toEqual([0.1, 0.35, 0.4, 0.8]);
    expect(curve.precision.map((p) => +p.toFixed(8))).toEqual([0.5, 0.66666667, 0.5, 1, 1]);
    expect(curve.recall).toEqual([1, 1, 0.5, 0.5, 0]);
    // F1 per threshold: 4/6, 4/5, 2/4, 2/3 — the best is 0.35.
    expect(curve.best).toEqual({ threshold: 0.35, precision: 2 / 3, recall: 1, f1: 0.8 });
  });

  it('groups tied scores into one threshold, and sets recall to 1 when there is no positive (as scikit-learn)', () => {
    const tied = precisionRecallCurve([1, 0, 1, 0], [0.5, 0.5, 0.9, 0.1]);
    expect(tied).toEqual({ thresholds: [0.1, 0.5, 0.9], precision: [0.5, 2 / 3, 1, 1], recall: [1, 1, 0.5, 0], best: { threshold: 0.5, precision: 2 / 3, recall: 1, f1: 0.8 } });
    const none = precisionRecallCurve([0, 0], [0.2, 0.7]);
    expect(none).toEqual({ thresholds: [0.2, 0.7], precision: [0, 0, 1], recall: [1, 1, 0], best: null });
  });

  it('refuses arrays of different lengths and scores that are not numbers', () => {
    expect(() => precisionRecallCurve([1], [0.1, 0.2])).toThrow(/truth has 1 entries and scores 2/);
    expect(() => precisionRecallCurve([1], [Number.NaN])).toThrow(/scores\[0\] is NaN/);
  });
});

const span = (token: number, labelId: string, confidenceScore?: number): EvalSpan => ({
  documentId: 'd',
  start: { sentenceId: 0, tokenId: token, charId: 0 },
  end: { sentenceId: 0, tokenId: token, charId: 2 },
  labelId,
  layer: 0,
  ...(confidenceScore !== undefined && { confidenceScore }),
});

describe('ConfidenceCollector', () => {
  it('draws the curve of span predictions, recall over every gold span (found or not)', () => {
    // Gold PER at tokens 0, 1, 2; the model finds 0 (0.9) and 2 (0.6), puts a spurious PER at 5 (0.7) and misses 1.
    const scorer = new Scorer({ match: 'strict' });
    const curves = new ConfidenceCollector();
    curves.add(scorer.add([span(0, 'per'), span(1, 'per'), span(2, 'per')], [span(0, 'per', 0.9), span(2, 'per', 0.6), span(5, 'per', 0.7)]));
    const { micro, labels, unscored } = curves.curves(scorer.report().labels);
    // At 0.9: 1 right of 1 (recall 1/3); at 0.7: 1 of 2; at 0.6: 2 of 3 (recall 2/3).
    const expected = { thresholds: [0.6, 0.7, 0.9], precision: [2 / 3, 0.5, 1, 1], recall: [2 / 3, 1 / 3, 1 / 3, 0], best: { threshold: 0.6, precision: 2 / 3, recall: 2 / 3, f1: 2 / 3 } };
    expect(micro).toEqual(expected);
    expect(labels).toEqual([{ id: 'per', layer: 0, name: null, curve: expected }]);
    expect(unscored).toBe(0);
    // The same points as scikit-learn's over the predictions, once recall is rescaled from the 2
    // positives it sees to the 3 gold spans (the one missed has no score to sort).
    const sk = precisionRecallCurve([1, 1, 0], [0.9, 0.6, 0.7]);
    expect(sk.precision).toEqual(expected.precision);
    expect(sk.recall.map((r) => (r * 2) / 3)).toEqual(expected.recall);
  });

  it('counts a wrong label as a false positive of the predicted label, and keeps predictions without a confidence at every threshold', () => {
    const scorer = new Scorer({ match: 'strict' });
    const curves = new ConfidenceCollector();
    curves.add(scorer.add([span(0, 'per'), span(1, 'loc')], [span(0, 'per'), span(1, 'per', 0.8)]));
    const { micro, labels, unscored } = curves.curves(scorer.report().labels);
    expect(unscored).toBe(1);
    // PER: the unscored right one always counts; at 0.8 the wrong one joins. Last point: the unscored one alone.
    expect(labels.find((l) => l.id === 'per')!.curve).toEqual({ thresholds: [0.8], precision: [0.5, 1], recall: [1, 1], best: { threshold: 0.8, precision: 0.5, recall: 1, f1: 2 / 3 } });
    expect(labels.find((l) => l.id === 'loc')!.curve).toBeNull();
    expect(micro).toEqual({ thresholds: [0.8], precision: [0.5, 1], recall: [0.5, 0.5], best: { threshold: 0.8, precision: 0.5, recall: 0.5, f1: 0.5 } });
  });
});
