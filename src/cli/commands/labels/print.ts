import type { LabelRow } from 'labelkit/labels';
import { csvRow } from '../../../shared/escape.js';
import type { Printer } from '../../io.js';

/**
 * The CSV columns of `labelkit labels --csv`, in order.
 *
 * @remarks A label's place is the service's (`TextCursor`): a line (`sentence`), a token of that
 * line, and a character counted from that token's start, both ends inclusive. The columns say so
 * (`start_char_in_token`, `last_char_in_token`, `end_sentence`) rather than reuse `start_char` and
 * `end_char`, which the data folder and the model contract use for offsets within the line with
 * an exclusive end.
 */
export const LABEL_CSV_COLUMNS = [
  'document',
  'file',
  'sentence',
  'start_token',
  'start_char_in_token',
  'end_sentence',
  'end_token',
  'last_char_in_token',
  'text',
  'label',
  'label_id',
  'layer',
  'labeled_by',
  'confidence',
  'deleted',
] as const;

/**
 * Prints the labels of `labelkit labels` as they are read.
 *
 * @param printer - where to print
 * @param format - `text`: `document:sentence  "text"  LABEL` per line; `json`: one JSON object per
 * label (NDJSON); `csv`: a header ({@link LABEL_CSV_COLUMNS}), then one row per label
 * @returns `row(label)` to print one label
 */
export function labelPrinter(printer: Printer, format: 'text' | 'json' | 'csv'): (row: LabelRow) => void {
  if (format === 'json') return (row) => printer.json(row);
  if (format === 'csv') {
    printer.out(LABEL_CSV_COLUMNS.join(','));
    return (r) =>
      printer.out(
        csvRow([r.documentId, r.fileName, r.start.sentenceId, r.start.tokenId, r.start.charId, r.end.sentenceId, r.end.tokenId, r.end.charId, r.text, r.label ?? r.labelId, r.labelId, r.layer, r.labeledBy, r.confidenceScore, r.deleted]),
      );
  }
  return (r) => {
    const extra = [r.labeledBy, r.confidenceScore === null ? null : `confidence ${r.confidenceScore}`, r.deleted ? 'deleted' : null].filter(Boolean).join(', ');
    printer.out(`${r.fileName}:${r.sentenceId}  ${r.text === null ? '(text unknown)' : JSON.stringify(r.text)}  ${r.label ?? `[${r.labelId}]`}${r.layer > 0 ? ` (layer ${r.layer})` : ''}${extra ? `  ${extra}` : ''}`);
  };
}

/**
 * Says on stderr how many labels were listed (the text format only: stdout stays data).
 *
 * @param printer - where to print
 * @param count - labels listed
 */
export function printLabelCount(printer: Printer, count: number): void {
  printer.err(`labelkit: ${count} label${count === 1 ? '' : 's'}`);
}
