import { readFileSync } from 'node:fs';
import { DEFAULT_RESAMPLES, readBaselineReport } from '../../../eval/index.js';
import type { BaselineReport } from '../../../eval/index.js';
import type { UsageProblem } from '../../usageError.js';

/** The flags of `labelkit eval` for intervals, comparison and output format. */
export interface CiFlags {
  ci?: boolean;
  resamples?: string;
  seed?: string;
  baseline?: string;
  maxDrop?: string;
  format?: string;
  json?: boolean;
}

/** The output formats of `labelkit eval --format`. */
export const EVAL_FORMATS = ['text', 'json', 'markdown'] as const;

/** What {@link checkCiFlags} read: the bootstrap to run, the baseline, the gate and the format. */
export interface CiOptions {
  /** Resamples and seed, when intervals are asked for (`--ci`, or `--max-drop`, which needs them). */
  ci?: { resamples: number; seed: number };
  baseline?: { path: string; report: BaselineReport };
  maxDrop?: number;
  format: (typeof EVAL_FORMATS)[number];
}

/** The largest `--resamples`: enough for any interval, and a bound on the memory the resamples take. */
const MAX_RESAMPLES = 1_000_000;

/** A whole number flag within bounds, or a problem. */
function whole(value: string | undefined, field: string, min: number, max: number, problems: UsageProblem[]): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < min || n > max) {
    problems.push({ field, message: `must be a whole number from ${min} to ${max}` });
    return undefined;
  }
  return n;
}

/**
 * Checks `--ci`, `--resamples`, `--seed`, `--baseline`, `--max-drop` and `--format`, and reads the
 * baseline report, before anything is sent.
 *
 * @param flags - the flags as typed
 * @param problems - where each problem goes (one per flag, naming the rule)
 * @param random - the seed's source when `--seed` is not given @defaultValue Math.random
 * @returns the options (meaningful only when no problem was added)
 * @remarks `--max-drop` needs `--baseline` and turns the intervals on (a drop counts only beyond
 * noise); `--resamples` and `--seed` need intervals. Without `--seed` a seed is drawn, and the
 * report names it, so the run can be repeated.
 */
export function checkCiFlags(flags: CiFlags, problems: UsageProblem[], random: () => number = Math.random): CiOptions {
  const format = (flags.format ?? (flags.json === true ? 'json' : 'text')).toLowerCase() as CiOptions['format'];
  if (!EVAL_FORMATS.includes(format)) problems.push({ field: '--format', message: `must be ${EVAL_FORMATS.join(', ')}` });
  else if (flags.json === true && format !== 'json') problems.push({ field: '--format', message: `--json prints JSON: leave out --json to print ${format}` });
  const resamples = whole(flags.resamples, '--resamples', 1, MAX_RESAMPLES, problems);
  const seed = whole(flags.seed, '--seed', 0, 2 ** 32 - 1, problems);
  let maxDrop: number | undefined;
  if (flags.maxDrop !== undefined) {
    const n = Number(flags.maxDrop);
    if (flags.maxDrop.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) problems.push({ field: '--max-drop', message: 'must be a number from 0 to 1 (the largest F1 drop allowed beyond noise), e.g. 0.02' });
    else maxDrop = n;
    if (flags.baseline === undefined) problems.push({ field: '--max-drop', message: 'needs --baseline (the saved --json report to compare with)' });
  }
  const intervals = flags.ci === true || flags.maxDrop !== undefined;
  if (!intervals && flags.resamples !== undefined) problems.push({ field: '--resamples', message: 'needs --ci (or --max-drop)' });
  if (!intervals && flags.seed !== undefined) problems.push({ field: '--seed', message: 'needs --ci (or --max-drop)' });
  let baseline: CiOptions['baseline'];
  if (flags.baseline !== undefined) {
    const path = flags.baseline;
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      problems.push({ field: '--baseline', message: `cannot read ${path} (${code === 'ENOENT' ? 'no such file' : typeof code === 'string' ? code : 'unreadable'}): it must be a report saved with labelkit eval --json` });
    }
    if (text !== undefined) {
      let value: unknown;
      let parsed = true;
      try {
        value = JSON.parse(text);
      } catch {
        parsed = false;
      }
      const { report, problems: wrong } = parsed ? readBaselineReport(value) : { report: undefined, problems: ['it is not JSON'] };
      if (report) baseline = { path, report };
      else problems.push({ field: '--baseline', message: `${path} is not a report of labelkit eval --json: ${wrong.join('; ')}` });
    }
  }
  return {
    format,
    ...(intervals && { ci: { resamples: resamples ?? DEFAULT_RESAMPLES, seed: seed ?? Math.floor(random() * 2 ** 32) } }),
    ...(baseline && { baseline }),
    ...(maxDrop !== undefined && { maxDrop }),
  };
}
