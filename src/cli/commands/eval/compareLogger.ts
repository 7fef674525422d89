import type { EvalLabel, EvalReport, F1Change, Interval } from '../../../eval/index.js';
import type { Printer } from '../../io.js';

const nameOf = (l: EvalLabel) => l.name ?? `[${l.id}]`;
const f3 = (n: number) => n.toFixed(3);
const range = (i: Interval | null | undefined) => (i ? `${f3(i[0])}–${f3(i[1])}` : '');
const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${f3(Math.abs(n))}`;

/** Lays out rows as columns: the first left-aligned, the rest right-aligned. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 || c === r.length - 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd());
}

/** What a change means, in a word or three. */
function verdict(c: F1Change, maxDrop: number | null): string {
  if (c.regression) return `dropped more than ${maxDrop}`;
  if (c.baseline === null) return 'new';
  if (c.current === null) return 'not in this run';
  if (c.outsideInterval) return c.change! < 0 ? 'down, outside the interval' : 'up, outside the interval';
  return c.interval ? 'within noise' : '';
}

/**
 * The lines `labelkit eval --ci` and `--baseline` add to the text report: the F1 intervals, or
 * the comparison with the baseline (which holds them).
 *
 * @param report - the report
 * @returns the lines (none without `--ci` or `--baseline`)
 */
export function ciLines(report: EvalReport): string[] {
  const ci = report.intervals;
  const cmp = report.comparison;
  const about = ci ? `${Math.round(ci.level * 100)} % interval: ${ci.method}, ${ci.documents} documents, ${ci.resamples} resamples, seed ${ci.seed}` : '';
  if (cmp) {
    const rows = [['label', 'F1', 'interval', 'baseline', 'change', '']];
    const row = (name: string, c: F1Change) => [name, c.current === null ? '' : f3(c.current), range(c.interval), c.baseline === null ? '' : f3(c.baseline), c.change === null ? '' : signed(c.change), verdict(c, cmp.maxDrop)];
    for (const l of cmp.labels) rows.push(row(nameOf(l), l));
    rows.push(row('micro avg', cmp.micro));
    return ['', `Against ${cmp.baseline.path ?? 'the baseline'} (${cmp.baseline.documents} documents, match ${cmp.baseline.match})${ci ? ` · ${about}` : ''}:`, ...table(rows)];
  }
  if (!ci) return [];
  const rows = [['label', 'F1', 'interval', '']];
  const of = new Map(ci.labels.map((l) => [`${l.layer}\u0000${l.id}`, l.f1]));
  for (const l of report.labels) rows.push([nameOf(l), f3(l.f1), range(of.get(`${l.layer}\u0000${l.id}`)), '']);
  rows.push(['micro avg', f3(report.micro.f1), range(ci.micro), '']);
  return ['', `F1 ${about}:`, ...table(rows)];
}

/**
 * Says on stderr what the comparison found that the exit code stands for, and where the two
 * reports were scored differently.
 *
 * @param printer - where to print
 * @param report - the report, with its comparison
 */
export function printComparisonWarnings(printer: Printer, report: EvalReport): void {
  const cmp = report.comparison;
  if (!cmp) return;
  for (const note of cmp.notes) printer.err(`labelkit: note: ${note}`);
  if (cmp.regressions === 0) return;
  const dropped = [...(cmp.micro.regression ? [['micro', cmp.micro] as const] : []), ...cmp.labels.filter((l) => l.regression).map((l) => [nameOf(l), l] as const)];
  printer.err(`labelkit: F1 dropped more than --max-drop ${cmp.maxDrop} beyond noise: ${dropped.map(([name, c]) => `${name} ${f3(c.baseline!)} → ${f3(c.current!)} (interval ${range(c.interval)})`).join(', ')}`);
}
