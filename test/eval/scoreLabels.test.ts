import { describe, expect, it } from 'vitest';
import { compareCursors, matchSpans, sortSpans, spansOverlap } from '../../src/eval/matchSpans.js';
import { figuresOf, scoreLabels, Scorer } from '../../src/eval/scoreLabels.js';
import type { EvalLabel, EvalSpan, ScoreReport } from '../../src/eval/types.js';

// One document, layer 0, labels PER (p), ORG (o), LOC (l). Spans from token to token; the end's
// charId is the last character of the token (inclusive), as the service counts.
const labels: EvalLabel[] = [
  { id: 'p', layer: 0, name: 'PER' },
  { id: 'o', layer: 0, name: 'ORG' },
  { id: 'l', layer: 0, name: 'LOC' },
];
const span = (labelId: string, s: number, t0: number, t1: number, extra: Partial<EvalSpan> = {}): EvalSpan => ({
  documentId: 'd1',
  start: { sentenceId: s, tokenId: t0, charId: 0 },
  end: { sentenceId: s, tokenId: t1, charId: 3 },
  labelId,
  layer: 0,
  ...extra,
});
const gold = [
  span('p', 0, 0, 1, { labeledBy: 'REVIEWER' }), // G1 PER "John Smith"
  span('o', 0, 4, 5, { labeledBy: 'AUTO' }), // G2 ORG
  span('l', 1, 2, 2, { labeledBy: 'REVIEWER' }), // G3 LOC
  span('p', 1, 5, 6, { labeledBy: 'REVIEWER' }), // G4 PER: the model misses it
];
const predicted = [
  span('p', 0, 0, 1), // P1 exactly G1
  span('o', 0, 4, 4), // P2 a wrong boundary: G2 is tokens 4-5
  span('p', 1, 2, 2), // P3 a wrong label: G3 is LOC
  span('o', 2, 0, 1), // P4 spurious: no gold there
];

/** The report's per-label rows as [name, gold, predicted, tp, fp, fn, P, R, F1, zeroDivision]. */
const rows = (r: ScoreReport) => r.labels.map((l) => [l.name, l.gold, l.predicted, l.tp, l.fp, l.fn, l.precision, l.recall, l.f1, l.zeroDivision]);
const cells = (r: ScoreReport) => r.confusion.map((c) => [c.gold?.name ?? '(none)', c.predicted?.name ?? '(none)', c.count]);

