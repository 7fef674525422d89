/**
 * The one room where an evaluation's report is drawn: as text (`labelkit eval`, the default), as
 * markdown a pull-request comment can hold (`--format markdown`); its JSON (`--json`) is the report
 * itself, as docs/evaluation.md describes it.
 * @packageDocumentation
 */
import { markdownText } from '../shared/escape.js';
import type { F1Intervals, Interval } from './bootstrap.js';
import type { F1Change, ReportComparison } from './compareReports.js';
import type { EvalReport } from './evaluateProject.js';
import { CONFUSION_CAPTION, CONFUSION_CORNER } from './types.js';
import type { EvalLabel, Figures, SchemeName, SchemeScore } from './types.js';

/** What the markdown reads of a report (`EvalReport`, with `--ci` and `--baseline`). */
export interface MarkdownInput {
  projectId: string;
  labelerEmail: string | null;
  match: string;
  documents: number;
  micro: Figures & { gold: number; predicted: number };
  labels: readonly (EvalLabel & Figures & { gold: number; predicted: number })[];
  intervals?: F1Intervals | undefined;
  comparison?: ReportComparison | undefined;
}

/** A value's text in the markdown: no line break, markup, HTML or autolink of its own (`shared/escape`). */
const markdownCell = markdownText;
/** A label as the tables name it: its name, or its id in brackets when no label set has it. */
const labelName = (l: EvalLabel | null) => (l === null ? '(none)' : (l.name ?? `[${l.id}]`));
const threePlaces = (n: number) => n.toFixed(3);
const range = (i: Interval | null | undefined) => (i ? `${threePlaces(i[0])}–${threePlaces(i[1])}` : '');
const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${threePlaces(Math.abs(n))}`;

/** What a change means, in a word or three (the last column of a comparison row). */
function verdict(c: F1Change, maxDrop: number | null): string {
  if (c.regression) return `dropped more than ${maxDrop}`;
  if (c.baseline === null) return 'new';
  if (c.current === null) return 'not in this run';
  if (c.outsideInterval) return c.change! < 0 ? 'down, outside the interval' : 'up, outside the interval';
  return c.interval ? 'within noise' : '';
}

/** A regression stands out in bold in the markdown. */
const markdownVerdict = (c: F1Change, maxDrop: number | null) => (c.regression ? `**${verdict(c, maxDrop)}**` : verdict(c, maxDrop));

/**
 * A report as markdown a pull-request comment can hold: with a baseline, the comparison per label;
 * without, precision, recall and F1 per label (with the intervals of `--ci`).
 *
 * @param report - the report of `labelkit eval` (with `intervals` and `comparison` when asked)
 * @returns the lines
 * @remarks Every value from elsewhere (names, the project, the labeler, the baseline's file, the
 * notes) is escaped so that none can break the table or add markup, HTML or a link. The figures
 * are rounded to 3 places; `--json` has them unrounded.
 * @example
 * ```ts
 * console.log(markdownReport(report).join('\n'));
 * ```
 */
export function markdownReport(report: MarkdownInput): string[] {
  const lines = [`#### labelkit eval · ${markdownCell(report.projectId)} · ${markdownCell(report.labelerEmail ?? '(unnamed)')} · match ${markdownCell(report.match)} · ${report.documents} document${report.documents === 1 ? '' : 's'}`, ''];
  const ci = report.intervals;
  const cmp = report.comparison;
  if (cmp) {
    lines.push(`| label | F1 | ${ci ? `${Math.round(ci.level * 100)} % interval` : 'interval'} | baseline | change | |`, '|:--|--:|:-:|--:|--:|:--|');
    const row = (name: string, c: F1Change) =>
      `| ${name} | ${c.current === null ? '' : threePlaces(c.current)} | ${range(c.interval)} | ${c.baseline === null ? '' : threePlaces(c.baseline)} | ${c.change === null ? '' : signed(c.change)} | ${markdownVerdict(c, cmp.maxDrop)} |`;
    lines.push(row('**micro**', cmp.micro));
    for (const l of cmp.labels) lines.push(row(markdownCell(labelName(l)), l));
    lines.push('');
    const failed = cmp.regressions > 0 ? `**${cmp.regressions} F1${cmp.regressions === 1 ? '' : 's'} dropped more than ${cmp.maxDrop} beyond noise.**` : cmp.maxDrop !== null ? `No F1 dropped more than ${cmp.maxDrop} beyond noise.` : '';
    // The file's name only: a comment on a pull request has no use for the runner's folders.
    const file = cmp.baseline.path === null ? 'a saved report' : (cmp.baseline.path.split(/[\\/]/).pop() ?? cmp.baseline.path);
    lines.push(`Baseline: ${markdownCell(file)} (${cmp.baseline.documents} documents, match ${markdownCell(cmp.baseline.match)}).${failed ? ` ${failed}` : ''}`);
    for (const note of cmp.notes) lines.push('', `> Note: ${markdownCell(note)}.`);
  } else {
    const head = ci ? ` ${Math.round(ci.level * 100)} % interval |` : '';
    lines.push(`| label | gold | predicted | precision | recall | F1 |${head}`, `|:--|--:|--:|--:|--:|--:|${ci ? ':-:|' : ''}`);
    const intervalOf = new Map((ci?.labels ?? []).map((l) => [`${l.layer}\u0000${l.id}`, l.f1]));
    const row = (name: string, f: Figures & { gold: number; predicted: number }, i: Interval | undefined) =>
      `| ${name} | ${f.gold} | ${f.predicted} | ${threePlaces(f.precision)} | ${threePlaces(f.recall)} | ${threePlaces(f.f1)} |${ci ? ` ${range(i)} |` : ''}`;
    for (const l of report.labels) lines.push(row(markdownCell(labelName(l)), l, intervalOf.get(`${l.layer}\u0000${l.id}`)));
    lines.push(row('**micro**', report.micro, ci?.micro));
  }
  if (ci) lines.push('', `Intervals: ${ci.method}, ${ci.documents} documents, ${ci.resamples} resamples, seed ${ci.seed}.`);
  return lines;
}

