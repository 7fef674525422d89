import type { DataErrorProblem } from './dataError.js';
import type { LabelInput } from './types.js';

const COLUMNS = ['id', 'parentId', 'name', 'color', 'desc', 'type'] as const;

/** Splits one CSV record (RFC 4180 quoting, one line, no line breaks inside quotes). */
function splitRecord(text: string): string[] | string {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let cell = '';
      for (i++; ; i++) {
        if (i >= text.length) return 'a quoted cell is not closed (line breaks inside quotes are not supported)';
        if (text[i] === '"') {
          if (text[i + 1] === '"') cell += text[i++];
          else break;
        } else cell += text[i];
      }
      i++;
      cells.push(cell);
      if (i < text.length && text[i] !== ',') return `a quoted cell must end at a comma, found ${JSON.stringify(text[i])}`;
    } else {
      const comma = text.indexOf(',', i);
      const end = comma === -1 ? text.length : comma;
      cells.push(text.slice(i, end).trim());
      i = end;
    }
    if (i >= text.length) return cells;
    i++; // the comma
  }
}

/**
 * Reads a label set from CSV: a header row naming the columns, then one label per row.
 *
 * @param text - the file's text
 * @param file - the file's path, for problems
 * @returns the labels, the 1-based line of each label's row, and every problem (with its line)
 * @remarks Columns: `id` and `name` are required; `parentId`, `color`, `desc` and `type` are
 * optional, in any order. An empty cell means null (or `SPAN` for `type`). Blank lines are skipped.
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
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let header: string[] | undefined;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const cells = splitRecord(raw);
    if (typeof cells === 'string') return void problems.push({ file, line, message: cells });
    if (!header) {
      header = cells;
      const unknown = cells.filter((c) => !(COLUMNS as readonly string[]).includes(c));
      if (unknown.length > 0) problems.push({ file, line, message: `unknown column(s) ${unknown.map((c) => `"${c}"`).join(', ')} (allowed: ${COLUMNS.join(', ')})` });
      for (const required of ['id', 'name']) if (!cells.includes(required)) problems.push({ file, line, message: `the header needs a "${required}" column` });
      const twice = cells.filter((c, i) => cells.indexOf(c) !== i);
      if (twice.length > 0) problems.push({ file, line, message: `column(s) ${twice.join(', ')} appear twice` });
      return;
    }
    if (cells.length !== header.length) {
      return void problems.push({ file, line, message: `has ${cells.length} cells, the header has ${header.length}` });
    }
    const row = Object.fromEntries(header.map((column, i) => [column, cells[i] === '' ? null : cells[i]!]));
    const label: Record<string, unknown> = { id: row.id ?? '', name: row.name ?? '', parentId: row.parentId ?? null, color: row.color ?? null, desc: row.desc ?? null };
    if (row.type) label.type = row.type;
    labels.push(label as unknown as LabelInput);
    rowLines.push(line);
  });
  if (!header) problems.push({ file, line: 1, message: 'the file is empty: it needs a header row (id,parentId,name,color) and one row per label' });
  return { labels, rowLines, problems };
}
