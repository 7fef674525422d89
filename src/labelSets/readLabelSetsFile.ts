import { readFile } from 'node:fs/promises';
import { decodeUtf8 } from '../shared/decodeUtf8.js';
import { LabelSetsFileError } from './errors.js';
import type { FileProblem } from './errors.js';
import { parseLabelSetsFile } from './parseLabelSetsFile.js';
import type { ParsedLabelSetsFile } from './parseLabelSetsFile.js';

/**
 * Reads a label-set file (JSON, or YAML for `.yaml`/`.yml`) and checks it.
 *
 * @param path - the file; it is named this way in every message
 * @returns the checked sets and a way to name the line of any value
 * @throws {@link LabelSetsFileError} when the file cannot be read (`file: cannot read: …`, no line), or
 * listing every syntax or rule problem, each with its line (see {@link parseLabelSetsFile}), and
 * every line whose bytes are not UTF-8 (a UTF-16 file is one problem)
 * @remarks A UTF-8 byte-order mark is dropped.
 * @example
 * ```ts
 * const { spec } = await readLabelSetsFile('labels.json');
 * const plan = await planLabelSets(client, spec.projectId!, spec.role!, spec);
 * ```
 */
export async function readLabelSetsFile(path: string): Promise<ParsedLabelSetsFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new LabelSetsFileError(path, [{ file: path, message: `cannot read: ${why}` }]);
  }
  const { text, problems } = decodeUtf8(bytes);
  if (problems.length === 0) return parseLabelSetsFile(text, path);
  // Bytes that are not UTF-8 never reach a plan (they would be written to the service as U+FFFD);
  // the rest of the file is still checked, so that every problem shows at once. A syntax error on
  // a line that is not UTF-8 is most likely that line's bytes again.
  const encoding: FileProblem[] = problems.map((p) => ({ file: path, line: p.line, message: p.message }));
  if (text === '') throw new LabelSetsFileError(path, encoding);
  let others: FileProblem[] = [];
  try {
    parseLabelSetsFile(text, path);
  } catch (error) {
    if (!(error instanceof LabelSetsFileError)) throw error;
    const bad = new Set(problems.map((p) => p.line));
    others = error.problems.filter((p) => !(p.line !== undefined && bad.has(p.line) && /^not (JSON|YAML):/.test(p.message)));
  }
  throw new LabelSetsFileError(path, [...encoding, ...others].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
}
