import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { EmulatorDataError } from './dataError.js';
import type { DataErrorProblem } from './dataError.js';
import { decodeUtf8 } from '../shared/decodeUtf8.js';
import { isRecord } from '../shared/isRecord.js';
import { parseJsonWithLines } from '../shared/jsonLocations.js';
import type { DuplicateKey } from '../shared/jsonLocations.js';
import { checkLabelSet } from './labelSetCheck.js';
import { checkReviewLabels } from './reviewLabels.js';
import { parseLabelSetCsv } from './labelSetCsv.js';
import { MAX_LABEL_SETS } from '../shared/constants.js';
import { PROJECT_ID } from './store.js';
import type { DocumentInput, LabelSetInput, ProjectInput } from './types.js';

const visible = (dir: string) => readdirSync(dir).filter((name) => !name.startsWith('.')).sort();
const isDir = (path: string) => statSync(path).isDirectory();

/**
 * Reads a data file as UTF-8 text through the one decoder of data files (`decodeUtf8`, a UTF-8
 * byte-order mark dropped); on bytes that are not UTF-8, names the first line that holds some.
 */
function readText(file: string, problems: DataErrorProblem[]): string | undefined {
  const { text, problems: unreadable } = decodeUtf8(readFileSync(file));
  if (unreadable.length === 0) return text;
  problems.push({ file, line: unreadable[0]!.line, message: 'is not valid UTF-8 text' });
  return undefined;
}

function readProjectJson(file: string, problems: DataErrorProblem[]): string | undefined {
  const text = readText(file, problems);
  if (text === undefined) return undefined;
  try {
    const { value, lineOf, duplicateKeys } = parseJsonWithLines(text);
    if (refuseDuplicateKeys(file, duplicateKeys, problems)) return undefined;
    if (!isRecord(value)) return void problems.push({ file, line: 1, message: 'must be a JSON object such as {"name": "My project"}' });
    for (const key of Object.keys(value)) if (key !== 'name') problems.push({ file, line: lineOf([key]), message: `unknown key "${key}" (allowed: name)` });
    const name = (value as Record<string, unknown>).name;
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) return void problems.push({ file, line: lineOf(['name']), message: 'name must be a non-empty string' });
    return name as string | undefined;
  } catch (error) {
    return void problems.push({ file, ...lineOfSyntaxError(error), message: `is not valid JSON: ${(error as Error).message}` });
  }
}

/** A path in a data file as its problems name it: `labels[2].name`. */
const pathText = (path: readonly (string | number)[]) => path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').replace(/^\./, '');

/** Refuses every key given twice in one object of a JSON data file (JSON.parse would keep only the last); true when there was one. */
function refuseDuplicateKeys(file: string, duplicateKeys: readonly DuplicateKey[], problems: DataErrorProblem[]): boolean {
  for (const d of duplicateKeys) problems.push({ file, line: d.line, path: pathText(d.path), message: d.message });
  return duplicateKeys.length > 0;
}

const lineOfSyntaxError = (error: unknown) => {
  const match = /\(line (\d+)/.exec((error as Error).message);
  return match ? { line: Number(match[1]) } : {};
};

function readDocument(file: string, problems: DataErrorProblem[]): DocumentInput | undefined {
  const text = readText(file, problems);
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop(); // the newline that ends the last line
  if (lines.length === 0) return void problems.push({ file, line: 1, message: 'is empty: a document needs at least one line (one sentence per line)' });
  return { id: basename(file, '.txt'), name: basename(file), lines };
}

function readLabelSet(file: string, problems: DataErrorProblem[]): LabelSetInput | undefined {
  const text = readText(file, problems);
  if (text === undefined) return undefined;
  const fallbackName = basename(file, extname(file)).replace(/^\d+[-_]/, '') || basename(file, extname(file)); // `2-dates.csv` → dates
  let raw: unknown;
  let lineOf: (path: (string | number)[]) => number;
  if (extname(file) === '.csv') {
    const parsed = parseLabelSetCsv(text, file);
    if (parsed.problems.length > 0) return void problems.push(...parsed.problems);
    raw = { name: fallbackName, labels: parsed.labels };
    lineOf = (path) => (path[0] === 'labels' && typeof path[1] === 'number' ? parsed.rowLines[path[1]]! : 1);
  } else {
    try {
      const parsed = parseJsonWithLines(text);
      if (refuseDuplicateKeys(file, parsed.duplicateKeys, problems)) return undefined;
      raw = parsed.value;
      lineOf = parsed.lineOf;
    } catch (error) {
      return void problems.push({ file, ...lineOfSyntaxError(error), message: `is not valid JSON: ${(error as Error).message}` });
    }
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !('name' in raw)) raw = { ...raw, name: fallbackName };
  }
  const checked = checkLabelSet(raw);
  if (checked.problems.length > 0) {
    return void problems.push(...checked.problems.map((p) => ({ file, line: lineOf(p.path), ...(p.path.length > 0 && { path: pathText(p.path) }), message: p.message })));
  }
  return raw as LabelSetInput;
}

