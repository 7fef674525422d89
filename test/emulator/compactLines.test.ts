import { describe, expect, it } from 'vitest';
import { CompactLines, LabelNames } from '../../src/emulator/compactLines.js';

describe('CompactLines', () => {
  it('gives back every field as stored, layer defaulted to 0 and confidence only when given', () => {
    const doc = new CompactLines(new LabelNames(), 3);
    doc.set(0, [
      { label: 'PERSON', start_char: 0, end_char: 3, confidence_score: 0.25, layer: 2 ** 40 },
      { label: 'person', start_char: 4, end_char: 9 },
    ]);
    expect(doc.get(0)).toEqual([
      { label: 'PERSON', start_char: 0, end_char: 3, confidence_score: 0.25, layer: 2 ** 40 },
      { label: 'person', start_char: 4, end_char: 9, layer: 0 },
    ]);
    expect(Object.keys(doc.get(0)![1]!)).toEqual(['label', 'start_char', 'end_char', 'layer']);
  });

  it('tells a line set to no labels from a line never set', () => {
    const doc = new CompactLines(new LabelNames(), 3);
    doc.set(1, []);
    expect(doc.get(1)).toEqual([]);
    expect(doc.get(0)).toBeUndefined();
    expect(doc.get(99)).toBeUndefined();
  });

  it('replaces a line set twice and lists the lines in line order, past the given line count too', () => {
    const doc = new CompactLines(new LabelNames(), 2);
    doc.set(5, [{ label: 'B', start_char: 1, end_char: 2 }]);
    doc.set(0, [{ label: 'A', start_char: 0, end_char: 1 }]);
    doc.set(0, [{ label: 'C', start_char: 2, end_char: 3 }]);
    const seen: [number, string[]][] = [];
    doc.forEachLine((line, spans) => seen.push([line, spans.map((s) => s.label)]));
    expect(seen).toEqual([[0, ['C']], [5, ['B']]]);
  });

  it('keeps every live line intact when many rewrites make it compact its arena', () => {
    const doc = new CompactLines(new LabelNames(), 10);
    const span = (round: number, line: number) => ({ label: `L${line % 3}`, start_char: round, end_char: round + line + 1, confidence_score: line / 10 });
    for (let round = 0; round < 200; round++) for (let line = 0; line < 10; line++) doc.set(line, line % 2 ? [span(round, line)] : [span(round, line), span(round + 1, line)]);
    for (let line = 0; line < 10; line++) {
      const last = 199;
      expect(doc.get(line)).toEqual(line % 2 ? [{ ...span(last, line), layer: 0 }] : [{ ...span(last, line), layer: 0 }, { ...span(last + 1, line), layer: 0 }]);
    }
  });

  it('keeps earlier spans without confidence or layer when a later span brings the first of either', () => {
    const doc = new CompactLines(new LabelNames(), 4);
    doc.set(0, [{ label: 'A', start_char: 0, end_char: 1 }]);
    doc.set(1, [{ label: 'B', start_char: 0, end_char: 2, confidence_score: 0, layer: 3 }]);
    doc.set(2, [{ label: 'C', start_char: 1, end_char: 2 }]);
    expect([doc.get(0), doc.get(1), doc.get(2)]).toEqual([
      [{ label: 'A', start_char: 0, end_char: 1, layer: 0 }],
      [{ label: 'B', start_char: 0, end_char: 2, confidence_score: 0, layer: 3 }],
      [{ label: 'C', start_char: 1, end_char: 2, layer: 0 }],
    ]);
  });

  it('rejects offsets that are not 32-bit integers, naming both fields, and keeps the line as it was', () => {
    const doc = new CompactLines(new LabelNames(), 1);
    doc.set(0, [{ label: 'A', start_char: 0, end_char: 1 }]);
    expect(() => doc.set(0, [{ label: 'A', start_char: 0.5, end_char: 1 }])).toThrow(/start_char and end_char must be integer/);
    expect(doc.get(0)).toEqual([{ label: 'A', start_char: 0, end_char: 1, layer: 0 }]);
  });

  it('removes the spans of the labels picked from every line, keeps the rest with their confidence and layer, and counts what is left', () => {
    const names = new LabelNames();
    const doc = new CompactLines(names, 3);
    doc.set(0, [
      { label: 'A', start_char: 0, end_char: 1 },
      { label: 'B', start_char: 1, end_char: 2, confidence_score: 0.5, layer: 2 },
      { label: 'A', start_char: 2, end_char: 3 },
    ]);
    doc.set(2, [{ label: 'A', start_char: 0, end_char: 4 }]);
    const before: number[] = [];
    doc.countLabels(before);
    expect(before).toEqual([3, 1]);
    expect(doc.removeLabels((label) => names.nameAt(label) === 'A')).toBe(3);
    expect([doc.get(0), doc.get(1), doc.get(2)]).toEqual([[{ label: 'B', start_char: 1, end_char: 2, confidence_score: 0.5, layer: 2 }], undefined, []]);
    const after: number[] = [];
    doc.countLabels(after);
    expect(after).toEqual([undefined, 1]);
    // The room of the removed spans is reused: many more sets need no growth beyond the live spans.
    for (let i = 0; i < 50; i++) doc.set(1, [{ label: 'C', start_char: 0, end_char: 1 }]);
    expect(doc.get(0)).toEqual([{ label: 'B', start_char: 1, end_char: 2, confidence_score: 0.5, layer: 2 }]);
    expect(doc.get(1)).toEqual([{ label: 'C', start_char: 0, end_char: 1, layer: 0 }]);
  });
});
