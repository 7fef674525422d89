import { Composer, CST, isScalar, LineCounter, Lexer, Parser, visit } from 'yaml';
import type { Document } from 'yaml';
import { MAX_FILE_NESTING } from '../shared/constants.js';
import { isRecord } from '../shared/isRecord.js';
import { jsonNestingProblem, jsonSyntaxProblems, nestingRule, parseJsonWithLines } from '../shared/jsonLocations.js';
import { checkLabelSets, pathText } from './checkLabelSets.js';
import type { ValuePath } from './checkLabelSets.js';
import { LabelSetsFileError } from './errors.js';
import type { FileProblem } from './errors.js';
import type { LabelSetsFile } from './types.js';

/** A label-set file read and checked: the sets, and where each value sits in the file. */
export interface ParsedLabelSetsFile {
  /** The file's name as given (it prefixes every message). */
  name: string;
  /** The document, checked and typed. */
  spec: LabelSetsFile;
  /**
   * `file:line` of a value, e.g. `labels.yaml:12`.
   * @param path - keys and indexes; a path that does not exist gives its nearest ancestor's line
   */
  where(path: ValuePath): string;
}

/** Text fields: in YAML a plain `id: 10` is the number 10; its source text is what was meant. */
const TEXT_KEYS = new Set(['projectId', 'cabinetId', 'id', 'parentId', 'parent', 'name', 'labelName', 'desc']);
const YAML_COMMENTED_COLOR = /^([0-9a-f]{6})\b/i;

/**
 * Whether a file name says YAML.
 *
 * @param name - a file name or path
 * @returns true for `.yaml` and `.yml` (any case)
 */
export function isYamlFileName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}

/**
 * Parses and checks the text of a label-set file: JSON (what `labelkit label-sets --json`
 * prints), or YAML with the same fields when the name ends in `.yaml`/`.yml`.
 *
 * @param text - the file's contents
 * @param name - the file's name, for the format and for messages
 * @returns the checked document and a way to name the line of any value
 * @throws {@link LabelSetsFileError} listing every problem at once, each as `file:line: path: rule`:
 * syntax errors (then nothing else is checked), a key given twice in one object (JSON; YAML
 * refuses it as a syntax error), and every rule of {@link checkLabelSets}; an unquoted colour
 * that breaks the YAML (`{ color: #ef4444 }`, whose `}` the comment swallows) is named at its own
 * line with the hint to quote it, in place of the syntax errors after it; lists and objects
 * nested more than `MAX_FILE_NESTING` (64) levels deep, and YAML aliases that stand for more
 * than 100 values (YAML's `maxAliasCount`), are each one problem at their line, and nothing else
 * is checked then
 * @remarks JSON is strict (no comments, no trailing commas). In YAML, a plain number where text
 * is expected (`id: 010`) is taken as written (`"010"`), and an unquoted colour (`color: #ef4444`,
 * which YAML reads as a comment, so as null) is refused with a hint to quote it.
 * @example
 * ```ts
 * const { spec, where } = parseLabelSetsFile(await readFile('labels.yaml', 'utf8'), 'labels.yaml');
 * where(['labelSets', 0, 'name']); // 'labels.yaml:3'
 * ```
 */