function readProject(dir: string, id: string, problems: DataErrorProblem[]): ProjectInput | undefined {
  const before = problems.length;
  if (!PROJECT_ID.test(id)) problems.push({ file: dir, message: 'a project folder name is the project id: letters, digits, _ or - only' });
  for (const entry of visible(dir)) {
    if (!['project.json', 'documents', 'label-sets', 'review'].includes(entry)) {
      problems.push({ file: join(dir, entry), message: 'unexpected entry (a project folder holds project.json, documents/, label-sets/ and review/)' });
    }
  }
  const projectJson = join(dir, 'project.json');
  const name = visible(dir).includes('project.json') ? readProjectJson(projectJson, problems) : undefined;
  const documents: DocumentInput[] = [];
  const docsDir = join(dir, 'documents');
  if (!visible(dir).includes('documents') || !isDir(docsDir)) problems.push({ file: docsDir, message: 'is missing: put one .txt file per document in it' });
  else {
    for (const entry of visible(docsDir)) {
      const file = join(docsDir, entry);
      if (extname(entry) !== '.txt' || !statSync(file).isFile()) problems.push({ file, message: 'unexpected entry: documents are .txt files, one sentence per line' });
      else {
        const doc = readDocument(file, problems);
        if (doc) documents.push(doc);
      }
    }
    if (visible(docsDir).length === 0) problems.push({ file: docsDir, message: 'is empty: put one .txt file per document in it' });
  }
  const labelSets: LabelSetInput[] = [];
  const setsDir = join(dir, 'label-sets');
  if (!visible(dir).includes('label-sets') || !isDir(setsDir)) problems.push({ file: setsDir, message: 'is missing: put one .json or .csv file per label set in it' });
  else {
    const files = visible(setsDir);
    if (files.length > MAX_LABEL_SETS) problems.push({ file: setsDir, message: `holds ${files.length} label sets; a project has at most ${MAX_LABEL_SETS}` });
    if (files.length === 0) problems.push({ file: setsDir, message: 'is empty: put one .json or .csv file per label set in it' });
    for (const entry of files) {
      const file = join(setsDir, entry);
      if (!['.json', '.csv'].includes(extname(entry)) || !statSync(file).isFile()) problems.push({ file, message: 'unexpected entry: label sets are .json or .csv files' });
      else {
        const set = readLabelSet(file, problems);
        if (set) labelSets.push(set);
      }
    }
  }
  if (visible(dir).includes('review')) readReview(join(dir, 'review'), documents, labelSets, problems);
  if (problems.length > before) return undefined;
  return { id, ...(name !== undefined && { name }), labelSets, documents };
}

/**
 * Reads `review/<documentId>.json` files (the gold labels of the project's reviewer copy) into
 * their documents' `review`, naming each problem's file and line.
 */
