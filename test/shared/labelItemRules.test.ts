import { describe, expect, it } from 'vitest';
import { labelItemProblems, labelSetCountProblem, labelSetIndexProblem } from '../../src/shared/labelItemRules.js';

const NOCASE = 'names compare case-insensitively';

describe('labelItemProblems', () => {
  it('finds nothing in a valid hierarchy with hex colours, null colours and a name reused under another parent', () => {
    const items = [
      { id: 'e', parentId: null, name: 'ENTITY', color: '#df3920' },
      { id: 'p', parentId: 'e', name: 'PERSON', color: null },
      { id: 'o', parentId: 'e', name: 'OTHER' },
      { id: 'o2', parentId: null, name: 'other', color: '#ABCDEF' },
    ];
    expect(labelItemProblems(items)).toEqual([]);
  });

  it('refuses an id used twice, at its second use, naming the first', () => {
    expect(labelItemProblems([{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }, { id: 'a', name: 'C' }])).toEqual([
      { index: 2, field: 'id', message: '"a" is also the id of label 0', other: 0 },
    ]);
  });

  it('refuses a name used twice under one parent, whatever its case, and names the parent', () => {
    const items = [
      { id: 'e', name: 'E' },
      { id: 'x', parentId: 'e', name: 'Person' },
      { id: 'y', parentId: 'e', name: 'PERSON' },
      { id: 'z', name: 'e' },
    ];
    expect(labelItemProblems(items)).toEqual([
      { index: 2, field: 'name', message: `"PERSON" is also the name of label 1 (both under the parent "e"; ${NOCASE})`, other: 1 },
      { index: 3, field: 'name', message: `"e" is also the name of label 0 (both at the top of the set; ${NOCASE})`, other: 0 },
    ]);
  });

  it('with uniqueNames "set", refuses a name used twice under different parents', () => {
    const items = [
      { id: 'e', name: 'E' },
      { id: 'x', parentId: 'e', name: 'date' },
      { id: 'y', name: 'DATE' },
    ];
    expect(labelItemProblems(items)).toEqual([]);
    expect(labelItemProblems(items, { uniqueNames: 'set' })).toEqual([
      { index: 2, field: 'name', message: `"DATE" is also the name of label 1 (names are unique in the set; ${NOCASE})`, other: 1 },
    ]);
  });

  it('refuses a colour that is not #rrggbb (or not text), and with colors "any" only one that is not text', () => {
    const items = [
      { id: 'a', name: 'A', color: 'red' },
      { id: 'b', name: 'B', color: '#12345' },
      { id: 'c', name: 'C', color: 7 },
      { id: 'd', name: 'D', color: '#a1B2c3' },
    ];
    const rule = 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null';
    expect(labelItemProblems(items)).toEqual([
      { index: 0, field: 'color', message: `${rule} (got "red")` },
      { index: 1, field: 'color', message: `${rule} (got "#12345")` },
      { index: 2, field: 'color', message: `${rule} (got 7)` },
    ]);
    expect(labelItemProblems(items, { colors: 'any' })).toEqual([{ index: 2, field: 'color', message: 'must be text or null (got 7)' }]);
  });

  it('cuts a long quoted value', () => {
    const [problem] = labelItemProblems([{ id: 'a', name: 'A', color: 'x'.repeat(500) }]);
    expect(problem!.message).toBe(`must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "${'x'.repeat(39)}…)`);
  });

  it('refuses a parentId that names no item, and an item that is its own parent', () => {
    expect(labelItemProblems([{ id: 'a', name: 'A', parentId: 'zz' }, { id: 'b', name: 'B', parentId: 'b' }])).toEqual([
      { index: 0, field: 'parentId', message: '"zz" is not the id of a label of this set' },
      { index: 1, field: 'parentId', message: 'a label cannot be its own parent' },
    ]);
  });

  it('refuses a cycle at each of its items, not at an item that merely hangs below it', () => {
    const items = [
      { id: 'top', name: 'TOP' },
      { id: 'a', name: 'A', parentId: 'c' },
      { id: 'tail', name: 'TAIL', parentId: 'a' },
      { id: 'b', name: 'B', parentId: 'a' },
      { id: 'c', name: 'C', parentId: 'b' },
      { id: 'ok', name: 'OK', parentId: 'top' },
    ];
    expect(labelItemProblems(items)).toEqual([
      { index: 1, field: 'parentId', message: 'the parent chain of "a" comes back to "a" (a cycle: "a" → "c" → "b" → "a")' },
      { index: 3, field: 'parentId', message: 'the parent chain of "b" comes back to "b" (a cycle: "b" → "a" → "c" → "b")' },
      { index: 4, field: 'parentId', message: 'the parent chain of "c" comes back to "c" (a cycle: "c" → "b" → "a" → "c")' },
    ]);
  });

  it('shortens the ids around a long cycle and walks a long chain without overflowing', () => {
    const n = 20;
    const ring = Array.from({ length: n }, (_, i) => ({ id: `r${i}`, name: `R${i}`, parentId: `r${(i + 1) % n}` }));
    const problems = labelItemProblems(ring);
    expect(problems.map((p) => p.index)).toEqual(ring.map((_, i) => i));
    expect(problems[0]!.message).toBe(`the parent chain of "r0" comes back to "r0" (a cycle: ${Array.from({ length: 10 }, (_, i) => `"r${i}"`).join(' → ')} → … → "r0")`);
    const chain = Array.from({ length: 20_000 }, (_, i) => ({ id: `c${i}`, name: `C${i}`, parentId: i === 0 ? null : `c${i - 1}` }));
    expect(labelItemProblems(chain)).toEqual([]);
  });

  it('reads the caller’s field names, names other items its way, and with hierarchy off ignores parents', () => {
    const items = [
      { id: 'a', labelName: 'A', parentId: 'zz' },
      { id: 'b', labelName: 'a', parentId: 'q' },
    ];
    const options = { fields: { name: 'labelName' }, refer: (i: number) => `input.labelItems[${i}]` };
    expect(labelItemProblems(items, options)).toEqual([
      { index: 0, field: 'parentId', message: '"zz" is not the id of a label of this set' },
      { index: 1, field: 'parentId', message: '"q" is not the id of a label of this set' },
    ]);
    expect(labelItemProblems(items, { ...options, hierarchy: false })).toEqual([
      { index: 1, field: 'name', message: `"a" is also the name of input.labelItems[0] (both at the top of the set; ${NOCASE})`, other: 0 },
    ]);
  });

  it('leaves items that are not objects and fields that are not usable text to the caller', () => {
    const items = [null, 'x', { id: ' ', name: '' }, { id: ' ', name: '', parentId: ' ' }, { id: 3, name: 4, parentId: 5 }];
    expect(labelItemProblems(items)).toEqual([]);
  });

  it('with blanks, compares blank ids, names and parents like any other text (items read from the service)', () => {
    const items = [{ id: '', name: '' }, { id: '', name: ' ' }, { id: 'b', name: '' }, { id: 'c', name: 'C', parentId: ' ' }];
    expect(labelItemProblems(items, { blanks: true })).toEqual([
      { index: 1, field: 'id', message: '"" is also the id of label 0', other: 0 },
      { index: 2, field: 'name', message: '"" is also the name of label 0 (both at the top of the set; names compare case-insensitively)', other: 0 },
      { index: 3, field: 'parentId', message: '" " is not the id of a label of this set' },
    ]);
    expect(labelItemProblems(items)).toEqual([]); // without it, blank text is the caller's to refuse
  });

  it('lists every problem at once: each item’s, in list order, then the hierarchy’s', () => {
    const items = [
      { id: 'a', name: 'A', color: 'red' },
      { id: 'a', name: 'a', parentId: 'zz' },
      { id: 'b', name: 'B', parentId: 'c' },
      { id: 'c', name: 'C', parentId: 'b', color: '#zzzzzz' },
      { id: 'd', name: 'b', parentId: 'd' },
      { id: 'e', name: 'A' },
    ];
    expect(labelItemProblems(items).map((p) => `${p.index}.${p.field}: ${p.message}`)).toEqual([
      '0.color: must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "red")',
      '1.id: "a" is also the id of label 0',
      '3.color: must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "#zzzzzz")',
      `5.name: "A" is also the name of label 0 (both at the top of the set; ${NOCASE})`,
      '1.parentId: "zz" is not the id of a label of this set',
      '2.parentId: the parent chain of "b" comes back to "b" (a cycle: "b" → "c" → "b")',
      '3.parentId: the parent chain of "c" comes back to "c" (a cycle: "c" → "b" → "c")',
      '4.parentId: a label cannot be its own parent',
    ]);
  });
});

describe('label-set count and index', () => {
  it('allows at most five sets', () => {
    expect(labelSetCountProblem(0)).toBeUndefined();
    expect(labelSetCountProblem(5)).toBeUndefined();
    expect(labelSetCountProblem(6)).toBe('a project has at most 5 label sets (got 6)');
  });

  it.each([0, 4])('accepts index %j', (index) => expect(labelSetIndexProblem(index)).toBeUndefined());
  it.each([-1, 5, 1.5, '1', null, undefined, Number.NaN])('refuses index %j', (index) => {
    expect(labelSetIndexProblem(index)).toBe('must be an integer from 0 to 4 (a project has at most 5 label sets)');
  });
});