export function parseLabelSetsFile(text: string, name: string): ParsedLabelSetsFile {
  const parsed = isYamlFileName(name) ? parseYaml(text) : parseJson(text);
  if ('syntax' in parsed) throw new LabelSetsFileError(name, parsed.syntax.map((p) => ({ file: name, ...p })));
  const at = (path: ValuePath, message: string, line = parsed.lineOf(path)): FileProblem => ({ file: name, line, message });
  const { file, problems } = checkLabelSets(parsed.value);
  const all = [
    ...parsed.extra.map((p) => at(p.path, `${pathText(p.path)}: ${p.message}`, p.line)),
    ...problems.map((p) => at(p.path, `${pathText(p.path)}: ${p.message}`)),
  ];
  if (all.length > 0 || !file) throw new LabelSetsFileError(name, all.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  return { name, spec: file, where: (path) => `${name}:${parsed.lineOf(path)}` };
}

type Parsed =
  | { syntax: { line: number; message: string }[]; lineOf?: undefined }
  | { value: unknown; lineOf: (path: ValuePath) => number; extra: { path: ValuePath; message: string; line?: number }[] };

/**
 * How many values YAML's aliases (`*name`) may stand for, nested ones counted as the YAML library
 * counts them (its `maxAliasCount`, whose default this is): a few shared colours are far below it;
 * a "billion laughs" file, whose aliases each stand for ten of the one before, is far above.
 */
const MAX_YAML_ALIASES = 100;

function parseJson(text: string): Parsed {
  const deep = jsonNestingProblem(text);
  if (deep) return { syntax: [{ line: deep.line, message: `too deep: ${deep.message} (column ${deep.column}; a label-set file needs 5)` }] };
  try {
    const { value, lineOf, duplicateKeys } = parseJsonWithLines(text);
    // YAML refuses a repeated key; JSON.parse would keep the last one silently.
    const extra = duplicateKeys.map(({ path, line, message }) => ({ path, line, message }));
    return { value, lineOf, extra };
  } catch {
    return { syntax: jsonSyntaxProblems(text).map((p) => ({ line: p.line, message: `not JSON: ${p.message} (column ${p.column})` })) };
  }
}

function parseYaml(text: string): Parsed {
  const lineCounter = new LineCounter();
  // Nesting is counted before YAML's composer sees the file: it recurses once per level, and past
  // a few thousand levels Node runs out of stack (or, in a regular expression, aborts).
  const flowTooDeep = yamlFlowTooDeep(text);
  if (flowTooDeep !== undefined) return { syntax: [{ line: flowTooDeep, message: `too deep: ${nestingRule()} (a label-set file needs 5)` }] };
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const { tooDeepAt, comments } = scanTokens(tokens);
  if (tooDeepAt !== undefined) return { syntax: [{ line: lineCounter.linePos(tooDeepAt).line, message: `too deep: ${nestingRule()} (a label-set file needs 5)` }] };
  const docs = [...new Composer({ prettyErrors: false }).compose(tokens, true, text.length)];
  const doc = docs[0]!;
  if (docs.length > 1) {
    const at = docs[1]!.range[0];
    return { syntax: [{ line: lineCounter.linePos(at).line, message: 'not YAML: a second document (after ---): a label-set file is one document' }] };
  }
  if (doc.errors.length > 0) {
    const syntax = doc.errors.map((e) => ({ at: e.pos[0], line: lineCounter.linePos(e.pos[0]).line, message: `not YAML: ${e.message.split('\n')[0]}` }));
    // `{ labelName: A, color: #ef4444 }`: the `#` starts a comment that swallows the `}`, and YAML
    // complains about the line after. Name the colour's line and the cause instead; a syntax error
    // after it is most likely its echo, and shows again once the colour is quoted.
    const colors = commentedColors(text, comments);
    if (colors.length === 0) return { syntax: syntax.map(({ line, message }) => ({ line, message })) };
    const before = syntax.filter((e) => e.at < colors[0]!.at).map(({ line, message }) => ({ line, message }));
    const hints = colors.map((c) => ({
      line: lineCounter.linePos(c.at).line,
      message: `not YAML: # starts a comment in YAML, so ${JSON.stringify(c.comment)} (the rest of the line) was read as a comment, not as the ${c.key}; write the colour in quotes: ${c.key}: "#${c.hex}"`,
    }));
    return { syntax: [...before, ...hints] };
  }
  const lineOf = (path: ValuePath) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) return lineCounter.linePos(node.range[0]).line;
    }
    return 1;
  };
  const extra: { path: ValuePath; message: string }[] = [];
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as unknown;
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    // The YAML library's own guard; it does not say which alias, so the first one is named.
    return { syntax: [{ line: firstAliasLine(doc, lineCounter), message: `too many aliases: the aliases (*name) stand for more values than a YAML reader here takes (at most ${MAX_YAML_ALIASES}: the guard against "billion laughs" files, which make a reader run out of memory); write the values out` }] };
  }
  walk(value, [], (path, key, holder) => {
    const node = doc.getIn(path, true);
    if (!isScalar(node)) return;
    if (TEXT_KEYS.has(key) && typeof node.value === 'number' && typeof node.source === 'string') holder[key] = node.source;
    if (key === 'color' && node.value === null && node.source === '' && typeof node.comment === 'string') {
      const hex = YAML_COMMENTED_COLOR.exec(node.comment.trim());
      if (hex) extra.push({ path, message: `write the colour in quotes, color: "#${hex[1]}" (in YAML # starts a comment, so it was read as no colour)` });
    }
  });
  return { value, lineOf, extra };
}

