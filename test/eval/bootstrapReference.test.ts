// The bootstrap interval's ends checked against a reference computed outside labelkit:
// test/fixtures/bootstrap-reference.json, written by test/fixtures/bootstrapReference.py (resamples
// drawn by a Python copy of the documented resampling with the same seed, ends by numpy.percentile,
// method 'linear'; the fixture names the numpy version). A quantile index of q·n instead of
// q·(n − 1), or any other percentile rule, moves the ends away from numpy's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrapF1, DocumentCounts } from '../../src/eval/index.js';
import type { EvalLabel } from '../../src/eval/index.js';

interface Reference {
  source: string;
  numpy: string;
  seed: number;
  resamples: number;
  level: number;
  labels: EvalLabel[];
  documents: Array<Array<{ layer: number; id: string; tp: number; predicted: number; gold: number }>>;
  expected: { micro: [number, number]; labels: Record<string, [number, number]> };
}

const reference = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'bootstrap-reference.json'), 'utf8')) as Reference;

/** Equal to the last bits a different order of additions may change. */
const close = ([low, high]: readonly [number, number]) => [expect.closeTo(low, 12), expect.closeTo(high, 12)];

describe('bootstrapF1 against numpy', () => {
  it("gives numpy.percentile's ends (method 'linear') of the same resamples, for micro F1 and each label", () => {
    expect(reference.source).toMatch(/numpy\.percentile/);
    const counts = new DocumentCounts();
    for (const rows of reference.documents) counts.addCounts(rows);
    const intervals = bootstrapF1(counts, reference.labels, { seed: reference.seed, resamples: reference.resamples, level: reference.level });
    expect(intervals).toMatchObject({ resamples: reference.resamples, level: reference.level, documents: reference.documents.length });
    expect(intervals.micro).toEqual(close(reference.expected.micro));
    expect(Object.fromEntries(intervals.labels.map((l) => [l.id, l.f1]))).toEqual(
      Object.fromEntries(Object.entries(reference.expected.labels).map(([id, interval]) => [id, close(interval)])),
    );
    // The ends fall between two resamples, so the interpolation matters (not a tie at both).
    for (const [low, high] of [reference.expected.micro, ...Object.values(reference.expected.labels)]) expect(high).toBeGreaterThan(low);
  });
});
