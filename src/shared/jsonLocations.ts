import { createScanner, findNodeAtLocation, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { MAX_FILE_NESTING } from './constants.js';

/** Words for the syntax errors of strict JSON (comments and trailing commas are errors too), by jsonc-parser's code name. */
const WORDS: Record<string, string> = {
  InvalidNumberFormat: 'bad number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "," or "}"',
  CloseBracketExpected: 'expected "," or "]"',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'bad number',
  InvalidEscapeCharacter: 'bad escape in string',
  InvalidUnicode: 'bad \\u escape in string',
  InvalidCharacter: 'control character in string',
};

/** What a syntax error says: the unexpected character itself, or what was expected there. */
function describe(error: ParseError, text: string): string {
  const code = printParseErrorCode(error.error);
  if (code === 'InvalidSymbol') return text[error.offset] === undefined ? 'unexpected end of JSON' : `unexpected ${JSON.stringify(text[error.offset])}`;
  return WORDS[code] ?? code;
}

/**
 * Parses JSON text and gives the 1-based line where each value starts, by path.
 *
 * @param text - JSON text (strict: no comments, no trailing commas)
 * @returns `value`, `lineOf(path)`, where path is a list of keys and indexes (`['labels', 2, 'name']`)
 * and a path that does not exist gives the line of its nearest existing ancestor, and
 * `duplicateKeys`: every key given twice in one object (see {@link DuplicateKey})
 * @throws SyntaxError whose message says what is wrong and names the 1-based line and column of the
 * fault, also for lists and objects nested deeper than `MAX_FILE_NESTING` (64) (see {@link jsonNestingProblem})
 * @remarks Positions come from `jsonc-parser` (the parser behind VS Code's JSON support), run in
 * strict mode; `JSON.parse` then builds the value, so the value is exactly what JSON gives.
 * `JSON.parse` alone does not always say where a syntax error is, and never where a valid value
 * sits, and data-file errors must name the line. A key given twice is valid JSON that
 * `JSON.parse` settles silently (the last wins); the caller decides whether to refuse it, as YAML
 * refuses it.
 * @example
 * ```ts
 * const { lineOf } = parseJsonWithLines('{\n "a": [1,\n 2]\n}');
 * lineOf(['a', 1]); // 3
 * ```
 */
export function parseJsonWithLines(text: string): { value: unknown; lineOf: (path: (string | number)[]) => number; duplicateKeys: DuplicateKey[] } {
  const deep = jsonNestingProblem(text);
  if (deep) throw new SyntaxError(`${deep.message} (line ${deep.line} column ${deep.column})`);
  const { lineStarts, lineAt } = lines(text);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first || !root) {
    const offset = first?.offset ?? text.length;
    const line = lineAt(offset);
    const words = first ? describe(first, text) : 'expected a value';
    throw new SyntaxError(`${words} (line ${line} column ${offset - lineStarts[line - 1]! + 1})`);
  }
  return {
    value: JSON.parse(text) as unknown,
    duplicateKeys: duplicateKeysOf(root, lineAt),
    lineOf: (path) => {
      for (let n = path.length; n >= 0; n--) {
        const node = findNodeAtLocation(root, path.slice(0, n));
        if (node) return lineAt(node.offset);
      }
      return 1;
    },
  };
}

/** A key given a second time in one object: `JSON.parse` keeps only the last value. */
export interface DuplicateKey {
  /** The path of the key (its object's path, then the key). */
  path: (string | number)[];
  /** The 1-based line of the repeated key. */
  line: number;
  /** The 1-based line where the key was first given. */
  firstLine: number;
  /** What to tell the author, the same wherever a data file is read. */
  message: string;
}

/** Every repeated key of every object of a parsed tree, in the order of the text. */
function duplicateKeysOf(root: Node, lineAt: (offset: number) => number): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const walk = (node: Node, path: (string | number)[]): void => {
    if (node.type === 'array') node.children?.forEach((child, i) => walk(child, [...path, i]));
    if (node.type !== 'object') return;
    const first = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      const line = lineAt(keyNode.offset);
      const seen = first.get(key);
      if (seen === undefined) first.set(key, line);
      else found.push({ path: [...path, key], line, firstLine: seen, message: `given twice in one object (also on line ${seen}); JSON would keep only this one: write it once` });
      if (valueNode) walk(valueNode, [...path, key]);
    }
  };
  walk(root, []);
  return found;
}

