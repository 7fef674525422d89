import { readFile } from 'node:fs/promises';
import { LabelSetsFileError } from './errors.js';
import { parseLabelSetsFile } from './parseLabelSetsFile.js';
import type { ParsedLabelSetsFile } from './parseLabelSetsFile.js';

/**
 * Reads a label-set file (JSON, or YAML for `.yaml`/`.yml`) and checks it.
 *
 * @param path - the file; it is named this way in every message
 * @returns the checked sets and a way to name the line of any value
 * @throws {@link LabelSetsFileError} when the file cannot be read (`file: cannot read: …`, no line), or
 * listing every syntax or rule problem, each with its line (see {@link parseLabelSetsFile})
 * @example
 * ```ts
 * const { spec } = await readLabelSetsFile('labels.json');
 * const plan = await planLabelSets(client, spec.projectId!, spec.role!, spec);
 * ```
 */
export async function readLabelSetsFile(path: string): Promise<ParsedLabelSetsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new LabelSetsFileError(path, [{ file: path, message: `cannot read: ${why}` }]);
  }
  return parseLabelSetsFile(text.replace(/^\uFEFF/, ''), path);
}
