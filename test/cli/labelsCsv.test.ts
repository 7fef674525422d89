import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { LABEL_CSV_COLUMNS, labelPrinter } from '../../src/cli/commands/labels/print.js';
import { createPrinter } from '../../src/cli/io.js';
import type { LabelRow } from '../../src/labels/index.js';
import { fakeIo } from '../support/fakeIo.js';
import { docSection } from '../support/docs.js';

/** A label from token 3 of line 0 ("Acme") to the 4th character of token 0 of line 1 ("Corp"). */
const row: LabelRow = {
  documentId: 'news-1',
  fileName: 'news-1.txt',
  sentenceId: 0,
  text: 'Acme\nCorp',
  label: 'ORG',
  labelId: 'org',
  layer: 0,
  labeledBy: 'REVIEWER',
  confidenceScore: null,
  deleted: false,
  start: { sentenceId: 0, tokenId: 3, charId: 0 },
  end: { sentenceId: 1, tokenId: 0, charId: 3 },
};

describe('labelPrinter (labels --csv)', () => {
  it('names token positions for what they are, not start_char/end_char (line offsets with an exclusive end elsewhere), and gives the end line', () => {
    const io = fakeIo();
    labelPrinter(createPrinter(io), 'csv')(row);
    const [record] = parse(io.out(), { columns: true }) as Record<string, string>[];
    // start_char/end_char mean offsets within the line, end exclusive, in the data folder and the
    // model contract; here the numbers are characters within a token, end inclusive.
    expect(Object.keys(record!)).not.toContain('start_char');
    expect(Object.keys(record!)).not.toContain('end_char');
    expect(record).toMatchObject({
      sentence: '0',
      start_token: '3',
      start_char_in_token: '0',
      end_sentence: '1',
      end_token: '0',
      last_char_in_token: '3',
      text: 'Acme\nCorp',
    });
  });

  it('is the header docs/evaluation.md shows for labels --csv', () => {
    expect(docSection('`labelkit labels`').text).toContain(`\n${LABEL_CSV_COLUMNS.join(',')}\n`);
  });
});
