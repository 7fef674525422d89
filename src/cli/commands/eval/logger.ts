import { CONFUSION_CAPTION, CONFUSION_CORNER, markdownReport } from '../../../eval/index.js';
import type { EvalLabel, EvalReport, Figures, SchemeName, SchemeScore } from '../../../eval/index.js';
import type { Printer } from '../../io.js';
import { ciLines, printComparisonWarnings } from './compareLogger.js';

/** A label as the table names it: its name, or its id in brackets when no label set has it. */
const nameOf = (l: EvalLabel | null) => (l === null ? '(none)' : (l.name ?? `[${l.id}]`));
const fig = (f: Figures, which: 'precision' | 'recall' | 'f1') => `${f[which].toFixed(3)}${f.zeroDivision.includes(which) ? '*' : ''}`;

/** Lays out rows as columns: the first left-aligned, the rest right-aligned. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd());
}

/**
 * The report of `labelkit eval` as text: per label, the averages, the confusion table and the gold used.
 *
 * @param report - the report
 * @returns the lines
 */
function formatEvalReport(report: EvalReport, scheme?: SchemeName): string[] {
  const lines: string[] = [];
  const layer = report.layer === null ? '' : ` · layer ${report.layer}`;
  const floor = report.minConfidence === null ? '' : ` · min confidence ${report.minConfidence} (${report.predictedBelowConfidence} left out)`;
  lines.push(`Project ${report.projectId} · labeler ${report.labelerEmail ?? '(unnamed)'} · match ${report.match}${layer}${floor} · ${report.documents} document${report.documents === 1 ? '' : 's'}`, '');
  const rows = [['label', 'layer', 'gold', 'predicted', 'TP', 'FP', 'FN', 'precision', 'recall', 'F1']];
  for (const l of report.labels) rows.push([nameOf(l), String(l.layer), String(l.gold), String(l.predicted), String(l.tp), String(l.fp), String(l.fn), fig(l, 'precision'), fig(l, 'recall'), fig(l, 'f1')]);
  const m = report.micro;
  rows.push(['micro avg', '', String(m.gold), String(m.predicted), String(m.tp), String(m.fp), String(m.fn), fig(m, 'precision'), fig(m, 'recall'), fig(m, 'f1')]);
  for (const [name, f] of [['macro avg', report.macro], ['weighted avg', report.weighted]] as const) rows.push([name, '', '', '', '', '', '', fig(f, 'precision'), fig(f, 'recall'), fig(f, 'f1')]);
  lines.push(...table(rows));
  const marked = [...report.labels, report.micro, report.macro, report.weighted].some((f) => f.zeroDivision.length > 0);
  if (marked) lines.push('* nothing to divide by: reported as 0');
  if (scheme !== undefined) lines.push(...formatScheme(report, scheme));
  lines.push('', `Confusion (${CONFUSION_CAPTION}):`);
  const key = (l: EvalLabel | null) => (l === null ? '' : `${l.layer}\u0000${l.id}`);
  const seen = new Map<string, EvalLabel | null>();
  for (const l of report.labels) seen.set(key(l), l);
  seen.set('', null);
  const axis = [...seen.values()];
  const count = new Map(report.confusion.map((c) => [`${key(c.gold)}\u0001${key(c.predicted)}`, c.count]));
  const confusion = [[CONFUSION_CORNER, ...axis.map(nameOf)]];
  for (const g of axis) confusion.push([nameOf(g), ...axis.map((p) => String(count.get(`${key(g)}\u0001${key(p)}`) ?? (g === null && p === null ? '' : 0)))]);
  lines.push(...table(confusion), '');
  const used = Object.entries(report.goldLabeledBy).map(([by, n]) => `${by} ${n}`).join(', ') || 'none';
  const { conflict, rejected, deleted } = report.goldExcluded;
  lines.push(`Gold used: ${used} · left out: ${conflict} CONFLICT, ${rejected} rejected, ${deleted} deleted`);
  return lines;
}

/**
 * One SemEval-2013 9.1 scheme as a table: per label and overall, the counts and figures.
 *
 * @param report - the report
 * @param scheme - which scheme (`--scheme`)
 * @returns the lines, starting with a blank one
 */
function formatScheme(report: EvalReport, scheme: SchemeName): string[] {
  const { overall, labels } = report.schemes[scheme];
  const rows = [['label', 'layer', 'COR', 'INC', 'PAR', 'MIS', 'SPU', 'possible', 'actual', 'precision', 'recall', 'F1']];
  const row = (name: string, layer: string, s: SchemeScore) => [name, layer, ...[s.correct, s.incorrect, s.partial, s.missed, s.spurious, s.possible, s.actual].map(String), fig(s, 'precision'), fig(s, 'recall'), fig(s, 'f1')];
  for (const l of labels) rows.push(row(nameOf(l), String(l.layer), l));
  rows.push(row('overall', '', overall));
  const half = scheme === 'partial' ? '; a partial match counts half' : '';
  const marked = [...labels, overall].some((f) => f.zeroDivision.length > 0) ? ['* nothing to divide by: reported as 0'] : [];
  return ['', `Scheme ${scheme} (SemEval-2013 9.1, as nervaluate${half}):`, ...table(rows), ...marked];
}

/**
 * Prints the outcome of `labelkit eval`.
 *
 * @param printer - where to print
 * @param report - the report
 * @param options - `json`: the report as one JSON object (see docs/evaluation.md);
 * `format`: `markdown` prints the table (or the comparison) as markdown, `text` the tables (with
 * the intervals or the comparison); `failUnder`: the threshold, to say on stderr when micro F1 is
 * under it; `scheme`: the SemEval-2013 9.1 scheme whose table follows the per-label table (text only)
 */
export function printEvalReport(printer: Printer, report: EvalReport, options: { json: boolean; format?: 'text' | 'json' | 'markdown'; failUnder?: number | undefined; scheme?: SchemeName | undefined }): void {
  const format = options.format ?? (options.json ? 'json' : 'text');
  if (format === 'json') printer.json(report);
  else if (format === 'markdown') for (const line of markdownReport(report)) printer.out(line);
  else for (const line of [...formatEvalReport(report, options.scheme), ...ciLines(report)]) printer.out(line);
  printComparisonWarnings(printer, report);
  if (options.failUnder !== undefined && report.micro.f1 < options.failUnder) {
    printer.err(`labelkit: micro F1 ${report.micro.f1.toFixed(3)} is under --fail-under ${options.failUnder}`);
  }
}