describe('scoreLabels', () => {
  it('scores strict matches (same span, same label) per label, with micro, macro and weighted averages', () => {
    const r = scoreLabels(gold, predicted, { labels });
    expect(r.match).toBe('strict');
    // PER: G1 found by P1, G4 missed, P3 is PER where gold says LOC: tp 1, fp 1, fn 1.
    // ORG: P2's boundary is wrong and P4 is spurious: tp 0 of 2 predicted, 1 gold.
    // LOC: G3 only, no LOC predicted: precision has nothing to divide by.
    expect(rows(r)).toEqual([
      ['PER', 2, 2, 1, 1, 1, 1 / 2, 1 / 2, 1 / 2, []],
      ['ORG', 1, 2, 0, 2, 1, 0, 0, 0, []],
      ['LOC', 1, 0, 0, 0, 1, 0, 0, 0, ['precision']],
    ]);
    expect(r.micro).toEqual({ gold: 4, predicted: 4, tp: 1, fp: 3, fn: 3, precision: 1 / 4, recall: 1 / 4, f1: 1 / 4, zeroDivision: [] });
    // macro: (1/2 + 0 + 0) / 3 for each; weighted by gold 2, 1, 1: (1/2·2) / 4.
    expect(r.macro).toEqual({ precision: 1 / 6, recall: 1 / 6, f1: 1 / 6, zeroDivision: [] });
    expect(r.weighted).toEqual({ precision: 1 / 4, recall: 1 / 4, f1: 1 / 4, zeroDivision: [] });
    // G3 (LOC) and P3 (PER) share a span: a confusion; G2 and P2 do not share one in strict mode.
    expect(cells(r)).toEqual([
      ['PER', 'PER', 1],
      ['PER', '(none)', 1],
      ['ORG', '(none)', 1],
      ['LOC', 'PER', 1],
      ['(none)', 'ORG', 2],
    ]);
    expect(r.goldLabeledBy).toEqual({ AUTO: 1, REVIEWER: 3 });
  });

  it('scores overlap matches: the wrong boundary counts, the wrong label and the spurious span do not', () => {
    const r = scoreLabels(gold, predicted, { labels, match: 'overlap' });
    // ORG: P2 overlaps G2 with the same label now: tp 1 of 2 predicted, 1 gold; F1 = 2·1/(2+1).
    expect(rows(r)).toEqual([
      ['PER', 2, 2, 1, 1, 1, 1 / 2, 1 / 2, 1 / 2, []],
      ['ORG', 1, 2, 1, 1, 0, 1 / 2, 1, 2 / 3, []],
      ['LOC', 1, 0, 0, 0, 1, 0, 0, 0, ['precision']],
    ]);
    expect(r.micro).toMatchObject({ gold: 4, predicted: 4, tp: 2, fp: 2, fn: 2, precision: 1 / 2, recall: 1 / 2, f1: 1 / 2 });
    // macro P (1/2 + 1/2 + 0)/3, R (1/2 + 1 + 0)/3, F1 (1/2 + 2/3 + 0)/3 = 7/18;
    // weighted P (1/2·2 + 1/2·1)/4, R (1/2·2 + 1·1)/4, F1 (1/2·2 + 2/3·1)/4 = 5/12.
    expect(r.macro.precision).toBeCloseTo(1 / 3, 12);
    expect(r.macro.recall).toBeCloseTo(1 / 2, 12);
    expect(r.macro.f1).toBeCloseTo(7 / 18, 12);
    expect(r.weighted.precision).toBeCloseTo(3 / 8, 12);
    expect(r.weighted.recall).toBeCloseTo(1 / 2, 12);
    expect(r.weighted.f1).toBeCloseTo(5 / 12, 12);
    expect(cells(r)).toEqual([
      ['PER', 'PER', 1],
      ['PER', '(none)', 1],
      ['ORG', 'ORG', 1],
      ['LOC', 'PER', 1],
      ['(none)', 'ORG', 1],
    ]);
  });

  it('scores per token: each token of a span is one unit', () => {
    const r = scoreLabels(gold, predicted, { labels, match: 'token' });
    // Gold tokens: PER s0t0 s0t1 s1t5 s1t6, ORG s0t4 s0t5, LOC s1t2.
    // Predicted:   PER s0t0 s0t1 s1t2,      ORG s0t4 s2t0 s2t1.
    expect(rows(r)).toEqual([
      ['PER', 4, 3, 2, 1, 2, 2 / 3, 2 / 4, (2 * 2) / (3 + 4), []],
      ['ORG', 2, 3, 1, 2, 1, 1 / 3, 1 / 2, (2 * 1) / (3 + 2), []],
      ['LOC', 1, 0, 0, 0, 1, 0, 0, 0, ['precision']],
    ]);
    expect(r.micro).toMatchObject({ gold: 7, predicted: 6, tp: 3, fp: 3, fn: 4, precision: 1 / 2, recall: 3 / 7, f1: 6 / 13 });
    expect(cells(r)).toEqual([
      ['PER', 'PER', 2],
      ['PER', '(none)', 2],
      ['ORG', 'ORG', 1],
      ['ORG', '(none)', 1],
      ['LOC', 'PER', 1],
      ['(none)', 'ORG', 2],
    ]);
    // Gold used is counted in labels, not tokens.
    expect(r.goldLabeledBy).toEqual({ AUTO: 1, REVIEWER: 3 });
  });

  it('lets a span over a whole sentence find one gold span only, the one with the closest boundaries', () => {
    const g = [span('p', 0, 0, 0), span('p', 0, 3, 4), span('p', 0, 7, 7)];
    // Boundary distances in tokens: |0-0|+|7-0| = 7, |0-3|+|7-4| = 6, |0-7|+|7-7| = 7.
    const r = scoreLabels(g, [span('p', 0, 0, 7)], { labels, match: 'overlap' });
    expect(rows(r)).toEqual([['PER', 3, 1, 1, 0, 2, 1, 1 / 3, (2 * 1) / (1 + 3), []]]);
    const found = new Scorer({ match: 'overlap' });
    found.add(g, [span('p', 0, 0, 7)]);
    expect(found.report().micro.tp).toBe(1);
  });

  it('pairs the closest boundaries first, so that two predictions find two gold spans', () => {
    // P1 (tokens 2-5) overlaps G1 (0-2) at distance 2+3 and G2 (3-5) at 1+0; P2 (0-1) only G1 at 0+1.
    // Taking P1–G1 first would leave P2 and G2 unpaired; closest first pairs both.
    const r = scoreLabels([span('p', 0, 0, 2), span('p', 0, 3, 5)], [span('p', 0, 2, 5), span('p', 0, 0, 1)], { match: 'overlap' });
    expect(r.micro).toMatchObject({ tp: 2, fp: 0, fn: 0 });
  });

  it('pairs each prediction with one gold span at most: a duplicate prediction is a false positive', () => {
    const r = scoreLabels([span('p', 0, 0, 1)], [span('p', 0, 0, 1), span('p', 0, 0, 1)], { labels });
    expect(rows(r)).toEqual([['PER', 1, 2, 1, 1, 0, 1 / 2, 1, 2 / 3, []]]);
  });

  it('leaves out predictions under --min-confidence and keeps those without a score', () => {
    const preds = [span('p', 0, 0, 1, { confidenceScore: 0.4 }), span('o', 0, 4, 5, { confidenceScore: 0.9 }), span('l', 1, 2, 2)];
    const r = scoreLabels(gold, preds, { labels, minConfidence: 0.5 });
    expect(r.predictedBelowConfidence).toBe(1);
    expect(r.minConfidence).toBe(0.5);
    // PER: nothing predicted any more; ORG and LOC: found.
    expect(rows(r)).toEqual([
      ['PER', 2, 0, 0, 0, 2, 0, 0, 0, ['precision']],
      ['ORG', 1, 1, 1, 0, 0, 1, 1, 1, []],
      ['LOC', 1, 1, 1, 0, 0, 1, 1, 1, []],
    ]);
  });

  it('scores one layer with --layer, and keeps layers apart otherwise (a label is its id and layer)', () => {
    const twoLayers = [...labels, { id: 'p', layer: 1, name: 'POS' }];
    const g = [span('p', 0, 0, 1), span('p', 0, 0, 1, { layer: 1 })];
    const p = [span('p', 0, 0, 1, { layer: 1 })];
    const all = scoreLabels(g, p, { labels: twoLayers });
    expect(all.labels.map((l) => [l.layer, l.name, l.tp, l.fn])).toEqual([
      [0, 'PER', 0, 1],
      [1, 'POS', 1, 0],
    ]);
    const one = scoreLabels(g, p, { labels: twoLayers, layer: 0 });
    expect(one.layer).toBe(0);
    expect(one.labels.map((l) => [l.layer, l.name, l.tp, l.fn])).toEqual([[0, 'PER', 0, 1]]);
  });

  it('pairs spans only within one document', () => {
    const r = scoreLabels([span('p', 0, 0, 1)], [span('p', 0, 0, 1, { documentId: 'd2' })]);
    expect(r.micro).toMatchObject({ tp: 0, fp: 1, fn: 1 });
  });

  it('names a label it does not know null and lists it after the known ones', () => {
    const r = scoreLabels([span('zz', 0, 0, 1), span('p', 0, 2, 2)], [], { labels });
    expect(r.labels.map((l) => [l.id, l.name])).toEqual([
      ['p', 'PER'],
      ['zz', null],
    ]);
  });

  it('marks every figure with nothing to divide by, and reports 0 for it', () => {
    expect(figuresOf(0, 0, 0)).toEqual({ precision: 0, recall: 0, f1: 0, zeroDivision: ['precision', 'recall', 'f1'] });
    expect(figuresOf(0, 3, 0)).toEqual({ precision: 0, recall: 0, f1: 0, zeroDivision: ['recall'] });
    const empty = scoreLabels([], []);
    expect(empty.labels).toEqual([]);
    expect(empty.micro.zeroDivision).toEqual(['precision', 'recall', 'f1']);
    expect(empty.macro.zeroDivision).toEqual(['precision', 'recall', 'f1']);
  });

  it('refuses a span over two sentences in token mode, naming the other modes', () => {
    const cross: EvalSpan = { ...span('p', 0, 0, 1), end: { sentenceId: 1, tokenId: 0, charId: 2 } };
    expect(() => scoreLabels([cross], [], { match: 'token' })).toThrow(/spans sentences 0 to 1: token mode scores labels within one sentence only \(use strict or overlap\)/);
    expect(scoreLabels([cross], [cross]).micro.tp).toBe(1);
  });

  it('gives the same report whatever the order of the spans', () => {
    const a = scoreLabels(gold, predicted, { labels, match: 'overlap' });
    const b = scoreLabels([...gold].reverse(), [...predicted].reverse(), { labels, match: 'overlap' });
    expect(b).toEqual(a);
  });
});

