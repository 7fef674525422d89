import { isRecord } from '../shared/isRecord.js';
import { LABELED_BY } from './compactLines.js';
import { spanLabelNames } from './spanBinding.js';
import type { LabelSetNames } from './spanBinding.js';
import type { ReviewLabelInput } from './types.js';
import { coversToken } from './tokens.js';

/** A problem of one gold label, with the path of the field inside the list. */
interface ReviewLabelProblem {
  path: (string | number)[];
  message: string;
}

/** What the check needs of a label set: its index and its labels' names and types. */

const KEYS = new Set(['line', 'start_char', 'end_char', 'label', 'layer', 'text', 'labeledBy', 'deleted', 'rejected', 'confidence_score']);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Checks the gold labels of one document and lists every problem at once.
 *
 * @param raw - the labels, unchecked (an array of {@link ReviewLabelInput})
 * @param lines - the document's lines
 * @param labelSets - the project's label sets
 * @returns the labels when there is no problem, and the problems (paths such as `[2, 'label']`)
 * @remarks A label needs an integer `line` of the document, integer offsets with
 * `0 <= start_char < end_char <= the line's length` that hold a character of some token (not white
 * space only), a `label` that the label set of index `layer` (default 0) has as a span label, and,
 * when given, a `text` equal to the line's characters from `start_char` to `end_char`, a
 * `labeledBy` of production's values, a boolean `deleted` and `rejected`, and a `confidence_score` from 0 to 1.
 * Unknown keys are problems too (a misspelt `lable` would otherwise be lost).
 * @example
 * ```ts
 * checkReviewLabels([{ line: 0, start_char: 0, end_char: 3, label: 'PERSON', text: 'Ada' }], ['Ada wrote.'], sets);
 * ```
 */
export function checkReviewLabels(raw: unknown, lines: readonly string[], labelSets: readonly LabelSetNames[]): { labels?: ReviewLabelInput[]; problems: ReviewLabelProblem[] } {
  if (!Array.isArray(raw)) return { problems: [{ path: [], message: 'must be an array of labels ({ line, start_char, end_char, label, … })' }] };
  const problems: ReviewLabelProblem[] = [];
  raw.forEach((value: unknown, i) => {
    const add = (field: string | undefined, message: string) => problems.push({ path: field === undefined ? [i] : [i, field], message });
    if (!isRecord(value)) return add(undefined, 'a label must be an object');
    const l = value as Record<string, unknown>;
    for (const key of Object.keys(l)) if (!KEYS.has(key)) add(key, `unknown key (allowed: ${[...KEYS].join(', ')})`);
    const text = isInt(l.line) && l.line >= 0 && l.line < lines.length ? lines[l.line]! : undefined;
    if (text === undefined) add('line', `must be a line number of the document, 0 to ${lines.length - 1}`);
    const offsetsOk = isInt(l.start_char) && isInt(l.end_char) && l.start_char >= 0 && l.end_char > l.start_char;
    if (!offsetsOk) add('start_char', 'start_char and end_char must be integers with 0 <= start_char < end_char');
    else if (text !== undefined) {
      const [s, e] = [l.start_char as number, l.end_char as number];
      if (e > text.length) add('end_char', `must be at most ${text.length} (the line's length)`);
      else if (!coversToken(text, s, e)) add('start_char', 'the span holds white space only: no token to label');
      else if (l.text !== undefined && l.text !== text.slice(s, e)) add('text', `is ${JSON.stringify(l.text)} but the line has ${JSON.stringify(text.slice(s, e))} there`);
    }
    if (l.text !== undefined && typeof l.text !== 'string') add('text', 'must be a string');
    const layer = l.layer ?? 0;
    const set = isInt(layer) ? spanLabelNames(labelSets).get(layer) : undefined;
    if (!isInt(layer) || layer < 0) add('layer', 'must be an integer >= 0 (the index of a label set)');
    else if (!set) add('layer', `no label set has the index ${layer}`);
    if (typeof l.label !== 'string' || l.label.trim() === '') add('label', 'must be a non-empty label name');
    else if (set && !set.names.has(l.label.toLowerCase())) {
      add('label', `"${l.label}" is not a span label of the label set of index ${layer}`);
    }
    if (l.labeledBy !== undefined && !(LABELED_BY as readonly unknown[]).includes(l.labeledBy)) add('labeledBy', `must be one of ${LABELED_BY.join(', ')}`);
    if (l.deleted !== undefined && typeof l.deleted !== 'boolean') add('deleted', 'must be true or false');
    if (l.rejected !== undefined && typeof l.rejected !== 'boolean') add('rejected', 'must be true or false');
    const c = l.confidence_score;
    if (c !== undefined && !(typeof c === 'number' && c >= 0 && c <= 1)) add('confidence_score', 'must be a number from 0 to 1');
    return undefined;
  });
  return problems.length > 0 ? { problems } : { labels: raw as ReviewLabelInput[], problems };
}
