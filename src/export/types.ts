/** The file formats of an export. */
export type ExportFormat = 'conll' | 'jsonl' | 'spacy';

/** The formats, in the order the CLI lists them. */
export const EXPORT_FORMATS: readonly ExportFormat[] = ['conll', 'jsonl', 'spacy'];

/**
 * Why a label of the copy is not in the export as it is (see docs/export.md).
 *
 * - `deleted`, `conflict`, `rejected`: marked so by the service (the gold rule of `labelkit eval`);
 * - `otherLayer`: a label of another label set than `--layer` (not an error under `--strict`);
 * - `unknownLabel`: its item id is in no label of the layer's set;
 * - `multiLine`: it spans two lines, which a per-line format cannot hold;
 * - `hiddenLine`: it is on a line that is hidden or deleted (the line is left out);
 * - `nested`: inside a longer span kept before it; `overlapping`: crossing a span kept before it;
 *   `duplicate`: the same tokens and label as a span kept before it;
 * - `snapped`: kept, but widened to whole tokens (it started or ended inside a token).
 */
export type LeftOutReason = 'deleted' | 'conflict' | 'rejected' | 'otherLayer' | 'unknownLabel' | 'multiLine' | 'hiddenLine' | 'nested' | 'overlapping' | 'duplicate' | 'snapped';

/** The reasons, in the order the summary lists them. */
export const LEFT_OUT_REASONS: readonly LeftOutReason[] = ['deleted', 'conflict', 'rejected', 'otherLayer', 'unknownLabel', 'multiLine', 'hiddenLine', 'nested', 'overlapping', 'duplicate', 'snapped'];

/** The reasons `--strict` refuses: everything a flat format changes, except a label set not asked for and a hidden line. */
export const STRICT_REASONS: ReadonlySet<LeftOutReason> = new Set(['deleted', 'conflict', 'rejected', 'unknownLabel', 'multiLine', 'nested', 'overlapping', 'duplicate', 'snapped']);

/** How many labels and lines an export left out (or changed), by reason. */
export interface LeftOut {
  labels: Record<LeftOutReason, number>;
  /** Lines whose `status` is `HIDDEN` or `DELETED`: left out with their tokens. */
  lines: { hidden: number; deleted: number };
}

/** A span as the export writes it: within one line, whole tokens. */
export interface ExportedSpan {
  /** The first token (index into the line's tokens). */
  startToken: number;
  /** The last token (inclusive). */
  endToken: number;
  /** The first character in the line's text. */
  start: number;
  /** The character after the last one (exclusive, as spaCy reads it). */
  end: number;
  /** The label's name (its tag without `B-`/`I-`). */
  label: string;
}

/** One line of text of an exported document. */
export interface ExportedLine {
  /** The line's number in the document (`TextCursor.sentenceId`): hidden lines leave gaps. */
  line: number;
  text: string;
  /** The service's tokens (`Cell.tokens`). */
  tokens: string[];
  /** Where each token starts in `text`. */
  starts: number[];
  /** One IOB2 tag per token: `O`, `B-LABEL`, `I-LABEL`. */
  tags: string[];
  /** The spans kept, in line order. */
  spans: ExportedSpan[];
}

/** One document of an export, as {@link exportDocuments} yields it. */
export interface ExportedDocument {
  projectId: string;
  /** The project's document id (`originId`, the same in every copy). */
  documentId: string;
  fileName: string;
  /** Its position in the export, from 0 (across projects). */
  index: number;
  lines: ExportedLine[];
  /** What this document left out, by reason. */
  leftOut: LeftOut;
  /** Labels `keep` (`--labels`) dropped, per name; absent when every label is kept. */
  dropped?: ReadonlyMap<string, number>;
}

/**
 * An empty {@link LeftOut}.
 *
 * @returns every count at 0
 */
export function noneLeftOut(): LeftOut {
  return { labels: Object.fromEntries(LEFT_OUT_REASONS.map((r) => [r, 0])) as Record<LeftOutReason, number>, lines: { hidden: 0, deleted: 0 } };
}
