/** Median of a list of numbers (0 for an empty list). */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median and the range (smallest, largest) of a list of numbers (all 0 for an empty list). */
export function spread(values: number[]): { median: number; range: [number, number] } {
  if (values.length === 0) return { median: 0, range: [0, 0] };
  return { median: median(values), range: [Math.min(...values), Math.max(...values)] };
}

/** True when the bench runs in its short smoke mode (`--smoke` or BENCH_SMOKE=1). */
export const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

/** One figure of the report. */
export interface Figure {
  bench: string;
  name: string;
  value: number;
  unit: string;
  goal?: string;
  met?: boolean;
  /** When a run of only some benchmarks wrote the file: the date of the run that measured this row. */
  measuredAt?: string;
  /** When `value` is a median: the smallest and the largest of the runs it is the median of. */
  range?: [number, number];
  /** How many runs `value` and `range` summarise. */
  runs?: number;
  /**
   * The machine's 1-minute load average (`uptime`) when the figure's measurement began and when it
   * ended: on a shared machine a figure means little without it. bench/run.ts sets it per
   * benchmark unless the benchmark set it per figure.
   */
  load?: [number, number];
}

const shown = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** Prints a table of figures: value (with the range of its runs), goal, met, load average. */
export function printTable(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.bench,
    f.name,
    `${shown(f.value)} ${f.unit}${f.range ? ` (${shown(f.range[0])}–${shown(f.range[1])}, ${f.runs ?? '?'} runs)` : ''}`,
    f.goal ?? '',
    f.met === undefined ? '' : f.met ? 'met' : 'NOT met',
    f.load ? `load ${f.load[0].toFixed(1)}→${f.load[1].toFixed(1)}` : '',
  ]);
  const widths = [0, 1, 2, 3, 4, 5].map((i) => Math.max(...rows.map((r) => r[i]!.length), 4));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
}

/** A full garbage collection when node runs with --expose-gc (`npm run bench` does); else nothing. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
