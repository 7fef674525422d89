/**
 * How the emulator cuts a line into tokens, and how it snaps a character span to tokens.
 *
 * The service publishes neither its tokenizer nor how it turns a model's character offsets into
 * token positions, so the emulator uses this documented rule (docs/emulator.md, "How the emulator stores
 * labels"):
 *
 * - **Tokens**: a token is a maximal run of word characters (letters, digits and combining marks,
 *   Unicode `\p{L}\p{N}\p{M}`), or any other single character that is not white space (`\s`): a
 *   punctuation mark or a symbol is a token of its own. White space separates tokens and belongs to
 *   none. `"Acme Corp. (Berlin)"` → `Acme`, `Corp`, `.`, `(`, `Berlin`, `)`.
 * - **Snapping** ("expand", as spaCy's `char_span(alignment_mode="expand")`): a span
 *   `[start_char, end_char)` becomes every token it shares at least one character with, whole; so
 *   a span that starts or ends inside a token grows to the token's edges. A span of white space
 *   only shares no character with a token and cannot be stored.
 * - **Positions**: offsets count UTF-16 code units, as JavaScript strings and the span contract
 *   do; `charId` counts from the token's start, and a label's end is its last character
 *   (inclusive): a label over the 7-character token `Berlin,`… ends at `charId` 6 of its last token.
 *   A surrogate pair is never split.
 */

const WORD = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;

/** 0 = white space, 1 = word character, 2 = any other character (a token of its own). */
function classOf(text: string, at: number, code: number): number {
  if (code < 128) {
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) return 1;
    return code === 32 || (code >= 9 && code <= 13) ? 0 : 2;
  }
  const ch = code >= 0xd800 && code <= 0xdbff ? text.slice(at, at + 2) : text[at]!;
  if (WORD.test(ch)) return 1;
  return SPACE.test(ch) ? 0 : 2;
}

/**
 * The tokens of one line as `[start, end)` offsets, in a buffer reused from call to call.
 *
 * @remarks One per store: tokenizing a line writes no object per token. Read the tokens through
 * {@link Tokens.start} and {@link Tokens.end} before the next {@link Tokens.cut}.
 * @example
 * ```ts
 * const tokens = new Tokens();
 * tokens.cut('Acme Corp.'); // 3
 * [tokens.start(2), tokens.end(2)]; // [9, 10]
 * ```
 */
export class Tokens {
  private bounds = new Int32Array(64);
  /** How many tokens the last {@link Tokens.cut} found. */
  count = 0;

  /**
   * Cuts a line into tokens (see the module's rule).
   *
   * @param text - the line
   * @returns how many tokens it has
   */
  cut(text: string): number {
    let count = 0;
    let at = 0;
    const length = text.length;
    while (at < length) {
      const code = text.charCodeAt(at);
      if (code === 32) {
        at++;
        continue;
      }
      const kind = classOf(text, at, code);
      const width = code >= 0xd800 && code <= 0xdbff && at + 1 < length ? 2 : 1;
      if (kind === 0) {
        at += width;
        continue;
      }
      const start = at;
      at += width;
      if (kind === 1) {
        while (at < length) {
          const next = text.charCodeAt(at);
          // ASCII letters and digits first: most text never reaches classOf here.
          if ((next >= 97 && next <= 122) || (next >= 65 && next <= 90) || (next >= 48 && next <= 57)) {
            at++;
            continue;
          }
          if (next < 128 || classOf(text, at, next) !== 1) break;
          at += next >= 0xd800 && next <= 0xdbff && at + 1 < length ? 2 : 1;
        }
      }
      if (count * 2 + 2 > this.bounds.length) {
        const grown = new Int32Array(this.bounds.length * 2);
        grown.set(this.bounds);
        this.bounds = grown;
      }
      this.bounds[count * 2] = start;
      this.bounds[count * 2 + 1] = at;
      count++;
    }
    this.count = count;
    return count;
  }

  /**
   * @param token - a token number of the last cut line
   * @returns the offset of its first character
   */
  start(token: number): number {
    return this.bounds[token * 2]!;
  }

  /**
   * @param token - a token number of the last cut line
   * @returns the offset after its last character
   */
  end(token: number): number {
    return this.bounds[token * 2 + 1]!;
  }

  /**
   * The first token that ends after `offset`: the token holding it, or the next one.
   *
   * @param offset - a character offset of the last cut line
   * @returns a token number; {@link Tokens.count} when no token ends after it
   */
  firstEndingAfter(offset: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.bounds[mid * 2 + 1]! > offset) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  /**
   * Snaps a character span of the last cut line to tokens (the "expand" rule of the module).
   *
   * @param startChar - the span's first offset (inclusive)
   * @param endChar - the offset after its last character (exclusive)
   * @returns the first and last token it shares a character with, or undefined when it covers white
   * space only (or nothing)
   * @example
   * ```ts
   * tokens.cut('Acme Corp. (Berlin)');
   * tokens.snap(2, 7); // [0, 1]: "me Co" grows to "Acme Corp"
   * ```
   */
  snap(startChar: number, endChar: number): [number, number] | undefined {
    return this.snapInPlace(startChar, endChar) ? [this.first, this.last] : undefined;
  }

  /** The first token of the last {@link Tokens.snapInPlace} that succeeded. */
  first = 0;
  /** The last token (inclusive) of the last {@link Tokens.snapInPlace} that succeeded. */
  last = 0;

  /**
   * {@link Tokens.snap} without an array per span: the tokens go to {@link Tokens.first} and
   * {@link Tokens.last}.
   *
   * @param startChar - the span's first offset (inclusive)
   * @param endChar - the offset after its last character (exclusive)
   * @returns false when the span covers white space only (or nothing)
   */
  snapInPlace(startChar: number, endChar: number): boolean {
    const first = this.firstEndingAfter(startChar);
    if (first >= this.count || this.bounds[first * 2]! >= endChar) return false;
    const last = this.firstEndingAfter(endChar - 1);
    // The token holding endChar - 1, or (when that character is white space) the one before it.
    this.first = first;
    this.last = last < this.count && this.bounds[last * 2]! < endChar ? last : last - 1;
    return true;
  }
}

/**
 * The tokens of a line as strings.
 *
 * @param text - the line
 * @param tokens - a reusable {@link Tokens}
 * @returns the tokens in order, each a substring of `text`
 * @example
 * ```ts
 * tokenTexts('Acme Corp.', new Tokens()); // ['Acme', 'Corp', '.']
 * ```
 */
export function tokenTexts(text: string, tokens: Tokens): string[] {
  const count = tokens.cut(text);
  const out = new Array<string>(count);
  for (let t = 0; t < count; t++) out[t] = text.slice(tokens.start(t), tokens.end(t));
  return out;
}

/**
 * Whether a character span holds a character of some token, i.e. is not white space only.
 *
 * @param text - the line
 * @param startChar - inclusive
 * @param endChar - exclusive
 * @returns true when the span can be snapped to tokens
 * @remarks Checks the span's characters only, without cutting the line.
 */
export function coversToken(text: string, startChar: number, endChar: number): boolean {
  for (let at = Math.max(0, startChar); at < Math.min(endChar, text.length); at++) {
    if (classOf(text, at, text.charCodeAt(at)) !== 0) return true;
  }
  return false;
}
