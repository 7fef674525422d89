// The four SemEval-2013 9.1 schemes (strict, exact, partial, ent_type) against the published cases
// of nervaluate and seqeval, and against a port of nervaluate's counting on random data without
// overlapping spans; each fixture names where it comes from.
import { describe, expect, it } from 'vitest';
import { maxMatching } from '../../src/eval/maxMatching.js';
import { scoreLabels } from '../../src/eval/scoreLabels.js';
import { SCHEMES } from '../../src/eval/types.js';
import type { EvalLabel, EvalSpan, Mistake, SchemeName, ScoreReport } from '../../src/eval/types.js';

/** nervaluate's entities are offsets `start..end` (both included): one token each here, on line `line`. */
const ent = (label: string, start: number, end: number, documentId = 'd1', line = 0): EvalSpan => ({
  documentId,
  start: { sentenceId: line, tokenId: start, charId: 0 },
  end: { sentenceId: line, tokenId: end, charId: 0 },
  labelId: label,
  layer: 0,
});
const names = (...ids: string[]): EvalLabel[] => ids.map((id) => ({ id, layer: 0, name: id }));
type Counts = [correct: number, incorrect: number, partial: number, missed: number, spurious: number, possible: number, actual: number];
const counts = (r: ScoreReport, scheme: SchemeName, label?: string): Counts => {
  const s = label === undefined ? r.schemes[scheme].overall : r.schemes[scheme].labels.find((l) => l.id === label)!;
  return [s.correct, s.incorrect, s.partial, s.missed, s.spurious, s.possible, s.actual];
};
const figures = (r: ScoreReport, scheme: SchemeName, label?: string) => {
  const s = label === undefined ? r.schemes[scheme].overall : r.schemes[scheme].labels.find((l) => l.id === label)!;
  return [s.precision, s.recall, s.f1];
};

