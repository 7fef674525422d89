import { findCopies, notGold, readAhead, readAllLabels, readLines, spanText } from 'labelkit/labels';
import type { NotGold, ProjectCopies } from 'labelkit/labels';
import type { CallOptions, LabelingClient } from 'labelkit';
import type { TextLabel } from 'labelkit/labels';
import { bootstrapF1, DocumentCounts } from './bootstrap.js';
import type { F1Intervals } from './bootstrap.js';
import type { ReportComparison } from './compareReports.js';
import { ConfidenceCollector } from './prCurve.js';
import type { ConfidenceCurves } from './prCurve.js';
import { Scorer } from './scoreLabels.js';
import type { ScoreOptions } from './scoreLabels.js';
import type { EvalCursor, EvalLabel, EvalSpan, Mistake, MistakeKind, ScoreReport } from './types.js';

/**
 * A label as the scoring reads it.
 *
 * @param label - a label read with `readDocumentLabels`
 * @param documentId - the key pairing the two copies of a document (its `originId`)
 * @returns the span
 */
export function toEvalSpan(label: TextLabel, documentId: string): EvalSpan {
  return { documentId, start: label.start, end: label.end, labelId: label.l, layer: label.layer, confidenceScore: label.confidenceScore ?? null, labeledBy: label.labeledBy ?? null };
}

/** An evaluation of a model on a project: the scores, and what was read. */
export interface EvalReport extends ScoreReport {
  /** The shape's version: 1. A change that breaks a reader of `labelkit eval --json` raises it. */
  version: 1;
  projectId: string;
  /** Whose copy was scored (the job's `labelerEmail`), as the service names it. */
  labelerEmail: string | null;
  /** Documents read (in either copy). */
  documents: number;
  /** Labels of the reviewer copy left out of gold, by reason. */
  goldExcluded: Record<NotGold, number>;
  /** The model's labels left out because they were deleted. */
  predictedDeleted: number;
  /** The precision-recall curves over the predictions' confidences, per label and micro, with the best threshold. */
  confidence: ConfidenceCurves;
  /** With `ci`: the bootstrap intervals of micro F1 and each label's F1. */
  intervals?: F1Intervals;
  /** With `labelkit eval --baseline`: each F1 against the saved report's (see `compareReports`). */
  comparison?: ReportComparison;
}

/** One mistake of the model as `labelkit eval --errors` writes it: where, what kind, both spans with their text. */
export interface MistakeRow {
  /** The project's document (`originId`). */
  documentId: string;
  fileName: string;
  /** The line (`sentenceId`, from 0) the gold span starts on, else the predicted one. */
  line: number;
  kind: MistakeKind;
  /** The gold span's label name (its id when no label set names it), or null for `spurious`. */
  goldLabel: string | null;
  goldStart: EvalCursor | null;
  goldEnd: EvalCursor | null;
  /** The text the gold span covers, or null (no gold span, or the lines could not tell). */
  goldText: string | null;
  predictedLabel: string | null;
  predictedStart: EvalCursor | null;
  predictedEnd: EvalCursor | null;
  predictedText: string | null;
  /** The prediction's confidence, when it gave one. */
  confidence: number | null;
  layer: number;
}

/** Options of {@link evaluateProject}. */
export interface EvaluateOptions extends ScoreOptions, CallOptions {
  /** Whose copy holds the model's labels; see {@link findCopies}. @defaultValue the only labeler copy */
  labelerEmail?: string;
  /** Called after each document with how many are done and how many there are. */
  onProgress?: (done: number, total: number) => void;
  /** The copies, when already found with {@link findCopies}. @defaultValue found here */
  copies?: ProjectCopies;
  /**
   * Bootstrap intervals of micro F1 and each label's F1 over documents (`bootstrapF1`): how many
   * resamples (1,000 unless told) and the seed that makes them repeatable. @defaultValue none
   */
  ci?: { resamples?: number; seed: number };
  /**
   * Called with every mistake of the model (see `MistakeKind`), document after document, with the
   * spans' text: each document's lines are then read too (one more request per page of lines).
   * @defaultValue none
   */
  onMistakeRow?: (row: MistakeRow) => void;
}

