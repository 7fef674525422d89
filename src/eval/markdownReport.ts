import { markdownText } from '../shared/escape.js';
import type { F1Intervals, Interval } from './bootstrap.js';
import type { F1Change, ReportComparison } from './compareReports.js';
import type { EvalLabel, Figures } from './types.js';

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

/** A value's text in the report: no line break, markup, HTML or autolink of its own (`shared/escape`). */
const cell = markdownText;
const nameOf = (l: EvalLabel) => cell(l.name ?? `[${l.id}]`);
const f3 = (n: number) => n.toFixed(3);
const range = (i: Interval | null | undefined) => (i ? `${f3(i[0])}–${f3(i[1])}` : '');
const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${f3(Math.abs(n))}`;

/** The last column of a comparison row: what the change means. */
function verdict(c: F1Change, maxDrop: number | null): string {
  if (c.regression) return `**dropped more than ${maxDrop}**`;
  if (c.baseline === null) return 'new';
  if (c.current === null) return 'not in this run';
  if (c.outsideInterval) return c.change! < 0 ? 'down, outside the interval' : 'up, outside the interval';
  return c.interval ? 'within noise' : '';
}

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
  const lines = [`#### labelkit eval · ${cell(report.projectId)} · ${cell(report.labelerEmail ?? '(unnamed)')} · match ${cell(report.match)} · ${report.documents} document${report.documents === 1 ? '' : 's'}`, ''];
  const ci = report.intervals;
  const cmp = report.comparison;
  if (cmp) {
    lines.push(`| label | F1 | ${ci ? `${Math.round(ci.level * 100)} % interval` : 'interval'} | baseline | change | |`, '|:--|--:|:-:|--:|--:|:--|');
    const row = (name: string, c: F1Change) =>
      `| ${name} | ${c.current === null ? '' : f3(c.current)} | ${range(c.interval)} | ${c.baseline === null ? '' : f3(c.baseline)} | ${c.change === null ? '' : signed(c.change)} | ${verdict(c, cmp.maxDrop)} |`;
    lines.push(row('**micro**', cmp.micro));
    for (const l of cmp.labels) lines.push(row(nameOf(l), l));
    lines.push('');
    const failed = cmp.regressions > 0 ? `**${cmp.regressions} F1${cmp.regressions === 1 ? '' : 's'} dropped more than ${cmp.maxDrop} beyond noise.**` : cmp.maxDrop !== null ? `No F1 dropped more than ${cmp.maxDrop} beyond noise.` : '';
    // The file's name only: a comment on a pull request has no use for the runner's folders.
    const file = cmp.baseline.path === null ? 'a saved report' : (cmp.baseline.path.split(/[\\/]/).pop() ?? cmp.baseline.path);
    lines.push(`Baseline: ${cell(file)} (${cmp.baseline.documents} documents, match ${cell(cmp.baseline.match)}).${failed ? ` ${failed}` : ''}`);
    for (const note of cmp.notes) lines.push('', `> Note: ${cell(note)}.`);
  } else {
    const head = ci ? ` ${Math.round(ci.level * 100)} % interval |` : '';
    lines.push(`| label | gold | predicted | precision | recall | F1 |${head}`, `|:--|--:|--:|--:|--:|--:|${ci ? ':-:|' : ''}`);
    const intervalOf = new Map((ci?.labels ?? []).map((l) => [`${l.layer}\u0000${l.id}`, l.f1]));
    const row = (name: string, f: Figures & { gold: number; predicted: number }, i: Interval | undefined) =>
      `| ${name} | ${f.gold} | ${f.predicted} | ${f3(f.precision)} | ${f3(f.recall)} | ${f3(f.f1)} |${ci ? ` ${range(i)} |` : ''}`;
    for (const l of report.labels) lines.push(row(nameOf(l), l, intervalOf.get(`${l.layer}\u0000${l.id}`)));
    lines.push(row('**micro**', report.micro, ci?.micro));
  }
  if (ci) lines.push('', `Intervals: ${ci.method}, ${ci.documents} documents, ${ci.resamples} resamples, seed ${ci.seed}.`);
  return lines;
}
