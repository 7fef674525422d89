// The four SemEval-2013 9.1 schemes, overall and per label, against nervaluate's own results:
// test/fixtures/nervaluate-reference.json, written by test/fixtures/nervaluateReference.py (nervaluate
// 1.1.0's Evaluator run on 60 documents whose predictions confuse look-alike labels; the fixture
// names the version). nervaluate scores each label on its own (gold and predictions filtered to
// that label), so a prediction of DATE over gold TIME is missed for TIME and spurious for DATE;
// counting a pair under the gold span's label instead gives other figures in most labels.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreLabels } from '../../src/eval/index.js';
import { SCHEMES } from '../../src/eval/types.js';
import type { EvalSpan, SchemeName, SchemeScore } from '../../src/eval/types.js';

interface Entity {
  label: string;
  start: number;
  end: number;
}
type Scores = Pick<SchemeScore, 'correct' | 'incorrect' | 'partial' | 'missed' | 'spurious' | 'possible' | 'actual' | 'precision' | 'recall' | 'f1'>;
interface Reference {
  source: string;
  nervaluate: string;
  tags: string[];
  documents: { gold: Entity[]; predicted: Entity[] }[];
  overall: Record<SchemeName, Scores>;
  entities: Record<string, Record<SchemeName, Scores>>;
}

const reference = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'nervaluate-reference.json'), 'utf8')) as Reference;

/** nervaluate's entity (tokens start..end, both included) as a span on line 0 of its document. */
const span = (e: Entity, documentId: string): EvalSpan => ({
  documentId,
  start: { sentenceId: 0, tokenId: e.start, charId: 0 },
  end: { sentenceId: 0, tokenId: e.end, charId: 0 },
  labelId: e.label,
  layer: 0,
});

/**
 * A scheme's counts exactly, its figures to the last bits a different order of additions may
 * change. In `partial`, nervaluate 1.1.0 reports correct / actual and correct / possible once it
 * has added up more than one document (its `_merge_results` recomputes the figures without the
 * half point of a partial match: MantisAI/nervaluate#108, fixed after 1.1.0 by #109); labelkit
 * gives the half point, as nervaluate's `compute_metrics(partial_or_type=True)` defines it, so
 * the partial figures are that definition over nervaluate's own counts.
 */
function expected(s: Scores, scheme: SchemeName) {
  let { precision, recall, f1 } = s;
  if (scheme === 'partial') {
    expect([precision, recall]).toEqual([s.correct / s.actual || 0, s.correct / s.possible || 0]); // 1.1.0 as described above
    precision = s.actual > 0 ? (s.correct + 0.5 * s.partial) / s.actual : 0;
    recall = s.possible > 0 ? (s.correct + 0.5 * s.partial) / s.possible : 0;
    f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  }
  return { ...s, precision: expect.closeTo(precision, 12), recall: expect.closeTo(recall, 12), f1: expect.closeTo(f1, 12) };
}
const pick = ({ correct, incorrect, partial, missed, spurious, possible, actual, precision, recall, f1 }: SchemeScore): Scores => ({ correct, incorrect, partial, missed, spurious, possible, actual, precision, recall, f1 });

describe("the SemEval-2013 9.1 schemes against nervaluate's results", () => {
  const report = scoreLabels(
    reference.documents.flatMap((d, i) => d.gold.map((e) => span(e, `doc-${i}`))),
    reference.documents.flatMap((d, i) => d.predicted.map((e) => span(e, `doc-${i}`))),
    { labels: reference.tags.map((id) => ({ id, layer: 0, name: id })) },
  );

  it('comes from nervaluate 1.1.0 on data that confuses labels', () => {
    expect(reference.source).toMatch(/nervaluate's Evaluator/);
    expect(reference.nervaluate).toMatch(/^1\.1\.0/);
    // Per label, a confused pair is a miss for one label and a spurious span for another: the
    // labels' misses add up to more than the overall ones in every scheme.
    for (const scheme of SCHEMES) {
      const missed = Object.values(reference.entities).reduce((n, e) => n + e[scheme].missed, 0);
      expect(missed).toBeGreaterThan(reference.overall[scheme].missed + 50);
    }
  });

  it.each(SCHEMES)('gives nervaluate\'s overall counts and figures in the %s scheme', (scheme) => {
    expect(pick(report.schemes[scheme].overall)).toEqual(expected(reference.overall[scheme], scheme));
  });

  it.each(SCHEMES)('gives nervaluate\'s per-entity counts and figures of every label in the %s scheme, each label scored on its own', (scheme) => {
    const labels = Object.keys(reference.entities);
    expect(labels.length).toBe(12);
    for (const label of labels) {
      const row = report.schemes[scheme].labels.find((l) => l.id === label);
      expect({ label, ...pick(row!) }).toEqual({ label, ...expected(reference.entities[label]![scheme], scheme) });
    }
    expect(report.schemes[scheme].labels.map((l) => l.id).sort()).toEqual([...labels].sort());
  });
});
