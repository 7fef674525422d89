import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblems, parseJsonWithLines } from '../../src/shared/jsonLocations.js';

// parseJsonWithLines itself is tested in test/emulator/store.test.ts, where it was first used.
describe('jsonSyntaxProblems', () => {
  it('lists the first syntax error of every line, in the words parseJsonWithLines throws', () => {
    const text = '{\n "a": 1\n "b": 2,\n "c": [1 2]\n}';
    expect(jsonSyntaxProblems(text)).toEqual([
      { line: 3, column: 2, message: 'expected ","' },
      { line: 4, column: 10, message: 'expected ","' },
    ]);
    expect(() => parseJsonWithLines(text)).toThrow('expected "," (line 3 column 2)');
  });

  it('reports what the parser recovers from on the same line only once', () => {
    expect(jsonSyntaxProblems('{"a": tru}')).toEqual([{ line: 1, column: 7, message: 'unexpected "t"' }]);
    expect(jsonSyntaxProblems('{\n "a": 1,\n}')).toEqual([{ line: 3, column: 1, message: 'expected a property name in double quotes' }]);
  });

  it('says a value is expected when the text is empty, and nothing when it is JSON', () => {
    expect(jsonSyntaxProblems('  \n')).toEqual([{ line: 2, column: 1, message: 'expected a value' }]);
    expect(jsonSyntaxProblems('{"a": [1, 2]}')).toEqual([]);
  });
});

describe('parseJsonWithLines duplicateKeys', () => {
  it('lists every key given twice in one object, with its path and both lines, and none for distinct keys', () => {
    const text = '{\n "a": 1,\n "b": [{ "x": 1,\n  "x": 2 }],\n "a": 3\n}';
    const { value, duplicateKeys } = parseJsonWithLines(text);
    expect(value).toEqual({ a: 3, b: [{ x: 2 }] });
    expect(duplicateKeys).toEqual([
      { path: ['b', 0, 'x'], line: 4, firstLine: 3, message: expect.stringContaining('given twice in one object (also on line 3)') },
      { path: ['a'], line: 5, firstLine: 2, message: expect.stringContaining('given twice in one object (also on line 2)') },
    ]);
    expect(parseJsonWithLines('{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}').duplicateKeys).toEqual([]);
  });
});
