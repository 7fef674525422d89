// The rules of what a flat format cannot hold (flattenDocument), one case each, with the counts
// the summary reports and what --strict does; and the formats' own refusals.
import { describe, expect, it } from 'vitest';
import type { Cell, TextLabel } from '../../src/labels/index.js';
import { ExportError, flattenDocument, formatDocument, labelDepths, StrictExportError, tagList } from '../../src/export/index.js';

// Tokens: Ada(0) Lovelace(1) visited(2) New(3) York(4) City(5) .(6)
const TEXT = 'Ada Lovelace visited New York City.';
const TOKENS = ['Ada', 'Lovelace', 'visited', 'New', 'York', 'City', '.'];
const cell = (line: number, status: Cell['status'] = 'DISPLAYED', content = TEXT, tokens = TOKENS): Cell => ({ line, content, tokens, status });
const names = new Map([
  ['per', 'PERSON'],
  ['loc', 'LOCATION'],
  ['city', 'CITY'],
]);
let n = 0;
const label = (l: string, line: number, from: number, to: number, extra: Partial<TextLabel> = {}): TextLabel => ({
  id: `label-${n++}`,
  l,
  layer: 0,
  start: { sentenceId: line, tokenId: from, charId: 0 },
  end: { sentenceId: line, tokenId: to, charId: TOKENS[to]!.length - 1 },
  ...extra,
});
const flatten = (labels: TextLabel[], cells = [cell(0)], strict = false) => flattenDocument(cells, labels, { layer: 0, names, strict, where: 'p/d' });

