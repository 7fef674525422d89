// The comparison with a baseline report, its gate and its markdown, on reports made by hand: what
// counts as a regression (a drop of more than maxDrop with the baseline above the interval), what
// a baseline must hold, and label names that would break a markdown table.
import { describe, expect, it } from 'vitest';
import { compareReports, markdownReport, readBaselineReport } from '../../src/eval/index.js';
import type { BaselineReport, F1Intervals } from '../../src/eval/index.js';

const label = (id: string, f1: number) => ({ id, layer: 0, name: id.toUpperCase(), f1 });
const baseline: BaselineReport = { version: 1, projectId: 'p', labelerEmail: 'm@example.com', match: 'strict', layer: null, documents: 40, micro: { f1: 0.8 }, labels: [label('a', 0.9), label('b', 0.7), label('gone', 0.5)] };
const intervals = (micro: [number, number], a: [number, number], b: [number, number]): F1Intervals => ({
  method: 'percentile bootstrap over documents',
  level: 0.95,
  resamples: 1000,
  seed: 1,
  documents: 40,
  micro,
  labels: [
    { id: 'a', layer: 0, name: 'A', f1: a },
    { id: 'b', layer: 0, name: 'B', f1: b },
  ],
});
const current = (a: number, b: number, ci: F1Intervals) => ({ projectId: 'p', labelerEmail: 'm@example.com', match: 'strict' as const, layer: null, documents: 40, micro: { f1: 0.78 }, labels: [label('a', a), label('b', b)], intervals: ci });

describe('compareReports', () => {
  it('fails only a drop of more than maxDrop whose baseline lies above the interval', () => {
    // A: dropped 0.2, baseline 0.9 above [0.6, 0.8] → regression. B: dropped 0.2, but 0.7 inside [0.3, 0.75] → noise.
    const c = compareReports(current(0.7, 0.5, intervals([0.75, 0.81], [0.6, 0.8], [0.3, 0.75])), baseline, { maxDrop: 0.1 });
    expect(c.labels.map((l) => [l.id, l.regression, l.outsideInterval])).toEqual([
      ['a', true, true],
      ['b', false, false],
      ['gone', false, false],
    ]);
    expect(c.labels[0]!.change).toBeCloseTo(-0.2);
    expect(c.labels[2]).toMatchObject({ baseline: 0.5, current: null, change: null });
    expect(c.micro).toMatchObject({ regression: false, outsideInterval: false });
    expect(c.regressions).toBe(1);
    // The same drop within maxDrop never fails, however sure; without maxDrop nothing fails.
    expect(compareReports(current(0.7, 0.5, intervals([0.75, 0.81], [0.6, 0.8], [0.3, 0.75])), baseline, { maxDrop: 0.25 }).regressions).toBe(0);
    expect(compareReports(current(0.7, 0.5, intervals([0.75, 0.81], [0.6, 0.8], [0.3, 0.75])), baseline).regressions).toBe(0);
  });

  it('notes a baseline scored another way', () => {
    const c = compareReports(current(0.9, 0.7, intervals([0.7, 0.9], [0.8, 1], [0.6, 0.8])), { ...baseline, match: 'overlap', layer: 1 });
    expect(c.notes).toEqual(['the baseline was scored with --match overlap, this run with strict', 'the baseline scored layer 1, this run every layer']);
  });
});

describe('readBaselineReport', () => {
  it('names every field a report must have and this one lacks', () => {
    expect(readBaselineReport([1, 2]).problems).toEqual(['it is not a JSON object']);
    expect(readBaselineReport({ version: 2, projectId: 'p', match: 'strict', micro: { f1: 2 }, labels: [{ id: 'a', layer: 0 }] }).problems).toEqual([
      'its "version" is 2, not 1',
      'it has no "documents"',
      'its "micro.f1" is not a number from 0 to 1',
      'its "labels[0]" lacks an id, a layer or an f1 from 0 to 1, or has a name that is not a text',
    ]);
    expect(readBaselineReport(JSON.parse(JSON.stringify(baseline)))).toEqual({ report: baseline, problems: [] });
  });
});

describe('markdownReport', () => {
  it('escapes label names that would break the table or add markup', () => {
    const figures = { precision: 1, recall: 0.5, f1: 2 / 3, zeroDivision: [], gold: 2, predicted: 1 };
    const lines = markdownReport({ projectId: 'p', labelerEmail: null, match: 'strict', documents: 1, micro: figures, labels: [{ id: 'x', layer: 0, name: 'A|B *c*\nd', ...figures }] });
    expect(lines).toContain('| A\\|B \\*c\\* d | 2 | 1 | 1.000 | 0.500 | 0.667 |');
    expect(lines[0]).toBe('#### labelkit eval · p · (unnamed) · match strict · 1 document');
  });
});