/** One syntax error of a JSON text, where it is (1-based) and what it is. */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

/**
 * Every syntax error of a JSON text, the first of each line (what follows an error on its own
 * line is mostly the parser recovering from it).
 *
 * @param text - JSON text (strict: no comments, no trailing commas)
 * @returns the problems in the order of the text; empty when the text is JSON
 * @remarks {@link parseJsonWithLines} stops at the first error; a file a person wrote may have
 * several, and they want to see them all at once. Same words as its message. A value missing
 * right after an unexpected character (`x` alone) is that character's problem, not a second one.
 * A text nested too deep is that one problem (see {@link jsonNestingProblem}), and nothing else is looked at.
 * @example
 * ```ts
 * jsonSyntaxProblems('{\n "a": 1\n "b": 2,\n "c": [1 2]\n}');
 * // [{ line: 3, column: 2, message: 'expected ","' }, { line: 4, column: 10, message: 'expected ","' }]
 * ```
 */
export function jsonSyntaxProblems(text: string): JsonSyntaxProblem[] {
  const deep = jsonNestingProblem(text);
  if (deep) return [deep];
  const { lineStarts, lineAt } = lines(text);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const problems: JsonSyntaxProblem[] = [];
  let previous: ParseError | undefined;
  for (const error of errors) {
    const line = lineAt(error.offset);
    const after = previous;
    previous = error;
    if (problems.at(-1)?.line === line) continue;
    // `x` alone: the parser skips the unexpected character, then misses the value it stood for;
    // that second error is the first one again, not a problem of its own.
    if (after && printParseErrorCode(after.error) === 'InvalidSymbol' && printParseErrorCode(error.error) === 'ValueExpected' && text.slice(after.offset + after.length, error.offset).trim() === '') continue;
    problems.push({ line, column: error.offset - lineStarts[line - 1]! + 1, message: describe(error, text) });
  }
  if (problems.length === 0 && !root) {
    const line = lineAt(text.length);
    problems.push({ line, column: text.length - lineStarts[line - 1]! + 1, message: 'expected a value' });
  }
  return problems;
}

/**
 * Where a JSON text nests lists and objects deeper than a data file may, if it does.
 *
 * @param text - JSON text (its syntax need not be right)
 * @param max - the deepest nesting allowed
 * @returns the 1-based line and column of the first `[` or `{` one level too deep, and the rule;
 * undefined when the text nests no deeper than `max`
 * @remarks jsonc-parser's tree and visitor recurse once per level and run out of stack near
 * 10,000 levels ("Maximum call stack size exceeded"); its scanner does not recurse, so the depth
 * is counted with it, token by token, before anything parses. Brackets inside strings are not
 * counted (the scanner reads strings whole).
 * @example
 * ```ts
 * jsonNestingProblem('['.repeat(65) + ']'.repeat(65));
 * // { line: 1, column: 65, message: 'lists and objects nested more than 64 levels deep' }
 * ```
 */
export function jsonNestingProblem(text: string, max = MAX_FILE_NESTING): JsonSyntaxProblem | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  // SyntaxKind is a const enum, which isolatedModules cannot read: 1 `{`, 2 `}`, 3 `[`, 4 `]`, 17 the end.
  for (let kind: number = scanner.scan(); kind !== 17; kind = scanner.scan()) {
    if (kind === 1 || kind === 3) {
      depth += 1;
      if (depth > max) return { line: scanner.getTokenStartLine() + 1, column: scanner.getTokenStartCharacter() + 1, message: nestingRule(max) };
    } else if (kind === 2 || kind === 4) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/**
 * The words for a data file nested too deep, the same for JSON and YAML.
 *
 * @param max - the deepest nesting allowed
 * @returns the rule
 */
export function nestingRule(max = MAX_FILE_NESTING): string {
  return `lists and objects nested more than ${max} levels deep`;
}

/** The offsets where lines start, and the 1-based line of an offset. */
function lines(text: string): { lineStarts: number[]; lineAt: (offset: number) => number } {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return { lineStarts, lineAt };
}
