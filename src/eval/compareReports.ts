import type { Interval, F1Intervals } from './bootstrap.js';
import { MATCH_MODES } from './types.js';
import type { EvalLabel, MatchMode } from './types.js';

/** What a comparison reads of a saved `labelkit eval --json` report (the baseline). */
export interface BaselineReport {
  version: 1;
  projectId: string;
  labelerEmail: string | null;
  match: MatchMode;
  layer: number | null;
  documents: number;
  micro: { f1: number };
  labels: (EvalLabel & { f1: number })[];
}

/** How one F1 moved from the baseline to this run. */
export interface F1Change {
  /** The baseline's F1, or null when the baseline has no such label. */
  baseline: number | null;
  /** This run's F1, or null when this run has no such label. */
  current: number | null;
  /** `current - baseline` (negative: a drop), or null when one side lacks the label. */
  change: number | null;
  /** This run's 95 % interval of the F1 (`intervals`), or null without one. */
  interval: Interval | null;
  /** Whether the baseline's F1 lies outside this run's interval: a change resampling does not explain. */
  outsideInterval: boolean;
  /** Whether this F1 fails `maxDrop`: it dropped by more than it, and the baseline lies above the interval. */
  regression: boolean;
}

/** This run against a baseline report, as `labelkit eval --baseline` adds it (`comparison`). */
export interface ReportComparison {
  /** Which report this run was compared with. */
  baseline: { path: string | null; projectId: string; labelerEmail: string | null; match: MatchMode; documents: number };
  /** The largest drop allowed, or null without `--max-drop`. */
  maxDrop: number | null;
  micro: F1Change;
  /** This run's labels in its order, then those only the baseline has. */
  labels: (EvalLabel & F1Change)[];
  /** How many F1s (micro and labels) are regressions. */
  regressions: number;
  /** Where the two reports were scored differently (match mode, project, layer): the comparison may mislead. */
  notes: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFraction = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;

/**
 * Checks that a parsed JSON value is a report `labelkit eval --json` wrote.
 *
 * @param value - the parsed file
 * @returns the report, or the problems (each one sentence; empty list when it is one)
 * @example
 * ```ts
 * const { report, problems } = readBaselineReport(JSON.parse(text));
 * ```
 */
export function readBaselineReport(value: unknown): { report?: BaselineReport; problems: string[] } {
  if (!isRecord(value)) return { problems: ['it is not a JSON object'] };
  const problems: string[] = [];
  if (value.version !== 1) problems.push(`its "version" is ${JSON.stringify(value.version) ?? 'missing'}, not 1`);
  if (typeof value.projectId !== 'string') problems.push('it has no "projectId"');
  // Every field the comparison prints is checked here, before anything is printed: a report is a
  // file anyone can edit, and its values reach a pull-request comment.
  if (value.match === undefined) problems.push('it has no "match"');
  else if (typeof value.match !== 'string' || !(MATCH_MODES as readonly string[]).includes(value.match)) problems.push(`its "match" is not one of ${MATCH_MODES.join(', ')}`);
  if (value.documents === undefined) problems.push('it has no "documents"');
  else if (!Number.isSafeInteger(value.documents) || (value.documents as number) < 0) problems.push('its "documents" is not a whole number of documents');
  if (value.labelerEmail !== undefined && value.labelerEmail !== null && typeof value.labelerEmail !== 'string') problems.push('its "labelerEmail" is not a text or null');
  if (value.layer !== undefined && value.layer !== null && !(Number.isSafeInteger(value.layer) && (value.layer as number) >= 0)) problems.push('its "layer" is not a layer index or null');
  if (!isRecord(value.micro) || !isFraction(value.micro.f1)) problems.push('its "micro.f1" is not a number from 0 to 1');
  if (!Array.isArray(value.labels)) problems.push('its "labels" is not a list');
  else {
    const bad = value.labels.findIndex((l) => !isRecord(l) || typeof l.id !== 'string' || !Number.isInteger(l.layer) || !isFraction(l.f1) || (l.name !== undefined && l.name !== null && typeof l.name !== 'string'));
    if (bad >= 0) problems.push(`its "labels[${bad}]" lacks an id, a layer or an f1 from 0 to 1, or has a name that is not a text`);
  }
  if (problems.length > 0) return { problems };
  return { report: value as unknown as BaselineReport, problems };
}

const keyOf = (l: { layer: number; id: string }) => `${l.layer}\u0000${l.id}`;

/** One F1's change, with its interval and whether it fails `maxDrop`. */
function changeOf(baseline: number | null, current: number | null, interval: Interval | null, maxDrop: number | null): F1Change {
  const change = baseline === null || current === null ? null : current - baseline;
  const outsideInterval = baseline !== null && interval !== null && (baseline < interval[0] || baseline > interval[1]);
  const regression = maxDrop !== null && change !== null && -change > maxDrop && interval !== null && baseline! > interval[1];
  return { baseline, current, change, interval, outsideInterval, regression };
}

/**
 * Compares this run's F1s with a baseline report's: micro and per label.
 *
 * @param current - this run: its match mode, project, micro F1, labels and (with `--ci`) intervals
 * @param baseline - the saved report (see {@link readBaselineReport})
 * @param options - `maxDrop`: the largest drop allowed beyond noise; `path`: where the baseline was read
 * @returns each F1's change, whether the baseline lies outside this run's interval, the regressions
 * @remarks A drop is a **regression** when it exceeds `maxDrop` *and* the baseline's F1 lies above
 * this run's interval: a drop that resampling the documents explains never fails, however large,
 * and a drop of no more than `maxDrop` never fails, however sure. Re-scoring the same copies
 * changes nothing, so it never fails. Without intervals nothing is a regression. Labels pair by
 * id and layer; one only one side has is listed with null on the other side and never fails.
 * @example
 * ```ts
 * const comparison = compareReports(report, baseline, { maxDrop: 0.02 });
 * if (comparison.regressions > 0) process.exitCode = 12;
 * ```
 */
export function compareReports(
  current: { projectId: string; labelerEmail: string | null; match: MatchMode; layer: number | null; documents: number; micro: { f1: number }; labels: readonly (EvalLabel & { f1: number })[]; intervals?: F1Intervals | undefined },
  baseline: BaselineReport,
  options: { maxDrop?: number; path?: string } = {},
): ReportComparison {
  const maxDrop = options.maxDrop ?? null;
  const intervalOf = new Map((current.intervals?.labels ?? []).map((l) => [keyOf(l), l.f1]));
  const before = new Map(baseline.labels.map((l) => [keyOf(l), l]));
  const labels: (EvalLabel & F1Change)[] = current.labels.map((l) => ({
    id: l.id,
    layer: l.layer,
    name: l.name,
    ...changeOf(before.get(keyOf(l))?.f1 ?? null, l.f1, intervalOf.get(keyOf(l)) ?? null, maxDrop),
  }));
  const seen = new Set(current.labels.map(keyOf));
  for (const l of baseline.labels) if (!seen.has(keyOf(l))) labels.push({ id: l.id, layer: l.layer, name: l.name ?? null, ...changeOf(l.f1, null, null, maxDrop) });
  const micro = changeOf(baseline.micro.f1, current.micro.f1, current.intervals?.micro ?? null, maxDrop);
  const notes: string[] = [];
  if (baseline.match !== current.match) notes.push(`the baseline was scored with --match ${baseline.match}, this run with ${current.match}`);
  if (baseline.projectId !== current.projectId) notes.push(`the baseline scored project ${baseline.projectId}, this run ${current.projectId}`);
  if ((baseline.layer ?? null) !== current.layer) notes.push(`the baseline scored ${baseline.layer === null || baseline.layer === undefined ? 'every layer' : `layer ${baseline.layer}`}, this run ${current.layer === null ? 'every layer' : `layer ${current.layer}`}`);
  return {
    baseline: { path: options.path ?? null, projectId: baseline.projectId, labelerEmail: baseline.labelerEmail ?? null, match: baseline.match, documents: baseline.documents },
    maxDrop,
    micro,
    labels,
    regressions: [micro, ...labels].filter((c) => c.regression).length,
    notes,
  };
}