describe('matchSpans', () => {
  /** The pairing done the slow way: every gold against every prediction, closest first. */
  function naive(gold: EvalSpan[], predicted: EvalSpan[], overlap: boolean) {
    const meets = (g: EvalSpan, p: EvalSpan) => (overlap ? spansOverlap(g, p) : compareCursors(g.start, p.start) === 0 && compareCursors(g.end, p.end) === 0);
    const dist = (g: EvalSpan, p: EvalSpan) => (['sentenceId', 'tokenId', 'charId'] as const).map((k) => Math.abs(g.start[k] - p.start[k]) + Math.abs(g.end[k] - p.end[k]));
    const taken = { g: new Set<number>(), p: new Set<number>() };
    const pass = (same: boolean) => {
      const c: [number, number, number[]][] = [];
      gold.forEach((g, gi) => predicted.forEach((p, pi) => !taken.g.has(gi) && !taken.p.has(pi) && meets(g, p) && (!same || g.labelId === p.labelId) && c.push([gi, pi, dist(g, p)])));
      c.sort((x, y) => x[2][0]! - y[2][0]! || x[2][1]! - y[2][1]! || x[2][2]! - y[2][2]! || x[0] - y[0] || x[1] - y[1]);
      const out: [number, number][] = [];
      for (const [gi, pi] of c) {
        if (taken.g.has(gi) || taken.p.has(pi)) continue;
        taken.g.add(gi);
        taken.p.add(pi);
        out.push([gi, pi]);
      }
      return out;
    };
    return [pass(true), pass(false)];
  }

  it('pairs exactly as every-gold-against-every-prediction does, with long, nested and repeated spans', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const spans = (count: number) =>
      sortSpans(
        Array.from({ length: count }, () => {
          const s = random(4);
          const t = random(30);
          const long = random(10) === 0 ? 25 : random(4);
          return span(['p', 'o', 'l'][random(3)]!, s, t, t + long);
        }),
      );
    for (let round = 0; round < 20; round++) {
      const gold = spans(60);
      const predicted = spans(60);
      for (const mode of ['strict', 'overlap'] as const) {
        const m = matchSpans(gold, predicted, mode);
        const [found, confused] = naive(gold, predicted, mode === 'overlap');
        expect(m.found.map(([g, p]) => [gold.indexOf(g), predicted.indexOf(p)])).toEqual(found);
        expect(m.confused.map(([g, p]) => [gold.indexOf(g), predicted.indexOf(p)])).toEqual(confused);
      }
    }
  });
});
