// The bootstrap intervals of F1 over documents: repeatable with a seed, summing the same counts
// the scorer reports, and covering the true F1 of a known model of errors in at least 90 % of 200
// simulated test sets of 200 documents.
import { describe, expect, it } from 'vitest';
import { bootstrapF1, DocumentCounts, mulberry32, Scorer } from '../../src/eval/index.js';
import type { EvalLabel, EvalSpan } from '../../src/eval/index.js';

const LABELS: EvalLabel[] = [
  { id: 'a', layer: 0, name: 'A' },
  { id: 'b', layer: 0, name: 'B' },
];

/**
 * A known model of errors, per document: label A has 3 gold spans, each found with probability
 * 0.8, and Binomial(2, 0.25) spurious spans; label B has 2 gold spans found with probability 0.5
 * and Binomial(2, 0.5) spurious ones. Over many documents F1 tends to 2·E[TP] / (E[predicted] +
 * E[gold]): A 2·2.4 / (2.9 + 3) = 4.8/5.9, B 2·1 / (2 + 2) = 0.5, micro 2·3.4 / (4.9 + 5) = 6.8/9.9.
 */
const TRUE_F1 = { A: 4.8 / 5.9, B: 0.5, micro: 6.8 / 9.9 };
function simulate(documents: number, random: () => number): DocumentCounts {
  const counts = new DocumentCounts();
  const draws = (n: number, p: number) => Array.from({ length: n }, () => (random() < p ? 1 : 0) as number).reduce((a, b) => a + b, 0);
  for (let d = 0; d < documents; d++) {
    const [tpA, spA, tpB, spB] = [draws(3, 0.8), draws(2, 0.25), draws(2, 0.5), draws(2, 0.5)];
    counts.addCounts([
      { layer: 0, id: 'a', tp: tpA, predicted: tpA + spA, gold: 3 },
      { layer: 0, id: 'b', tp: tpB, predicted: tpB + spB, gold: 2 },
    ]);
  }
  return counts;
}
const covers = ([low, high]: [number, number], value: number) => low <= value && value <= high;

describe('bootstrapF1', () => {
  it('gives the same intervals for the same seed, and others for another seed', () => {
    const counts = simulate(50, mulberry32(1));
    const once = bootstrapF1(counts, LABELS, { seed: 42 });
    expect(bootstrapF1(counts, LABELS, { seed: 42 })).toEqual(once);
    expect(bootstrapF1(counts, LABELS, { seed: 43 }).micro).not.toEqual(once.micro);
    expect(once).toMatchObject({ method: 'percentile bootstrap over documents', level: 0.95, resamples: 1000, seed: 42, documents: 50 });
    expect(once.micro[0]).toBeLessThan(once.micro[1]);
    expect(bootstrapF1(counts, LABELS, { seed: 42, resamples: 10 }).resamples).toBe(10);
  });

  it('covers the true F1 of a known model of errors in at least 90 % of 200 simulated draws of 200 documents', () => {
    const random = mulberry32(2026);
    const hits = { A: 0, B: 0, micro: 0 };
    for (let draw = 0; draw < 200; draw++) {
      const ci = bootstrapF1(simulate(200, random), LABELS, { seed: draw });
      if (covers(ci.micro, TRUE_F1.micro)) hits.micro++;
      if (covers(ci.labels[0]!.f1, TRUE_F1.A)) hits.A++;
      if (covers(ci.labels[1]!.f1, TRUE_F1.B)) hits.B++;
    }
    expect(hits.micro).toBeGreaterThanOrEqual(180);
    expect(hits.A).toBeGreaterThanOrEqual(180);
    expect(hits.B).toBeGreaterThanOrEqual(180);
    // And it is an interval, not everything: a 95 % interval misses now and then.
    expect(Math.min(hits.micro, hits.A, hits.B)).toBeLessThan(200);
  }, 60_000);

  it("reads the scorer's matches as the scorer counts them: one document repeated gives an interval of its own F1", () => {
    const span = (token: number, labelId: string): EvalSpan => ({ documentId: 'd', start: { sentenceId: 0, tokenId: token, charId: 0 }, end: { sentenceId: 0, tokenId: token, charId: 0 }, labelId, layer: 0 });
    const scorer = new Scorer();
    const counts = new DocumentCounts();
    for (let i = 0; i < 3; i++) counts.add(scorer.add([span(0, 'a'), span(1, 'a'), span(2, 'b')], [span(0, 'a'), span(2, 'a'), span(3, 'b')]));
    const report = scorer.report();
    const ci = bootstrapF1(counts, report.labels, { seed: 1, resamples: 50 });
    expect(ci.micro).toEqual([report.micro.f1, report.micro.f1]);
    expect(ci.labels.map((l) => [l.id, l.f1])).toEqual(report.labels.map((l) => [l.id, [l.f1, l.f1]]));
  });

  it('refuses a number of resamples that is not a whole number from 1', () => {
    expect(() => bootstrapF1(new DocumentCounts(), LABELS, { seed: 1, resamples: 0 })).toThrow(/resamples is 0/);
  });
});
