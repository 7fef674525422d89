import { describe, expect, it } from 'vitest';
import { CompactLines, labelFlags, LineSpans, readFlags } from '../../src/emulator/compactLines.js';

/** The labels of one line as plain tuples: entry, first token, last token, confidence (NaN: none), flags. */
function read(doc: CompactLines, line: number): [number, number, number, number, number][] | undefined {
  if (!doc.isSet(line)) return undefined;
  const first = doc.firstOf(line);
  return Array.from({ length: doc.countOf(line) }, (_, i) => [doc.entryAt(first + i), doc.startTokenAt(first + i), doc.endTokenAt(first + i), doc.confidenceAt(first + i), doc.flagsAt(first + i)]);
}

function spans(...rows: [number, number, number, number?, number?][]): LineSpans {
  const out = new LineSpans();
  for (const [entry, start, end, confidence = Number.NaN, flags = 0] of rows) out.push(entry, start, end, confidence, flags);
  return out;
}

/** The labels per entry that a document holds, from its lines (entry → count; none: undefined). */
function labelsPerEntry(doc: CompactLines): (number | undefined)[] {
  const counts: (number | undefined)[] = [];
  doc.forEachLine((_line, first, count) => {
    for (let at = first; at < first + count; at++) counts[doc.entryAt(at)] = (counts[doc.entryAt(at)] ?? 0) + 1;
  });
  return counts;
}

describe('CompactLines', () => {
  it('gives back every field as stored, confidence NaN and flags 0 where none was given', () => {
    const doc = new CompactLines(3);
    doc.setLine(0, spans([1, 0, 2, 0.25, labelFlags('AUTO', false)], [0, 3, 3]));
    expect(read(doc, 0)).toEqual([
      [1, 0, 2, 0.25, 1],
      [0, 3, 3, Number.NaN, 0],
    ]);
    expect(doc.total).toBe(2);
  });

  it('tells a line set to no labels from a line never set', () => {
    const doc = new CompactLines(3);
    doc.setLine(1, spans());
    expect(read(doc, 1)).toEqual([]);
    expect(read(doc, 0)).toBeUndefined();
    expect(read(doc, 99)).toBeUndefined();
    expect(doc.countOf(99)).toBe(0);
  });

  it('replaces a line set twice and lists the lines in line order, past the given line count too', () => {
    const doc = new CompactLines(2);
    doc.setLine(5, spans([1, 1, 2]));
    doc.setLine(0, spans([0, 0, 1]));
    doc.setLine(0, spans([2, 2, 3]));
    const seen: [number, number[]][] = [];
    doc.forEachLine((line, first, count) => seen.push([line, Array.from({ length: count }, (_, i) => doc.entryAt(first + i))]));
    expect(seen).toEqual([
      [0, [2]],
      [5, [1]],
    ]);
    expect(doc.total).toBe(2);
  });

  it('keeps every live line intact when many rewrites make it compact its columns', () => {
    const doc = new CompactLines(10);
    const row = (round: number, line: number): [number, number, number, number] => [line % 3, round, round + line, line / 10];
    for (let round = 0; round < 200; round++) for (let line = 0; line < 10; line++) doc.setLine(line, line % 2 ? spans(row(round, line)) : spans(row(round, line), row(round + 1, line)));
    for (let line = 0; line < 10; line++) {
      const last = 199;
      const expected = line % 2 ? [row(last, line)] : [row(last, line), row(last + 1, line)];
      expect(read(doc, line)).toEqual(expected.map((r) => [...r, 0]));
    }
    expect(doc.total).toBe(15);
  });

  it('keeps earlier labels without confidence or flags when a later one brings the first of either', () => {
    const doc = new CompactLines(4);
    doc.setLine(0, spans([0, 0, 0]));
    doc.setLine(1, spans([1, 0, 1, 0, labelFlags(undefined, true)]));
    doc.setLine(2, spans([2, 1, 1]));
    expect([read(doc, 0), read(doc, 1), read(doc, 2)]).toEqual([[[0, 0, 0, Number.NaN, 0]], [[1, 0, 1, 0, 8]], [[2, 1, 1, Number.NaN, 0]]]);
  });

  it('removes the labels of the entries picked from every line, keeps the rest, counts what is left and changes its version', () => {
    const doc = new CompactLines(3);
    doc.setLine(0, spans([0, 0, 0], [1, 1, 1, 0.5, labelFlags('CONFLICT', false)], [0, 2, 2]));
    doc.setLine(2, spans([0, 0, 3]));
    expect(labelsPerEntry(doc)).toEqual([3, 1]);
    const version = doc.version;
    expect(doc.removeLabels((entry) => entry === 0)).toBe(3);
    expect(doc.version).toBeGreaterThan(version);
    expect([read(doc, 0), read(doc, 1), read(doc, 2)]).toEqual([[[1, 1, 1, 0.5, 2]], undefined, []]);
    expect(labelsPerEntry(doc)).toEqual([undefined, 1]);
    // The room of the removed labels is reused: many more sets need no growth beyond the live labels.
    for (let i = 0; i < 50; i++) doc.setLine(1, spans([2, 0, 0]));
    expect(read(doc, 0)).toEqual([[1, 1, 1, 0.5, 2]]);
    expect(read(doc, 1)).toEqual([[2, 0, 0, Number.NaN, 0]]);
    expect(doc.total).toBe(2);
  });
});

describe('labelFlags and readFlags', () => {
  it('round-trips every labeledBy with and without deleted, and reads 0 as the copy default', () => {
    for (const by of ['AUTO', 'CONFLICT', 'EXTERNAL', 'LABELER', 'PRELABELED', 'REVIEWER'] as const) {
      for (const deleted of [false, true]) for (const rejected of [false, true]) expect(readFlags(labelFlags(by, deleted, rejected), 'LABELER')).toEqual({ labeledBy: by, deleted, rejected });
    }
    expect(readFlags(0, 'REVIEWER')).toEqual({ labeledBy: 'REVIEWER', deleted: false, rejected: false });
    expect(readFlags(labelFlags(undefined, true), 'LABELER')).toEqual({ labeledBy: 'LABELER', deleted: true, rejected: false });
  });
});