/** A mistake with its document's file name, its spans' text and its labels' names. */
function mistakeRow(m: Mistake, fileName: string, lines: Awaited<ReturnType<typeof readLines>> | null, labels: readonly EvalLabel[]): MistakeRow {
  const nameOf = (s: EvalSpan) => labels.find((l) => l.id === s.labelId && l.layer === s.layer)?.name ?? s.labelId;
  const text = (s: EvalSpan | null) => (s && lines ? spanText(lines, s.start, s.end) : null);
  const { gold, predicted } = m;
  return {
    documentId: m.documentId,
    fileName,
    line: (gold ?? predicted)!.start.sentenceId,
    kind: m.kind,
    goldLabel: gold ? nameOf(gold) : null,
    goldStart: gold?.start ?? null,
    goldEnd: gold?.end ?? null,
    goldText: text(gold),
    predictedLabel: predicted ? nameOf(predicted) : null,
    predictedStart: predicted?.start ?? null,
    predictedEnd: predicted?.end ?? null,
    predictedText: text(predicted),
    confidence: predicted?.confidenceScore ?? null,
    layer: (gold ?? predicted)!.layer,
  };
}

/**
 * Scores the model's labels of a project against the reviewer's, per label.
 *
 * @param client - the client
 * @param projectId - the project
 * @param options - match mode, layer, confidence floor, whose copy, progress, signal and time-out
 * @returns the report (see {@link EvalReport}; `labelkit eval --json` prints it)
 * @throws `CopyNotFoundError` (see {@link findCopies}); a labelkit error when a call fails
 * @remarks Reads both copies of a document at once, a few documents ahead (`READ_AHEAD` of `labelkit/labels`), and keeps
 * only counts between documents, no span: the scores' counts, and for the confidence curves one
 * pair of counts per distinct confidence and label (so memory grows with the distinct confidences
 * at most, never with the spans). With `ci`, it also keeps each document's counts per label (a
 * few numbers per document and label present) and resamples them once all are read. Gold: the reviewer copy's labels less
 * those {@link notGold} names. The model's: the labeler copy's labels that are not deleted.
 * @example
 * ```ts
 * const report = await evaluateProject(client, 'demo-project', { labelerEmail: 'model@example.com', match: 'overlap' });
 * console.log(report.micro.f1);
 * ```
 */
export async function evaluateProject(client: LabelingClient, projectId: string, options: EvaluateOptions = {}): Promise<EvalReport> {
  const call: CallOptions = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  const copies = options.copies ?? (await findCopies(client, projectId, { ...call, ...(options.labelerEmail !== undefined && { labelerEmail: options.labelerEmail }) }));
  const labels = options.labels ?? copies.labels;
  const { onMistakeRow } = options;
  // The document being scored, for its mistakes' rows (Scorer.add calls onMistake synchronously).
  let current: { fileName: string; lines: Awaited<ReturnType<typeof readLines>> | null } = { fileName: '', lines: null };
  const scorer = new Scorer({ ...options, labels, ...(onMistakeRow && { onMistake: (m: Mistake) => onMistakeRow(mistakeRow(m, current.fileName, current.lines, labels)) }) });
  const goldExcluded: Record<NotGold, number> = { conflict: 0, rejected: 0, deleted: 0 };
  let predictedDeleted = 0;
  const curves = new ConfidenceCollector();
  // With intervals: each document's counts per label, kept for the resamples (a few numbers per document and label).
  const counts = options.ci ? new DocumentCounts() : undefined;
  // Both copies of a document at once (and its lines when the mistakes are asked for), a few
  // documents ahead of the one being scored; each document's requests share its own signal.
  const read = async (doc: (typeof copies.documents)[number], signal: AbortSignal) => {
    const linesOf = doc.goldId ?? doc.predictedId;
    return await Promise.all([
      readAllLabels(client, doc.goldId, { ...call, signal }),
      readAllLabels(client, doc.predictedId, { ...call, signal }),
      onMistakeRow && linesOf !== null ? readLines(client, linesOf, { ...call, signal }) : Promise.resolve(null),
    ]);
  };
  let i = 0;
  for await (const [goldLabels, predictedLabels, lines] of readAhead(copies.documents, read, { signal: options.signal })) {
    const doc = copies.documents[i++]!;
    current = { fileName: doc.fileName, lines };
    const gold: EvalSpan[] = [];
    for (const label of goldLabels) {
      const why = notGold(label);
      if (why) goldExcluded[why]++;
      else gold.push(toEvalSpan(label, doc.originId));
    }
    const predicted: EvalSpan[] = [];
    for (const label of predictedLabels) {
      if (label.deleted === true) predictedDeleted++;
      else predicted.push(toEvalSpan(label, doc.originId));
    }
    const matches = scorer.add(gold, predicted, doc.originId);
    curves.add(matches);
    counts?.add(matches);
    options.onProgress?.(i, copies.documents.length);
  }
  const scores = scorer.report();
  return {
    version: 1,
    projectId,
    labelerEmail: copies.labelerEmail,
    documents: copies.documents.length,
    ...scores,
    goldExcluded,
    predictedDeleted,
    confidence: curves.curves(scores.labels),
    ...(counts && options.ci && { intervals: bootstrapF1(counts, scores.labels, options.ci) }),
  };
}
