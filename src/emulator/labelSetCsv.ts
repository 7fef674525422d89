import { CsvError, parse } from 'csv-parse/sync';
import type { DataErrorProblem } from './dataError.js';
import type { LabelInput } from './types.js';

const COLUMNS = ['id', 'parentId', 'name', 'color', 'desc', 'type'] as const;

/** The 1-based line where a record starts: where it ends, less the line breaks inside its quoted cells. */
const startLine = (record: string[], endLine: number) => endLine - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);

/** Reads the records, each with the line it starts on; on a CSV syntax error, the problem with its line. */
function readRecords(text: string, file: string): { records: { cells: string[]; line: number }[]; problem?: DataErrorProblem } {
  let lastEnd = 0;
  try {
    const rows = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true, on_record: (row, { lines }) => ((lastEnd = lines), row) }) as unknown as { record: string[]; info: { lines: number } }[];
    return { records: rows.map(({ record, info }) => ({ cells: record, line: startLine(record, info.lines) })) };
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
      // The broken record starts on the first non-blank line after the last good one.
      const lines = text.split(/\r?\n/);
      let line = lastEnd + 1;
      while (line < lines.length && lines[line - 1]!.trim() === '') line++;
      return { records: [], problem: { file, line, message: 'a quoted cell is not closed: it runs to the end of the file (a quote inside a quoted cell is written "")' } };
    }
    return { records: [], problem: { file, line: ('lines' in error && typeof error.lines === 'number' ? error.lines : undefined) ?? lastEnd + 1, message: error.message } };
  }
}

/**
 * Reads a label set from CSV: a header row naming the columns, then one label per row.
 *
 * @param text - the file's text
 * @param file - the file's path, for problems
 * @returns the labels, the 1-based line of each label's row, and every problem (with its line)
 * @remarks Parsed with `csv-parse` (RFC 4180: quoted cells may hold commas, `""` and line
 * breaks). Columns: `id` and `name` are required; `parentId`, `color`, `desc` and `type` are
 * optional, in any order. An empty cell means null (or `SPAN` for `type`). Blank lines are
 * skipped; whitespace around cells is trimmed. A label's line is the line its row starts on.
 * @example
 * ```csv
 * id,parentId,name,color
 * 10,,ENTITY,#6b7280
 * 11,10,PERSON,#ef4444
 * ```
 */
export function parseLabelSetCsv(text: string, file: string): { labels: LabelInput[]; rowLines: number[]; problems: DataErrorProblem[] } {
  const problems: DataErrorProblem[] = [];
  const labels: LabelInput[] = [];
  const rowLines: number[] = [];
  const { records, problem } = readRecords(text, file);
  if (problem) return { labels, rowLines, problems: [problem] };
  let header: string[] | undefined;
  for (const { cells, line } of records) {
    if (!header) {
      header = cells;
      const unknown = cells.filter((c) => !(COLUMNS as readonly string[]).includes(c));
      if (unknown.length > 0) problems.push({ file, line, message: `unknown column(s) ${unknown.map((c) => `"${c}"`).join(', ')} (allowed: ${COLUMNS.join(', ')})` });
      for (const required of ['id', 'name']) if (!cells.includes(required)) problems.push({ file, line, message: `the header needs a "${required}" column` });
      const twice = cells.filter((c, i) => cells.indexOf(c) !== i);
      if (twice.length > 0) problems.push({ file, line, message: `column(s) ${twice.join(', ')} appear twice` });
      continue;
    }
    if (cells.length !== header.length) {
      problems.push({ file, line, message: `has ${cells.length} cells, the header has ${header.length}` });
      continue;
    }
    const row = Object.fromEntries(header.map((column, i) => [column, cells[i] === '' ? null : cells[i]!]));
    const label: Record<string, unknown> = { id: row.id ?? '', name: row.name ?? '', parentId: row.parentId ?? null, color: row.color ?? null, desc: row.desc ?? null };
    if (row.type) label.type = row.type;
    labels.push(label as unknown as LabelInput);
    rowLines.push(line);
  }
  if (!header) problems.push({ file, line: 1, message: 'the file is empty: it needs a header row (id,parentId,name,color) and one row per label' });
  return { labels, rowLines, problems };
}
