import { describe, expect, it } from 'vitest';
import { coversToken, tokenTexts, Tokens } from '../../src/emulator/tokens.js';

describe('Tokens.cut', () => {
  it('makes a token of each run of letters, digits and marks, and of each other character that is not white space', () => {
    const tokens = new Tokens();
    expect(tokenTexts('Acme Corp. (Berlin)', tokens)).toEqual(['Acme', 'Corp', '.', '(', 'Berlin', ')']);
    expect(tokenTexts("  don't\tstop-2024!! ", tokens)).toEqual(['don', "'", 't', 'stop', '-', '2024', '!', '!']);
    expect(tokenTexts('São Paulo, Zürich naïve', tokens)).toEqual(['São', 'Paulo', ',', 'Zürich', 'naïve']);
    expect(tokenTexts('Cafe\u0301 東京タワー\u00a0x', tokens)).toEqual(['Cafe\u0301', '東京タワー', 'x']);
    expect(tokenTexts('', tokens)).toEqual([]);
    expect(tokenTexts('   ', tokens)).toEqual([]);
  });

  it('never splits a surrogate pair: a letter outside the BMP joins its word, an emoji is a token of its own', () => {
    const tokens = new Tokens();
    expect(tokenTexts('a𝐀b 😀x', tokens)).toEqual(['a𝐀b', '😀', 'x']);
    expect([tokens.start(1), tokens.end(1)]).toEqual([5, 7]);
  });

  it('grows past its first buffer on a long line', () => {
    const tokens = new Tokens();
    const line = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
    expect(tokens.cut(line)).toBe(500);
    expect([tokens.start(499), tokens.end(499)]).toEqual([line.length - 4, line.length]);
  });
});

describe('Tokens.snap', () => {
  const tokens = new Tokens();
  const line = 'Ada Lovelace met Acme Corp. today';
  const snap = (s: number, e: number) => {
    tokens.cut(line);
    return tokens.snap(s, e);
  };

  it('keeps a span on token edges as it is', () => {
    expect(snap(0, 12)).toEqual([0, 1]);
    expect(snap(17, 26)).toEqual([3, 4]);
    expect(snap(26, 27)).toEqual([5, 5]);
  });

  it('grows a span that starts or ends inside a token to the whole token (expand)', () => {
    expect(snap(2, 7)).toEqual([0, 1]); // "a Lov"
    expect(snap(18, 19)).toEqual([3, 3]); // "c"
    expect(snap(11, 14)).toEqual([1, 2]); // "e m"
  });

  it('leaves out white space at either end, and refuses a span of white space only', () => {
    expect(snap(3, 12)).toEqual([1, 1]); // " Lovelace"
    expect(snap(0, 4)).toEqual([0, 0]); // "Ada "
    expect(snap(3, 4)).toBeUndefined();
    expect(snap(33, 40)).toBeUndefined(); // after the line's end
    expect(coversToken(line, 3, 4)).toBe(false);
    expect(coversToken(line, 3, 5)).toBe(true);
    expect(coversToken(line, 50, 60)).toBe(false);
  });
});
