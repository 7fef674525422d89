/**
 * Parses JSON text and records the 1-based line where each value starts, by path.
 *
 * @param text - JSON text
 * @returns `value` and `lineOf(path)`, where path is a list of keys and indexes (`['labels', 2, 'name']`);
 * a path that does not exist gives the line of its nearest existing ancestor
 * @throws SyntaxError whose message names the 1-based line and column of the fault
 * @remarks `JSON.parse` does not always say where a syntax error is (V8 gives a position for some
 * errors and only a snippet for others) and says nothing about where a valid value sits; data-file
 * errors must name the line, so this small strict scanner walks the text once, then `JSON.parse`
 * builds the value.
 * @example
 * ```ts
 * const { lineOf } = parseJsonWithLines('{\n "a": [1,\n 2]\n}');
 * lineOf(['a', 1]); // 3
 * ```
 */
export function parseJsonWithLines(text: string): { value: unknown; lineOf: (path: (string | number)[]) => number } {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} (line ${line} column ${i - lineStart + 1})`);
  };
  const skip = () => {
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\n') {
        line++;
        lineStart = i + 1;
      } else if (c !== ' ' && c !== '\t' && c !== '\r') break;
    }
  };
  const expectChar = (c: string, what: string) => {
    skip();
    if (text[i] !== c) fail(i >= text.length ? `unexpected end of JSON, expected ${what}` : `unexpected ${JSON.stringify(text[i])}, expected ${what}`);
    i++;
  };
  const readString = (): string => {
    const start = i;
    for (i++; text[i] !== '"'; i++) {
      if (i >= text.length || text.charCodeAt(i) < 0x20) fail('unterminated string');
      if (text[i] === '\\') i++;
    }
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      i = start;
      return fail('bad escape in string');
    }
  };
  const walk = (path: string): void => {
    skip();
    lines.set(path, line);
    const c = text[i];
    if (c === '{') {
      i++;
      skip();
      if (text[i] === '}') return void i++;
      for (;;) {
        skip();
        if (text[i] !== '"') fail(`unexpected ${text[i] === undefined ? 'end of JSON' : JSON.stringify(text[i])}, expected a property name in double quotes`);
        const key = readString();
        expectChar(':', '":"');
        walk(`${path}/${key}`);
        skip();
        if (text[i] === ',') i++;
        else return expectChar('}', '"," or "}"');
      }
    } else if (c === '[') {
      i++;
      skip();
      if (text[i] === ']') return void i++;
      for (let index = 0; ; index++) {
        walk(`${path}/${index}`);
        skip();
        if (text[i] === ',') i++;
        else return expectChar(']', '"," or "]"');
      }
    } else if (c === '"') readString();
    else {
      const token = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
      if (!token) fail(i >= text.length ? 'unexpected end of JSON, expected a value' : `unexpected ${JSON.stringify(text[i])}, expected a value`);
      i += token![0].length;
    }
  };
  walk('');
  skip();
  if (i < text.length) fail(`unexpected ${JSON.stringify(text[i])} after the end of the JSON value`);
  return {
    value: JSON.parse(text) as unknown,
    lineOf: (path) => {
      for (let n = path.length; n >= 0; n--) {
        const found = lines.get(path.slice(0, n).map((k) => `/${k}`).join(''));
        if (found !== undefined) return found;
      }
      return 1;
    },
  };
}
