/**
 * Parses JSON text and records the 1-based line where each value starts, by path.
 *
 * @param text - JSON text
 * @returns `value` and `lineOf(path)`, where path is a list of keys and indexes (`['labels', 2, 'name']`);
 * a path that does not exist gives the line of its nearest existing ancestor
 * @throws SyntaxError whose message names the 1-based line and column of the fault
 * @remarks `JSON.parse` says where a syntax error is only as a character position (and not in
 * every Node version), and says nothing about where a valid value sits; data-file errors must
 * name the line, so this small scanner walks the text once after `JSON.parse` accepted it.
 * @example
 * ```ts
 * const { lineOf } = parseJsonWithLines('{\n "a": [1,\n 2]\n}');
 * lineOf(['a', 1]); // 3
 * ```
 */
export function parseJsonWithLines(text: string): { value: unknown; lineOf: (path: (string | number)[]) => number } {
  const lineAt = (offset: number) => {
    let line = 1;
    for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
    return line;
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    if (!position) throw new SyntaxError(`${message.replace(/\s*\(line \d+ column \d+\)/, '')} (line ${lineAt(text.length)})`);
    const offset = Number(position[1]);
    const line = lineAt(offset);
    const column = offset - text.lastIndexOf('\n', offset - 1);
    throw new SyntaxError(`${message.replace(/ in JSON at position \d+.*$/, '')} (line ${line} column ${column})`);
  }
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const skip = () => {
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') break;
    }
  };
  const readString = () => {
    const start = i;
    for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const walk = (path: string) => {
    skip();
    lines.set(path, line);
    const c = text[i];
    if (c === '{') {
      i++;
      for (skip(); text[i] !== '}'; skip()) {
        if (text[i] === ',') i++;
        skip();
        const key = readString();
        skip();
        i++; // the colon
        walk(`${path}/${key}`);
      }
      i++;
    } else if (c === '[') {
      i++;
      let index = 0;
      for (skip(); text[i] !== ']'; skip()) {
        if (text[i] === ',') i++;
        walk(`${path}/${index++}`);
      }
      i++;
    } else if (c === '"') readString();
    else while (i < text.length && !',]} \t\r\n'.includes(text[i]!)) i++;
  };
  walk('');
  return {
    value,
    lineOf: (path) => {
      for (let n = path.length; n >= 0; n--) {
        const found = lines.get(path.slice(0, n).map((k) => `/${k}`).join(''));
        if (found !== undefined) return found;
      }
      return 1;
    },
  };
}
