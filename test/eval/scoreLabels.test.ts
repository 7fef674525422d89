import { describe, expect, it } from 'vitest';
import { matchSpans, sortSpans } from '../../src/eval/matchSpans.js';
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

// The reference below is written from the documented definitions only, not with the code under
// test: a cursor is (sentence, token, character), ordered in that order; a span includes both of
// its ends; two spans overlap when each starts at or before the other's end; the distance of a
// pair is, per part (sentence, token, character), the sum of how far the starts and the ends are
// apart, and distances are summed over the pairs and compared part by part in that order.
const cursorParts = (c: EvalSpan['start']) => [c.sentenceId, c.tokenId, c.charId];
function atOrBefore(a: EvalSpan['start'], b: EvalSpan['start']): boolean {
  const [x, y] = [cursorParts(a), cursorParts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return true;
}
const refOverlap = (a: EvalSpan, b: EvalSpan) => atOrBefore(a.start, b.end) && atOrBefore(b.start, a.end);
const refSame = (a: EvalSpan, b: EvalSpan) => cursorParts(a.start).join() === cursorParts(b.start).join() && cursorParts(a.end).join() === cursorParts(b.end).join();
const refDistance = (g: EvalSpan, p: EvalSpan) => [0, 1, 2].map((i) => Math.abs(cursorParts(g.start)[i]! - cursorParts(p.start)[i]!) + Math.abs(cursorParts(g.end)[i]! - cursorParts(p.end)[i]!));
const lessCost = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

/** Every one-to-one pairing of `gold` with `predicted` among the pairs `meets` allows, tried: the most pairs, then the least summed distance. */
function bestPairing(gold: EvalSpan[], predicted: EvalSpan[], meets: (g: EvalSpan, p: EvalSpan) => boolean): { pairs: number; cost: number[] } {
  let best = { pairs: 0, cost: [0, 0, 0] };
  const used = new Set<number>();
  const walk = (g: number, pairs: number, cost: number[]) => {
    if (g === gold.length) {
      if (pairs > best.pairs || (pairs === best.pairs && lessCost(cost, best.cost))) best = { pairs, cost };
      return;
    }
    walk(g + 1, pairs, cost);
    for (let p = 0; p < predicted.length; p++) {
      if (used.has(p) || !meets(gold[g]!, predicted[p]!)) continue;
      used.add(p);
      const d = refDistance(gold[g]!, predicted[p]!);
      walk(g + 1, pairs + 1, cost.map((c, i) => c + d[i]!));
      used.delete(p);
    }
  };
  walk(0, 0, [0, 0, 0]);
  return best;
}

/** Random spans on a small grid (2 lines × 5 tokens × 3 characters), so that many touch at one character, cover one token or cross a line. */
function randomSpans(random: (n: number) => number, count: number, documentId = 'd1'): EvalSpan[] {
  const cursor = () => ({ sentenceId: random(2), tokenId: random(5), charId: random(3) });
  return Array.from({ length: count }, () => {
    const a = cursor();
    const shape = random(4);
    // One character, one whole token, or up to a later cursor (maybe on the next line).
    const b = shape === 0 ? a : shape === 1 ? { ...a, charId: 2 } : cursor();
    const [start, end] = atOrBefore(a, b) ? [shape === 1 ? { ...a, charId: 0 } : a, b] : [b, a];
    return { documentId, start, end, labelId: ['p', 'o'][random(2)]!, layer: 0 };
  });
}

describe('matchSpans', () => {
  it('finds 2 pairs where closest-first finds 1: gold LOC[0,3] and LOC[4,20], predictions LOC[0,0] and LOC[1,4]', () => {
    const g = [span('l', 0, 0, 3), span('l', 0, 4, 20)];
    const p = [span('l', 0, 0, 0), span('l', 0, 1, 4)];
    const m = matchSpans(sortSpans(g), sortSpans(p), 'overlap');
    expect(m.found.map(([a, b]) => [a.start.tokenId, a.end.tokenId, b.start.tokenId, b.end.tokenId])).toEqual([
      [0, 3, 0, 0],
      [4, 20, 1, 4],
    ]);
    expect(scoreLabels(g, p, { labels, match: 'overlap' }).micro).toMatchObject({ tp: 2, fp: 0, fn: 0, f1: 1 });
  });

  it('meets at one character: identical one-character spans, spans that touch, and spans across a line', () => {
    const one = (s: number, t: number, c: number) => ({ sentenceId: s, tokenId: t, charId: c });
    const s = (start: EvalSpan['start'], end: EvalSpan['end'], labelId = 'p'): EvalSpan => ({ documentId: 'd1', start, end, labelId, layer: 0 });
    // Two identical one-character spans: F1 1 in both modes.
    for (const match of ['strict', 'overlap'] as const) expect(scoreLabels([s(one(0, 2, 1), one(0, 2, 1))], [s(one(0, 2, 1), one(0, 2, 1))], { match }).micro.f1).toBe(1);
    // A gold span across lines 0 and 1, and predictions that touch its last or first character, or miss it by one.
    const across = s(one(0, 4, 2), one(1, 0, 0));
    const touch = scoreLabels([across, across], [s(one(1, 0, 0), one(1, 0, 2)), s(one(0, 3, 0), one(0, 4, 2))], { match: 'overlap' });
    expect(touch.micro).toMatchObject({ tp: 2, fp: 0, fn: 0 });
    const apart = scoreLabels([across], [s(one(1, 0, 1), one(1, 1, 0)), s(one(0, 3, 0), one(0, 4, 1))], { match: 'overlap' });
    expect(apart.micro).toMatchObject({ tp: 0, fp: 2, fn: 1 });
    expect(scoreLabels([across], [across]).micro.tp).toBe(1);
  });

  it('pairs as many spans, as close, as trying every pairing does (a reference written apart from the code)', () => {
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let checked = 0;
    for (let round = 0; round < 400; round++) {
      const gold = sortSpans(randomSpans(random, random(7)));
      const predicted = sortSpans(randomSpans(random, random(7)));
      for (const mode of ['strict', 'overlap'] as const) {
        const meets = mode === 'overlap' ? refOverlap : refSame;
        const m = matchSpans(gold, predicted, mode);
        // Every pair meets, one to one; the same-label pass is a largest, closest pairing.
        for (const [g, p] of m.found) expect([g.labelId === p.labelId, meets(g, p)]).toEqual([true, true]);
        for (const [g, p] of m.confused) expect([g.labelId !== p.labelId, meets(g, p)]).toEqual([true, true]);
        const pairedGold = [...m.found, ...m.confused].map(([g]) => g);
        const pairedPred = [...m.found, ...m.confused].map(([, p]) => p);
        expect(new Set(pairedGold).size).toBe(pairedGold.length);
        expect(new Set(pairedPred).size).toBe(pairedPred.length);
        expect([...pairedGold, ...m.missed].length).toBe(gold.length);
        expect([...pairedPred, ...m.spurious].length).toBe(predicted.length);
        const best = bestPairing(gold, predicted, (g, p) => g.labelId === p.labelId && meets(g, p));
        const cost = m.found.reduce((c, [g, p]) => c.map((x, i) => x + refDistance(g, p)[i]!), [0, 0, 0]);
        expect({ pairs: m.found.length, cost: mode === 'overlap' ? cost : best.cost }).toEqual(best);
        // The second pass: the most pairs of different labels among the spans left.
        const leftGold = gold.filter((g) => !m.found.some(([x]) => x === g));
        const leftPred = predicted.filter((p) => !m.found.some(([, x]) => x === p));
        expect(m.confused.length).toBe(bestPairing(leftGold, leftPred, meets).pairs);
        checked += best.pairs;
      }
    }
    // The draws did pair spans (the check is not vacuous).
    expect(checked).toBeGreaterThan(300);
  });
});