describe('the SemEval-2013 9.1 schemes: published cases', () => {
  it("equals nervaluate's test_compute_metrics_case_1, every scheme overall", () => {
    // From MantisAI/nervaluate, tests/test_nervaluate.py, test_compute_metrics_case_1 (commit 2c75277b059eda6641e00b07eb419abb722565b7).
    const gold = [ent('PER', 59, 69), ent('LOC', 127, 134), ent('LOC', 164, 174), ent('LOC', 197, 205), ent('LOC', 208, 219), ent('MISC', 230, 240)];
    const predicted = [ent('PER', 24, 30), ent('LOC', 124, 134), ent('PER', 164, 174), ent('LOC', 197, 205), ent('LOC', 208, 219), ent('LOC', 225, 243)];
    const r = scoreLabels(gold, predicted, { labels: names('PER', 'LOC', 'MISC') });
    expect(counts(r, 'strict')).toEqual([2, 3, 0, 1, 1, 6, 6]);
    expect(figures(r, 'strict')).toEqual([0.3333333333333333, 0.3333333333333333, 0.3333333333333333]);
    expect(counts(r, 'ent_type')).toEqual([3, 2, 0, 1, 1, 6, 6]);
    expect(figures(r, 'ent_type')).toEqual([0.5, 0.5, 0.5]);
    expect(counts(r, 'partial')).toEqual([3, 0, 2, 1, 1, 6, 6]);
    expect(figures(r, 'partial')).toEqual([0.6666666666666666, 0.6666666666666666, 0.6666666666666666]);
    expect(counts(r, 'exact')).toEqual([3, 2, 0, 1, 1, 6, 6]);
    expect(figures(r, 'exact')).toEqual([0.5, 0.5, 0.5]);
  });

  // From MantisAI/nervaluate, tests/test_nervaluate.py, test_compute_metrics_agg_scenario_1 … _6
  // (commit 2c75277b059eda6641e00b07eb419abb722565b7): one gold PER[59,69] (or none) and one prediction, per label.
  // Rows: [strict, ent_type, partial, exact] counts of PER, then of LOC where the test has it.
  // Scenarios 4 and 6 (a wrong label) are nervaluate 1.1.0's per-entity results, which score each
  // label on its own (that older test counted the pair under the gold label): a miss of PER and a
  // spurious LOC in every scheme (run with nervaluate 1.1.0's Evaluator; the overall counts of such
  // pairs are test_compute_metrics_case_1's above, and test/eval/nervaluateReference.test.ts has more).
  const scenarios: [name: string, gold: EvalSpan[], predicted: EvalSpan[], per: Counts[], loc?: Counts[]][] = [
    ['1: exact match', [ent('PER', 59, 69)], [ent('PER', 59, 69)], [[1, 0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 1, 1]]],
    ['2: spurious', [], [ent('PER', 59, 69)], [[0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1]]],
    ['3: missed', [ent('PER', 59, 69)], [], [[0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0]]],
    [
      '4: same boundaries, wrong label',
      [ent('PER', 59, 69)],
      [ent('LOC', 59, 69)],
      [[0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0]],
      [[0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1]],
    ],
    ['5: overlap, same label', [ent('PER', 59, 69)], [ent('PER', 57, 69)], [[0, 1, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 1, 1], [0, 0, 1, 0, 0, 1, 1], [0, 1, 0, 0, 0, 1, 1]]],
    [
      '6: overlap, wrong label',
      [ent('PER', 59, 69)],
      [ent('LOC', 54, 69)],
      [[0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0], [0, 0, 0, 1, 0, 1, 0]],
      [[0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 1, 0, 1]],
    ],
  ];
  for (const [name, gold, predicted, per, loc] of scenarios) {
    it(`equals nervaluate's scenario ${name}, per label`, () => {
      const r = scoreLabels(gold, predicted, { labels: names('PER', 'LOC') });
      const order: SchemeName[] = ['strict', 'ent_type', 'partial', 'exact'];
      expect(order.map((s) => counts(r, s, 'PER'))).toEqual(per);
      if (loc) expect(order.map((s) => counts(r, s, 'LOC'))).toEqual(loc);
    });
  }

  it("equals seqeval's published example in the strict scheme, and strict mode equals it per label and averaged", () => {
    // From chakki-works/seqeval, README.md and the docstring of precision_recall_fscore_support in
    // seqeval/metrics/sequence_labeling.py: y_true [O O O B-MISC I-MISC I-MISC O] [B-PER I-PER O],
    // y_pred [O O B-MISC I-MISC I-MISC I-MISC O] [B-PER I-PER O]: MISC 0/0/0, PER 1/1/1, micro, macro and weighted 0.5.
    const gold = [ent('MISC', 3, 5, 'd1'), ent('PER', 0, 1, 'd2')];
    const predicted = [ent('MISC', 2, 5, 'd1'), ent('PER', 0, 1, 'd2')];
    const r = scoreLabels(gold, predicted, { labels: names('MISC', 'PER') });
    expect(r.labels.map((l) => [l.name, l.precision, l.recall, l.f1, l.gold])).toEqual([
      ['MISC', 0, 0, 0, 1],
      ['PER', 1, 1, 1, 1],
    ]);
    for (const avg of [r.micro, r.macro, r.weighted]) expect([avg.precision, avg.recall, avg.f1]).toEqual([0.5, 0.5, 0.5]);
    expect(figures(r, 'strict')).toEqual([0.5, 0.5, 0.5]);
    expect(r.schemes.strict.labels.map((l) => [l.name, l.precision, l.recall, l.f1])).toEqual([
      ['MISC', 0, 0, 0],
      ['PER', 1, 1, 1],
    ]);
    // The boundary error counts half in partial: (1 + 0.5) / 2.
    expect(figures(r, 'partial')).toEqual([0.75, 0.75, 0.75]);
    expect(counts(r, 'ent_type')).toEqual([2, 0, 0, 0, 0, 2, 2]);
  });

  it('lists each mistake once, by kind, through onMistake', () => {
    const seen: Mistake[] = [];
    const gold = [ent('PER', 0, 1), ent('LOC', 4, 4), ent('ORG', 6, 8), ent('PER', 10, 10)];
    const predicted = [ent('PER', 0, 1), ent('PER', 4, 4), ent('ORG', 7, 8), ent('LOC', 12, 12)];
    scoreLabels(gold, predicted, { onMistake: (m) => seen.push(m) });
    expect(seen.map((m) => [m.kind, m.gold?.start.tokenId ?? null, m.predicted?.start.tokenId ?? null])).toEqual([
      ['wrong-label', 4, 4],
      ['boundary', 6, 7],
      ['missed', 10, null],
      ['spurious', null, 12],
    ]);
  });

  it('gives each document its counts', () => {
    const r = scoreLabels([ent('PER', 0, 1, 'a'), ent('PER', 3, 3, 'b')], [ent('PER', 0, 1, 'a'), ent('PER', 5, 5, 'b')]);
    expect(r.perDocument.map((d) => [d.documentId, d.gold, d.predicted, d.tp, d.fp, d.fn, d.f1])).toEqual([
      ['a', 1, 1, 1, 0, 0, 1],
      ['b', 1, 1, 0, 1, 1, 0],
    ]);
  });
});

