import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/shared/decodeUtf8.js';
import { jsonNestingProblem, jsonSyntaxProblems, parseJsonWithLines } from '../../src/shared/jsonLocations.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('decodeUtf8', () => {
  it('reads UTF-8 as it is, a byte-order mark dropped', () => {
    expect(decodeUtf8(bytes('\uFEFFé\n\uFFFD'))).toEqual({ text: 'é\n\uFFFD', problems: [] });
  });

  it('names the first unreadable place of each line, its column counted past a U+FFFD written as UTF-8 and past a byte-order mark', () => {
    const { text, problems } = decodeUtf8(bytes('\uFEFFab', [0xc3, 0x28], '\nok\n\uFFFDx', [0xed, 0xa0, 0x80], [0xe9], '\n', [0x80]));
    expect(text).toBe('ab\uFFFD(\nok\n\uFFFDx\uFFFD\uFFFD\uFFFD\uFFFD\n\uFFFD');
    expect(problems).toEqual([
      { line: 1, column: 3, message: 'not UTF-8: the byte c3 at column 3 is not UTF-8 text (save the file as UTF-8)' },
      { line: 3, column: 3, message: 'not UTF-8: the bytes ed a0 80 e9 at column 3 are not UTF-8 text (save the file as UTF-8)' },
      { line: 4, column: 1, message: 'not UTF-8: the byte 80 at column 1 is not UTF-8 text (save the file as UTF-8)' },
    ]);
  });
});

describe('jsonNestingProblem', () => {
  it('finds the first bracket one level too deep without recursing, brackets inside strings not counted', () => {
    expect(jsonNestingProblem(`{"a": "${'['.repeat(100)}",\n "b": ${'['.repeat(64)}${']'.repeat(64)}}`)).toEqual({ line: 2, column: 70, message: 'lists and objects nested more than 64 levels deep' });
    expect(jsonNestingProblem(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeUndefined();
  });

  it('is what jsonSyntaxProblems and parseJsonWithLines say of a text nested 200,000 deep, instead of running out of stack', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(jsonSyntaxProblems(deep)).toEqual([{ line: 1, column: 65, message: 'lists and objects nested more than 64 levels deep' }]);
    expect(() => parseJsonWithLines(deep)).toThrow('lists and objects nested more than 64 levels deep (line 1 column 65)');
  });
});
