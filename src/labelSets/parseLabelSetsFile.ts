import { isScalar, LineCounter, Parser, parseDocument } from 'yaml';
import { isRecord } from '../shared/isRecord.js';
import { jsonSyntaxProblems, parseJsonWithLines } from '../shared/jsonLocations.js';
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
 * line with the hint to quote it, in place of the syntax errors after it
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

function parseJson(text: string): Parsed {
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
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const syntax = doc.errors.map((e) => ({ at: e.pos[0], line: lineCounter.linePos(e.pos[0]).line, message: `not YAML: ${e.message.split('\n')[0]}` }));
    // `{ labelName: A, color: #ef4444 }`: the `#` starts a comment that swallows the `}`, and YAML
    // complains about the line after. Name the colour's line and the cause instead; a syntax error
    // after it is most likely its echo, and shows again once the colour is quoted.
    const colors = commentedColors(text);
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
  const value = doc.toJS() as unknown;
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
 * The comments of a YAML text that are a colour written unquoted after a key (`color: #ef4444`).
 *
 * @param text - the YAML text (read by YAML's own lexer, so a `#` inside quotes is no comment)
 * @returns each such comment's offset, key, text (trimmed) and hex digits, in order
 */
function commentedColors(text: string): { at: number; key: string; comment: string; hex: string }[] {
  const comments: { offset: number; source: string }[] = [];
  const collect = (token: unknown): void => {
    if (Array.isArray(token)) token.forEach(collect);
    else if (isRecord(token)) {
      if (token.type === 'comment' && typeof token.offset === 'number' && typeof token.source === 'string') comments.push({ offset: token.offset, source: token.source });
      else Object.values(token).forEach(collect);
    }
  };
  for (const token of new Parser().parse(text)) collect(token);
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