describe('flattenDocument', () => {
  it('tags whole-token spans in IOB2 and gives their character offsets, end exclusive', () => {
    const { lines, leftOut } = flatten([label('loc', 0, 3, 5), label('per', 0, 0, 1)]);
    expect(lines[0]!.tags).toEqual(['B-PERSON', 'I-PERSON', 'O', 'B-LOCATION', 'I-LOCATION', 'I-LOCATION', 'O']);
    expect(lines[0]!.spans.map((s) => [s.start, s.end, s.label, TEXT.slice(s.start, s.end)])).toEqual([
      [0, 12, 'PERSON', 'Ada Lovelace'],
      [21, 34, 'LOCATION', 'New York City'],
    ]);
    expect(Object.values(leftOut.labels).every((c) => c === 0)).toBe(true);
  });

  it('keeps the outer span of a nesting and the first of two crossing spans, and counts the others', () => {
    const { lines, leftOut } = flatten([label('city', 0, 4, 4), label('loc', 0, 3, 5), label('per', 0, 5, 6), label('loc', 0, 3, 5), label('per', 0, 1, 2), label('per', 0, 0, 1)]);
    expect(lines[0]!.tags).toEqual(['B-PERSON', 'I-PERSON', 'O', 'B-LOCATION', 'I-LOCATION', 'I-LOCATION', 'O']);
    expect(leftOut.labels).toMatchObject({ nested: 1, overlapping: 2, duplicate: 1 });
  });

  it('leaves out deleted, rejected, CONFLICT, other-layer, unknown and two-line labels, and hidden or deleted lines, counting each', () => {
    const cells = [cell(0), cell(1, 'HIDDEN'), cell(2, 'DELETED'), cell(3)];
    const labels = [
      label('per', 0, 0, 1, { deleted: true }),
      label('per', 0, 0, 1, { rejectedByUserId: 1 }),
      label('per', 0, 0, 1, { labeledBy: 'CONFLICT' }),
      label('per', 0, 0, 1, { layer: 1 }),
      label('nope', 0, 0, 1),
      { ...label('per', 0, 0, 1), end: { sentenceId: 3, tokenId: 1, charId: 7 } },
      label('per', 1, 0, 1),
      label('loc', 3, 3, 4),
    ];
    const { lines, leftOut } = flatten(labels, cells);
    expect(lines.map((l) => l.line)).toEqual([0, 3]);
    expect(lines[0]!.spans).toEqual([]);
    expect(lines[1]!.spans.map((s) => s.label)).toEqual(['LOCATION']);
    expect(leftOut).toEqual({
      labels: { deleted: 1, rejected: 1, conflict: 1, otherLayer: 1, unknownLabel: 1, multiLine: 1, hiddenLine: 1, nested: 0, overlapping: 0, duplicate: 0, snapped: 0 },
      lines: { hidden: 1, deleted: 1 },
    });
  });

  it('keeps the child of the label tree over its parent on identical spans (the parent left out as nested), whatever their order', () => {
    // ENTITY › PERSON: the parent is first in the label set's order, and first in the labels.
    const tree = new Map([
      ['entity', 'ENTITY'],
      ['per', 'PERSON'],
      ['loc', 'LOCATION'],
    ]);
    const depth = labelDepths([
      { id: 'entity', parentId: null },
      { id: 'per', parentId: 'entity' },
      { id: 'loc', parentId: null },
    ]);
    expect([...depth]).toEqual([
      ['entity', 0],
      ['per', 1],
      ['loc', 0],
    ]);
    for (const labels of [
      [label('entity', 0, 0, 1), label('per', 0, 0, 1)],
      [label('per', 0, 0, 1), label('entity', 0, 0, 1)],
    ]) {
      const { lines, leftOut } = flattenDocument([cell(0)], labels, { layer: 0, names: tree, depth, strict: false, where: 'p/d' });
      expect(lines[0]!.tags.slice(0, 2)).toEqual(['B-PERSON', 'I-PERSON']);
      expect(leftOut.labels.nested).toBe(1);
    }
    // Not related by the tree and at one depth: the label set's order decides, as before.
    const { lines } = flattenDocument([cell(0)], [label('loc', 0, 0, 1), label('entity', 0, 0, 1)], { layer: 0, names: tree, depth, strict: false, where: 'p/d' });
    expect(lines[0]!.spans.map((s) => s.label)).toEqual(['ENTITY']);
    // A longer parent span still holds its nested child out (the outer span of a nesting wins).
    const outer = flattenDocument([cell(0)], [label('entity', 0, 0, 2), label('per', 0, 0, 1)], { layer: 0, names: tree, depth, strict: false, where: 'p/d' });
    expect(outer.lines[0]!.spans.map((s) => s.label)).toEqual(['ENTITY']);
  });

  it('widens a span that starts or ends inside a token to whole tokens, and counts it', () => {
    const { lines, leftOut } = flatten([{ ...label('per', 0, 0, 1), start: { sentenceId: 0, tokenId: 0, charId: 1 } }]);
    expect(lines[0]!.spans[0]).toMatchObject({ start: 0, end: 12 });
    expect(leftOut.labels.snapped).toBe(1);
  });

  it('throws under strict for the first label a flat format changes, naming it, and not for another layer or a hidden line', () => {
    expect(() => flatten([label('loc', 0, 3, 5), label('city', 0, 4, 4)], [cell(0)], true)).toThrow(StrictExportError);
    expect(() => flatten([label('loc', 0, 3, 5), label('city', 0, 4, 4)], [cell(0)], true)).toThrow(/p\/d line 0: a CITY span \(tokens 4-4\) is nested in another span \(LOCATION, tokens 3-5\)/);
    expect(() => flatten([label('per', 0, 0, 1, { deleted: true })], [cell(0)], true)).toThrow(/p\/d line 0: label label-\d+ \(PERSON\) is marked deleted/);
    expect(() => flatten([label('per', 0, 0, 1, { layer: 2 }), label('per', 1, 0, 1)], [cell(0), cell(1, 'HIDDEN')], true)).not.toThrow();
  });

  it('refuses a token that is not in its line, naming it, and a label past the line', () => {
    expect(() => flatten([], [cell(0, 'DISPLAYED', 'Ada Lovelace', ['Ada', 'Byron'])])).toThrow(/p\/d line 0: token 1 "Byron" is not in the line's text/);
    expect(() => flatten([label('per', 5, 0, 1)])).toThrow(/label .* is on line 5, which the document does not have/);
  });
});

describe('formatDocument', () => {
  const doc = { projectId: 'p', documentId: 'd', fileName: 'd.txt', index: 0, ...flatten([label('per', 0, 0, 1)]) };
  const tags = tagList(['PERSON']);
  it('writes each format', () => {
    expect(formatDocument('conll', doc, new Map(tags.map((t, i) => [t, i])))).toBe(
      '-DOCSTART- -X- -X- O\n\nAda -X- -X- B-PERSON\nLovelace -X- -X- I-PERSON\nvisited -X- -X- O\nNew -X- -X- O\nYork -X- -X- O\nCity -X- -X- O\n. -X- -X- O\n\n',
    );
    expect(JSON.parse(formatDocument('jsonl', doc, new Map(tags.map((t, i) => [t, i]))))).toEqual({ id: 'd:0', project: 'p', document: 'd', line: 0, tokens: TOKENS, ner_tags: [1, 2, 0, 0, 0, 0, 0] });
    expect(JSON.parse(formatDocument('spacy', doc, new Map()))).toEqual({ text: TEXT, entities: [[0, 12, 'PERSON']], project: 'p', document: 'd', line: 0 });
  });
  it('refuses a token with white space in conll, naming it', () => {
    const spaced = { ...doc, lines: [{ ...doc.lines[0]!, tokens: ['New York'], tags: ['O'] }] };
    expect(() => formatDocument('conll', spaced, new Map())).toThrow(ExportError);
    expect(() => formatDocument('conll', spaced, new Map())).toThrow(/p\/d line 0: token 0 "New York" holds white space/);
  });
});