// A port of nervaluate's counting, for the randomized check: compute_metrics and
// compute_actual_possible / compute_precision_recall(_wrapper) from MantisAI/nervaluate,
// src/nervaluate/nervaluate.py (commit 402e3614a88972e710d6f624138bffa180bca07e), and the
// per-document sums of its Evaluator. Entities are offsets on one axis, both ends included. Per
// label it is run as nervaluate 1.1.0's Evaluator runs it: on the gold and predicted entities of that
// label alone (a port of the older per-type tally would count a confused pair under the gold label).
type Ent = { label: string; start: number; end: number };
type Tally = { correct: number; incorrect: number; partial: number; missed: number; spurious: number };
const blank = (): Tally => ({ correct: 0, incorrect: 0, partial: 0, missed: 0, spurious: 0 });
const blankEval = (): Record<SchemeName, Tally> => ({ strict: blank(), ent_type: blank(), partial: blank(), exact: blank() });
function nervaluateCompute(trueEnts: Ent[], predEnts: Ent[], tags: string[], total: Record<SchemeName, Tally>, byTag: Record<string, Record<SchemeName, Tally>>) {
  const same = (a: Ent, b: Ent) => a.label === b.label && a.start === b.start && a.end === b.end;
  const overlapped: Ent[] = [];
  const add = (label: string, scheme: SchemeName, field: keyof Tally, overall = true) => {
    if (overall) total[scheme][field]++;
    byTag[label]![scheme][field]++;
  };
  for (const pred of predEnts) {
    let found = false;
    if (trueEnts.some((t) => same(t, pred))) {
      overlapped.push(pred);
      for (const s of SCHEMES) add(pred.label, s, 'correct');
      continue;
    }
    for (const t of trueEnts) {
      if (t.start === pred.start && t.end === pred.end && t.label !== pred.label) {
        add(t.label, 'strict', 'incorrect');
        add(t.label, 'ent_type', 'incorrect');
        add(t.label, 'partial', 'correct');
        add(t.label, 'exact', 'correct');
        overlapped.push(t);
        found = true;
        break;
      }
      const overlap = Math.max(t.start, pred.start) <= Math.min(t.end, pred.end);
      if (overlap && !overlapped.some((o) => same(o, t))) {
        overlapped.push(t);
        add(t.label, 'strict', 'incorrect');
        add(t.label, 'ent_type', pred.label === t.label ? 'correct' : 'incorrect');
        add(t.label, 'partial', 'partial');
        add(t.label, 'exact', 'incorrect');
        found = true;
        break;
      }
    }
    if (!found) {
      for (const s of SCHEMES) total[s].spurious++;
      for (const tag of tags.includes(pred.label) ? [pred.label] : tags) for (const s of SCHEMES) add(tag, s, 'spurious', false);
    }
  }
  for (const t of trueEnts) if (!overlapped.some((o) => same(o, t))) for (const s of SCHEMES) add(t.label, s, 'missed');
}
function nervaluateFigures(t: Tally, scheme: SchemeName) {
  const possible = t.correct + t.incorrect + t.partial + t.missed;
  const actual = t.correct + t.incorrect + t.partial + t.spurious;
  const credit = scheme === 'partial' || scheme === 'ent_type' ? t.correct + 0.5 * t.partial : t.correct;
  const precision = actual > 0 ? credit / actual : 0;
  const recall = possible > 0 ? credit / possible : 0;
  const f1 = precision + recall > 0 ? (2 * (precision * recall)) / (precision + recall) : 0;
  return { ...t, possible, actual, precision, recall, f1 };
}