/** Lays out rows as columns: the first left-aligned, the rest right-aligned (and the last left, when asked). */
function table(rows: string[][], lastLeft = false): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((text, c) => (c === 0 || (lastLeft && c === r.length - 1) ? text.padEnd(widths[c]!) : text.padStart(widths[c]!))).join('  ').trimEnd());
}

/** A figure as the text tables show it, with `*` when there was nothing to divide by. */
const figure = (f: Figures, which: 'precision' | 'recall' | 'f1') => `${f[which].toFixed(3)}${f.zeroDivision.includes(which) ? '*' : ''}`;
const ZERO_DIVISION_NOTE = '* nothing to divide by: reported as 0';

/**
 * A report as text, what `labelkit eval` prints: per label, the averages, the scheme asked for, the
 * confusion table, the gold used, and the intervals (`--ci`) or the comparison (`--baseline`).
 *
 * @param report - the report of `evaluateProject`
 * @param scheme - the SemEval-2013 9.1 scheme whose table follows the per-label table (`--scheme`)
 * @returns the lines
 * @example
 * ```ts
 * console.log(textReport(report, 'partial').join('\n'));
 * ```
 */
export function textReport(report: EvalReport, scheme?: SchemeName): string[] {
  const lines: string[] = [];
  const layer = report.layer === null ? '' : ` · layer ${report.layer}`;
  const floor = report.minConfidence === null ? '' : ` · min confidence ${report.minConfidence} (${report.predictedBelowConfidence} left out)`;
  lines.push(`Project ${report.projectId} · labeler ${report.labelerEmail ?? '(unnamed)'} · match ${report.match}${layer}${floor} · ${report.documents} document${report.documents === 1 ? '' : 's'}`, '');
  const rows = [['label', 'layer', 'gold', 'predicted', 'TP', 'FP', 'FN', 'precision', 'recall', 'F1']];
  for (const l of report.labels) rows.push([labelName(l), String(l.layer), String(l.gold), String(l.predicted), String(l.tp), String(l.fp), String(l.fn), figure(l, 'precision'), figure(l, 'recall'), figure(l, 'f1')]);
  const m = report.micro;
  rows.push(['micro avg', '', String(m.gold), String(m.predicted), String(m.tp), String(m.fp), String(m.fn), figure(m, 'precision'), figure(m, 'recall'), figure(m, 'f1')]);
  for (const [name, f] of [['macro avg', report.macro], ['weighted avg', report.weighted]] as const) rows.push([name, '', '', '', '', '', '', figure(f, 'precision'), figure(f, 'recall'), figure(f, 'f1')]);
  lines.push(...table(rows));
  const marked = [...report.labels, report.micro, report.macro, report.weighted].some((f) => f.zeroDivision.length > 0);
  if (marked) lines.push(ZERO_DIVISION_NOTE);
  if (scheme !== undefined) lines.push(...schemeText(report, scheme));
  lines.push('', `Confusion (${CONFUSION_CAPTION}):`);
  const key = (l: EvalLabel | null) => (l === null ? '' : `${l.layer}\u0000${l.id}`);
  const seen = new Map<string, EvalLabel | null>();
  for (const l of report.labels) seen.set(key(l), l);
  seen.set('', null);
  const axis = [...seen.values()];
  const count = new Map(report.confusion.map((c) => [`${key(c.gold)}\u0001${key(c.predicted)}`, c.count]));
  const confusion = [[CONFUSION_CORNER, ...axis.map(labelName)]];
  for (const g of axis) confusion.push([labelName(g), ...axis.map((p) => String(count.get(`${key(g)}\u0001${key(p)}`) ?? (g === null && p === null ? '' : 0)))]);
  lines.push(...table(confusion), '');
  const used = Object.entries(report.goldLabeledBy).map(([by, n]) => `${by} ${n}`).join(', ') || 'none';
  const { conflict, rejected, deleted } = report.goldExcluded;
  lines.push(`Gold used: ${used} · left out: ${conflict} CONFLICT, ${rejected} rejected, ${deleted} deleted`);
  return [...lines, ...intervalText(report)];
}