function readReview(reviewDir: string, documents: DocumentInput[], labelSets: LabelSetInput[], problems: DataErrorProblem[]): void {
  if (!isDir(reviewDir)) return void problems.push({ file: reviewDir, message: 'must be a folder of <documentId>.json files' });
  const sets = labelSets.map((set, index) => ({ index, labels: set.labels }));
  for (const entry of visible(reviewDir)) {
    const file = join(reviewDir, entry);
    const doc = documents.find((d) => d.id === basename(entry, '.json'));
    if (extname(entry) !== '.json' || !statSync(file).isFile()) {
      problems.push({ file, message: 'unexpected entry: gold labels are <documentId>.json files' });
      continue;
    }
    if (!doc) {
      problems.push({ file, message: `names no document: documents/${basename(entry, '.json')}.txt does not exist` });
      continue;
    }
    const text = readText(file, problems);
    if (text === undefined) continue;
    let value: unknown;
    let lineOf: (path: (string | number)[]) => number;
    let duplicateKeys: DuplicateKey[];
    try {
      ({ value, lineOf, duplicateKeys } = parseJsonWithLines(text));
    } catch (error) {
      problems.push({ file, ...lineOfSyntaxError(error), message: `is not valid JSON: ${(error as Error).message}` });
      continue;
    }
    if (refuseDuplicateKeys(file, duplicateKeys, problems)) continue;
    if (!isRecord(value) || !('labels' in value)) {
      problems.push({ file, line: 1, message: 'must be a JSON object {"labels": [{"line", "start_char", "end_char", "label", …}]}' });
      continue;
    }
    for (const key of Object.keys(value)) if (key !== 'labels') problems.push({ file, line: lineOf([key]), message: `unknown key "${key}" (allowed: labels)` });
    const labels = (value as { labels: unknown }).labels;
    const checked = checkReviewLabels(labels, doc.lines, sets);
    problems.push(...checked.problems.map((p) => ({ file, line: lineOf(['labels', ...p.path]), path: pathText(['labels', ...p.path]), message: p.message })));
    if (checked.labels) doc.review = checked.labels;
  }
}

/**
 * Reads every project of a data folder.
 *
 * @param dir - the folder: one sub-folder per project, named after the project id
 * @returns the projects, ready for `store.addProject`
 * @throws {@link EmulatorDataError} listing every problem of every file, each with its file and
 * (where it has one) its 1-based line
 * @remarks Layout (files and folders starting with `.` are ignored; other files directly in `dir`
 * are ignored too, e.g. a README):
 * ```
 * DIR/<projectId>/project.json          optional: {"name": "Shown name"}
 * DIR/<projectId>/documents/<docId>.txt one sentence per line (UTF-8); line numbers start at 0
 * DIR/<projectId>/label-sets/<n>.json   {"name", "arrowLabelRequired"?, "labels": [{"id", "parentId"?, "name", "color"?, "desc"?, "type"?}]}
 * DIR/<projectId>/label-sets/<n>.csv    header row id,parentId,name,color,desc,type (id and name required)
 * DIR/<projectId>/review/<docId>.json   optional gold labels (the reviewer copy): {"labels": [{"line", "start_char",
 *                                       "end_char", "label", "layer"?, "text"?, "labeledBy"?, "deleted"?, "confidence_score"?}]}
 * ```
 * Label sets take their `index` from the sorted file names (at most 5); a CSV set, or a JSON set
 * without `name`, is named after its file without a leading ordering prefix (`2-dates.csv` → `dates`).
 * A review file's labels are character spans of the document's lines (as the model's), snapped to
 * tokens when stored; see `ReviewLabelInput` and `checkReviewLabels` for the rules.
 * @example
 * ```ts
 * for (const project of loadDataDir('./data')) emulator.store.addProject(project);
 * ```
 */
export function loadDataDir(dir: string): ProjectInput[] {
  const problems: DataErrorProblem[] = [];
  let entries: string[];
  try {
    if (!isDir(dir)) throw new Error('not a folder');
    entries = visible(dir);
  } catch {
    throw new EmulatorDataError(`data folder ${dir}`, [{ file: dir, message: 'is not a readable folder' }]);
  }
  const projects: ProjectInput[] = [];
  for (const entry of entries) {
    const path = join(dir, entry);
    if (!isDir(path)) continue;
    const project = readProject(path, entry, problems);
    if (project) projects.push(project);
  }
  if (projects.length === 0 && problems.length === 0) problems.push({ file: dir, message: 'holds no project folder (DIR/<projectId>/documents/*.txt and DIR/<projectId>/label-sets/*.json|*.csv)' });
  if (problems.length > 0) throw new EmulatorDataError(`data folder ${dir}`, problems);
  return projects;
}