describe('the SemEval-2013 9.1 schemes: random data without overlapping spans', () => {
  it("equals nervaluate's counts and figures, per label and overall, in every scheme", () => {
    let seed = 5;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const tags = ['PER', 'LOC', 'ORG'];
    /** Spans on one line that never overlap one another (nervaluate's input: a flat sequence). */
    const flat = (documentId: string): EvalSpan[] => {
      const out: EvalSpan[] = [];
      for (let i = 0; i < 8; i++) {
        const start = random(40);
        const end = start + (random(3) === 0 ? 0 : random(5));
        const e = ent(tags[random(3)]!, start, end, documentId);
        if (!out.some((o) => o.start.tokenId <= end && start <= o.end.tokenId)) out.push(e);
      }
      return out.sort((a, b) => a.start.tokenId - b.start.tokenId);
    };
    let partials = 0;
    for (let round = 0; round < 40; round++) {
      const docs = Array.from({ length: 5 }, (_, d) => ({ gold: flat(`d${d}`), predicted: flat(`d${d}`) }));
      const total = blankEval();
      const byTag = Object.fromEntries(tags.map((t) => [t, blankEval()]));
      const toEnt = (s: EvalSpan): Ent => ({ label: s.labelId, start: s.start.tokenId, end: s.end.tokenId });
      for (const d of docs) {
        nervaluateCompute(d.gold.map(toEnt), d.predicted.map(toEnt), tags, total, Object.fromEntries(tags.map((t) => [t, blankEval()])));
        for (const tag of tags) {
          const only = (spans: EvalSpan[]) => spans.filter((e) => e.labelId === tag).map(toEnt);
          nervaluateCompute(only(d.gold), only(d.predicted), tags, blankEval(), byTag);
        }
      }
      const r = scoreLabels(
        docs.flatMap((d) => d.gold),
        docs.flatMap((d) => d.predicted),
        { labels: names(...tags) },
      );
      for (const scheme of SCHEMES) {
        const { zeroDivision: _z, ...overall } = r.schemes[scheme].overall;
        expect(overall).toEqual(nervaluateFigures(total[scheme], scheme));
        for (const tag of tags) {
          const row = r.schemes[scheme].labels.find((l) => l.id === tag);
          const { zeroDivision: _zl, id: _i, layer: _l, name: _n, ...mine } = row ?? { ...nervaluateFigures(blank(), scheme), zeroDivision: [], id: tag, layer: 0, name: tag };
          expect(mine).toEqual(nervaluateFigures(byTag[tag]![scheme], scheme));
        }
      }
      partials += total.partial.partial;
    }
    // The draws hold boundary errors (the check is not vacuous).
    expect(partials).toBeGreaterThan(20);
  });
});

describe('maxMatching', () => {
  it('finds the largest matching, and the cheapest among the largest', () => {
    // Left 0 meets right 0 (cost 0) and 1 (cost 5); left 1 meets right 0 only: both must be matched.
    expect(maxMatching([{ left: 0, right: 0, cost: [0] }, { left: 0, right: 1, cost: [5] }, { left: 1, right: 0, cost: [1] }]).map((e) => [e.left, e.right])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    // Two perfect matchings: costs [0,9]+[0,9] and [1,0]+[0,0]: the first part decides.
    const square = [
      { left: 0, right: 0, cost: [0, 9] },
      { left: 1, right: 1, cost: [0, 9] },
      { left: 0, right: 1, cost: [1, 0] },
      { left: 1, right: 0, cost: [0, 0] },
    ];
    expect(maxMatching(square).map((e) => [e.left, e.right])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(maxMatching([])).toEqual([]);
  });
});