/** One SemEval-2013 9.1 scheme as a table: per label and overall, the counts and figures (starts with a blank line). */
function schemeText(report: EvalReport, scheme: SchemeName): string[] {
  const { overall, labels } = report.schemes[scheme];
  const rows = [['label', 'layer', 'COR', 'INC', 'PAR', 'MIS', 'SPU', 'possible', 'actual', 'precision', 'recall', 'F1']];
  const row = (name: string, layer: string, s: SchemeScore) => [name, layer, ...[s.correct, s.incorrect, s.partial, s.missed, s.spurious, s.possible, s.actual].map(String), figure(s, 'precision'), figure(s, 'recall'), figure(s, 'f1')];
  for (const l of labels) rows.push(row(labelName(l), String(l.layer), l));
  rows.push(row('overall', '', overall));
  const half = scheme === 'partial' ? '; a partial match counts half' : '';
  const marked = [...labels, overall].some((f) => f.zeroDivision.length > 0) ? [ZERO_DIVISION_NOTE] : [];
  return ['', `Scheme ${scheme} (SemEval-2013 9.1, as nervaluate${half}):`, ...table(rows), ...marked];
}

/** The lines of `--ci` (the F1 intervals) or `--baseline` (the comparison, which holds them); none without. */
function intervalText(report: EvalReport): string[] {
  const ci = report.intervals;
  const cmp = report.comparison;
  const about = ci ? `${Math.round(ci.level * 100)} % interval: ${ci.method}, ${ci.documents} documents, ${ci.resamples} resamples, seed ${ci.seed}` : '';
  if (cmp) {
    const rows = [['label', 'F1', 'interval', 'baseline', 'change', '']];
    const row = (name: string, c: F1Change) => [name, c.current === null ? '' : threePlaces(c.current), range(c.interval), c.baseline === null ? '' : threePlaces(c.baseline), c.change === null ? '' : signed(c.change), verdict(c, cmp.maxDrop)];
    for (const l of cmp.labels) rows.push(row(labelName(l), l));
    rows.push(row('micro avg', cmp.micro));
    return ['', `Against ${cmp.baseline.path ?? 'the baseline'} (${cmp.baseline.documents} documents, match ${cmp.baseline.match})${ci ? ` · ${about}` : ''}:`, ...table(rows, true)];
  }
  if (!ci) return [];
  const rows = [['label', 'F1', 'interval', '']];
  const of = new Map(ci.labels.map((l) => [`${l.layer}\u0000${l.id}`, l.f1]));
  for (const l of report.labels) rows.push([labelName(l), threePlaces(l.f1), range(of.get(`${l.layer}\u0000${l.id}`)), '']);
  rows.push(['micro avg', threePlaces(report.micro.f1), range(ci.micro), '']);
  return ['', `F1 ${about}:`, ...table(rows, true)];
}

/**
 * What a comparison with a baseline found that a reader must not miss: its notes (where the two
 * reports were scored differently) and the F1s that dropped more than `maxDrop` beyond noise.
 *
 * @param report - the report, with its comparison (none without `--baseline`)
 * @returns the lines, without a prefix (the CLI prints them on stderr)
 */
export function comparisonWarnings(report: EvalReport): string[] {
  const cmp = report.comparison;
  if (!cmp) return [];
  const lines = cmp.notes.map((note) => `note: ${note}`);
  if (cmp.regressions === 0) return lines;
  const dropped = [...(cmp.micro.regression ? [['micro', cmp.micro] as const] : []), ...cmp.labels.filter((l) => l.regression).map((l) => [labelName(l), l] as const)];
  return [...lines, `F1 dropped more than --max-drop ${cmp.maxDrop} beyond noise: ${dropped.map(([name, c]) => `${name} ${threePlaces(c.baseline!)} → ${threePlaces(c.current!)} (interval ${range(c.interval)})`).join(', ')}`];
}
