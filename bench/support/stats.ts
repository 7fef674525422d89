/** Median of a list of numbers (0 for an empty list). */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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
}

/** Prints a table of figures. */
export function printTable(figures: Figure[]): void {
  const rows = figures.map((f) => [f.bench, f.name, `${Number.isInteger(f.value) ? f.value : f.value.toFixed(2)} ${f.unit}`, f.goal ?? '', f.met === undefined ? '' : f.met ? 'met' : 'NOT met']);
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => r[i]!.length), 4));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
}

/** A full garbage collection when node runs with --expose-gc (`npm run bench` does); else nothing. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
