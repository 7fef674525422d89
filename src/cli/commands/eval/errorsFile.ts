import { access, constants, stat } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import type { EvalCursor, MistakeRow } from '../../../eval/index.js';
import { csvRow } from '../../../shared/escape.js';
import { writeFileAtomically } from '../../../shared/fileWrites.js';
import type { UsageProblem } from '../../usageError.js';

/** Where `--errors` writes, and in which format (from the file's extension). */
export interface ErrorsTarget {
  path: string;
  format: 'csv' | 'ndjson';
}

/** The CSV columns of `labelkit eval --errors FILE.csv`, in order. */
export const ERRORS_CSV_COLUMNS = [
  'document',
  'file',
  'line',
  'kind',
  'layer',
  'gold_label',
  'gold_start',
  'gold_end',
  'gold_text',
  'predicted_label',
  'predicted_start',
  'predicted_end',
  'predicted_text',
  'confidence',
] as const;

const FORMATS: Record<string, ErrorsTarget['format']> = { '.csv': 'csv', '.ndjson': 'ndjson', '.jsonl': 'ndjson' };

/**
 * Checks `--errors FILE` before anything is read: its extension names a format, and the file can be
 * written (its folder exists and is writable; an existing file is a writable file).
 *
 * @param value - the flag's value, or undefined when not given
 * @param problems - receives one problem naming `--errors` when the file will not do
 * @returns the target, or undefined (not given, or a problem was added); nothing is created
 */
export async function checkErrorsFile(value: string | undefined, problems: UsageProblem[]): Promise<ErrorsTarget | undefined> {
  if (value === undefined) return undefined;
  const format = FORMATS[extname(value).toLowerCase()];
  if (value.trim() === '' || format === undefined) {
    problems.push({ field: '--errors', message: `must be a file ending in .csv, .ndjson or .jsonl (the format follows the extension), got "${value}"` });
    return undefined;
  }
  const path = await checkWritableFile(value, '--errors', problems);
  return path === undefined ? undefined : { path, format };
}

/**
 * Checks, before anything is read, that a file named by a flag can be written: its folder exists
 * and is writable; an existing file is a writable file, not a folder. Nothing is created.
 *
 * @param value - the flag's value
 * @param field - the flag, e.g. `--json-out`, named in the problem
 * @param problems - receives one problem naming the flag when the file will not do
 * @returns the file's absolute path, or undefined (a problem was added)
 */
export async function checkWritableFile(value: string, field: string, problems: UsageProblem[]): Promise<string | undefined> {
  if (value.trim() === '') {
    problems.push({ field, message: 'must name a file' });
    return undefined;
  }
  const path = resolve(value);
  const unwritable = (why: string) => {
    problems.push({ field, message: `cannot write ${value}: ${why}` });
    return undefined;
  };
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) return unwritable('it is a folder');
  try {
    if (existing) await access(path, constants.W_OK);
    else {
      const folder = await stat(dirname(path)).catch(() => null);
      if (!folder?.isDirectory()) return unwritable(`folder ${dirname(value)} does not exist`);
      await access(dirname(path), constants.W_OK);
    }
  } catch {
    return unwritable(existing ? 'the file is not writable' : `folder ${dirname(value)} is not writable`);
  }
  return path;
}

const cursor = (c: EvalCursor | null) => (c === null ? null : `${c.sentenceId}:${c.tokenId}:${c.charId}`);

/**
 * The mistakes as the file's text.
 *
 * @param rows - the mistakes, in document order
 * @param format - `csv`: a header ({@link ERRORS_CSV_COLUMNS}) and one row each, spans as
 * `sentence:token:char`; `ndjson`: one JSON object ({@link MistakeRow}) per line
 * @returns the text, ending with a line break
 */
export function formatErrors(rows: readonly MistakeRow[], format: ErrorsTarget['format']): string {
  if (format === 'ndjson') return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  const lines = [ERRORS_CSV_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push(
      csvRow([r.documentId, r.fileName, r.line, r.kind, r.layer, r.goldLabel, cursor(r.goldStart), cursor(r.goldEnd), r.goldText, r.predictedLabel, cursor(r.predictedStart), cursor(r.predictedEnd), r.predictedText, r.confidence]),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes the mistakes to the `--errors` file, whole or not at all: a temporary file beside it
 * (created exclusively, never through a symbolic link), fsynced, renamed onto it.
 *
 * @param target - from {@link checkErrorsFile}
 * @param rows - the mistakes
 * @throws `FileWriteError` naming the file when the write fails (a full disk; exit 4): the old
 * file stays as it was
 */
export async function writeErrorsFile(target: ErrorsTarget, rows: readonly MistakeRow[]): Promise<void> {
  await writeFileAtomically(target.path, formatErrors(rows, target.format), { kept: 'the old file, if any, is kept' });
}