/**
 * The line of the first `[` or `{` of a YAML text nested deeper than a data file may, read by
 * YAML's lexer (which does not recurse, and is quick where its parser is slow on deep nesting).
 *
 * @param text - the YAML text
 * @returns the 1-based line, or undefined when flow collections nest no deeper than `MAX_FILE_NESTING` (64)
 */
function yamlFlowTooDeep(text: string): number | undefined {
  let depth = 0;
  let line = 1;
  for (const source of new Lexer().lex(text)) {
    const type = CST.tokenType(source);
    if (type === 'flow-map-start' || type === 'flow-seq-start') {
      depth += 1;
      if (depth > MAX_FILE_NESTING) return line;
    } else if (type === 'flow-map-end' || type === 'flow-seq-end') depth = Math.max(0, depth - 1);
    for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) line += 1;
  }
  return undefined;
}

/** The token types of YAML's concrete syntax tree that nest (what `CST.isCollection` tells apart). */
const COLLECTIONS = new Set<unknown>(['block-map', 'block-seq', 'flow-collection']);

/**
 * Walks YAML's concrete syntax tree without recursion: the offset of the first collection nested
 * deeper than `MAX_FILE_NESTING` (64) (block or flow), and every comment.
 *
 * @param tokens - the parser's top-level tokens
 * @returns `tooDeepAt`, an offset, when the tree nests too deep; `comments`, in no set order
 */
function scanTokens(tokens: CST.Token[]): { tooDeepAt?: number; comments: { offset: number; source: string }[] } {
  const comments: { offset: number; source: string }[] = [];
  const stack: [unknown, number][] = tokens.map((token) => [token, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (Array.isArray(token)) {
      for (const child of token as unknown[]) stack.push([child, depth]);
    } else if (isRecord(token)) {
      if (token.type === 'comment' && typeof token.offset === 'number' && typeof token.source === 'string') {
        comments.push({ offset: token.offset, source: token.source });
        continue;
      }
      const inner = COLLECTIONS.has(token.type) ? depth + 1 : depth;
      if (inner > MAX_FILE_NESTING) return { tooDeepAt: typeof token.offset === 'number' ? token.offset : 0, comments };
      for (const child of Object.values(token)) if (typeof child === 'object' && child !== null) stack.push([child, inner]);
    }
  }
  return { comments };
}

/** The line of the first alias (`*name`) of a YAML document. */
function firstAliasLine(doc: Document.Parsed, lineCounter: LineCounter): number {
  let offset: number | undefined;
  visit(doc, {
    Alias(_, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset === undefined ? 1 : lineCounter.linePos(offset).line;
}

/**
 * The comments of a YAML text that are a colour written unquoted after a key (`color: #ef4444`).
 *
 * @param text - the YAML text
 * @param comments - its comments, as YAML's parser found them (so a `#` inside quotes is no comment)
 * @returns each such comment's offset, key, text (trimmed) and hex digits, in order
 */
function commentedColors(text: string, comments: { offset: number; source: string }[]): { at: number; key: string; comment: string; hex: string }[] {
  return comments.flatMap(({ offset, source }) => {
    const hex = /^#([0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3})\b/i.exec(source)?.[1];
    const key = /([\w-]+)\s*:\s*$/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset))?.[1];
    return hex && key ? [{ at: offset, key, comment: source.trim(), hex }] : [];
  }).sort((a, b) => a.at - b.at);
}

/** Calls `visit` for each key of each object in a parsed document, with its path. */
function walk(value: unknown, path: ValuePath, visit: (path: ValuePath, key: string, holder: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], visit));
  else if (isRecord(value)) {
    for (const key of Object.keys(value)) {
      visit([...path, key], key, value);
      walk(value[key], [...path, key], visit);
    }
  }
}
