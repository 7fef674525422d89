import { createLabelingClient, getJobs, isLabelkitError, waitForJobs } from 'labelkit';
import type { Job, JobOutcome, LabelingClient } from 'labelkit';
import { DEFAULT_JOB_TIMEOUT_MS } from '../../../shared/constants.js';
import { clientAuth, requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import { parseDuration } from '../../duration.js';
import { EXIT } from '../../exitCodes.js';
import { WaitInterrupted } from '../../interrupted.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';

/** Flags of `labelkit jobs`. */
export interface JobsFlags extends ConnectionFlags {
  wait?: boolean;
  timeout?: string;
  interval?: string;
}

/** Receives each change of a job while waiting (a progress bar, lines, or NDJSON). */
export interface JobWatcher {
  update(job: Job): void;
  stop(): void;
}

/**
 * Whether a job has ended (DELIVERED or FAILED): its wait is over, and the outcome says the rest.
 *
 * @param job - a job as read
 * @returns true once the job will not change any more
 */
export const hasEnded = (job: Job): boolean => job.status === 'DELIVERED' || job.status === 'FAILED';

/** Default of `--timeout`: 10 minutes. */
const DEFAULT_TIMEOUT_MS = DEFAULT_JOB_TIMEOUT_MS;
/** Default of `--interval`: the first poll interval (it grows to 5× while nothing changes). */
const DEFAULT_INTERVAL_MS = 1_000;

/**
 * Parses `--timeout` and `--interval`.
 *
 * @param flags - the raw flags
 * @param problems - receives a problem for each bad duration
 * @returns the durations in ms (defaults where absent)
 */
export function parseWaitFlags(flags: { timeout?: string; interval?: string }, problems: UsageProblem[]): { timeoutMs: number; intervalMs: number } {
  const read = (value: string | undefined, field: string, fallback: number) => {
    if (value === undefined) return fallback;
    const ms = parseDuration(value);
    if (ms === undefined) problems.push({ field, message: 'must be a positive duration such as 90s, 10m, 1h or plain milliseconds' });
    return ms ?? fallback;
  };
  return { timeoutMs: read(flags.timeout, '--timeout', DEFAULT_TIMEOUT_MS), intervalMs: read(flags.interval, '--interval', DEFAULT_INTERVAL_MS) };
}

/**
 * Waits for jobs with one `getJobs` request per interval (`waitForJobs(client, …)`).
 *
 * @param client - a labeling client
 * @param jobIds - the jobs
 * @param options - whole-wait time-out, Ctrl-C signal, and the watcher told of every change
 * @returns one outcome per job, in order
 * @throws {@link WaitInterrupted} on Ctrl-C, naming the jobs that had not ended; the client's
 * errors (auth, GraphQL) as they come
 */
export async function waitForAll(
  client: LabelingClient,
  jobIds: string[],
  options: { timeoutMs: number; signal: AbortSignal; watcher: JobWatcher },
): Promise<JobOutcome[]> {
  const ended = new Set<string>();
  try {
    return await waitForJobs(client, jobIds, {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onProgress: (job) => {
        if (hasEnded(job)) ended.add(job.id);
        options.watcher.update(job);
      },
    });
  } catch (error) {
    if (options.signal.aborted && isLabelkitError(error) && error.code === 'ABORTED') {
      throw new WaitInterrupted([...new Set(jobIds)].filter((id) => !ended.has(id)));
    }
    throw error;
  } finally {
    options.watcher.stop();
  }
}

/**
 * The exit code for a set of job outcomes: the largest of 0 (delivered), 5 (failed),
 * 6 (timed out), 7 (not found).
 *
 * @param outcomes - from `waitForAll`
 * @returns the exit code
 */
export function outcomesExitCode(outcomes: JobOutcome[]): number {
  const codes = { delivered: EXIT.ok, failed: EXIT.jobFailed, 'timed-out': EXIT.jobTimedOut, 'not-found': EXIT.jobNotFound } as const;
  return Math.max(EXIT.ok, ...outcomes.map((o) => codes[o.outcome]));
}

/**
 * The exit code for jobs read once: 7 when any is unknown, else 5 when any FAILED, else 0.
 *
 * @param jobs - from `getJobs`
 * @returns the exit code
 */
export function statusesExitCode(jobs: (Job | null)[]): number {
  if (jobs.some((j) => j === null || j.status === 'NONE')) return EXIT.jobNotFound;
  if (jobs.some((j) => j?.status === 'FAILED')) return EXIT.jobFailed;
  return EXIT.ok;
}

/** What `labelkit jobs` found: one snapshot per job, or one outcome per job with `--wait`. */
export type JobsResult = { kind: 'status'; jobIds: string[]; jobs: (Job | null)[] } | { kind: 'outcomes'; outcomes: JobOutcome[] };

/**
 * Reads jobs once, or waits for all of them with `--wait`.
 *
 * @param ids - the job ids
 * @param flags - `--wait`, `--timeout`, `--interval` and the connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param makeWatcher - builds the progress display (called only with `--wait`)
 * @returns the snapshots or outcomes
 * @throws {@link CliUsageError} for bad ids or durations, or `--timeout`/`--interval` without
 * `--wait` (every problem; nothing is sent); {@link WaitInterrupted} on Ctrl-C
 */
export async function runJobs(ids: string[], flags: JobsFlags, context: ActionContext, makeWatcher: () => JobWatcher | Promise<JobWatcher>): Promise<JobsResult> {
  const problems: UsageProblem[] = [];
  if (ids.length === 0) problems.push({ field: '<id…>', message: 'give at least one job id' });
  ids.forEach((id, i) => {
    if (id.trim() === '') problems.push({ field: `<id> ${i + 1}`, message: 'must not be empty' });
  });
  const { timeoutMs, intervalMs } = parseWaitFlags(flags, problems);
  if (!flags.wait) {
    // Without --wait nothing waits: a --timeout or --interval given would be ignored silently.
    for (const [field, value] of [['--timeout', flags.timeout], ['--interval', flags.interval]] as const) {
      if (value !== undefined) problems.push({ field, message: `only applies with --wait (add --wait to wait for the jobs, or drop ${field})` });
    }
  }
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry, poll: { intervalMs, maxIntervalMs: intervalMs * 5 } });
  try {
    if (!flags.wait) return { kind: 'status', jobIds: ids, jobs: await getJobs(client, ids, { signal: context.signal }) };
    return { kind: 'outcomes', outcomes: await waitForAll(client, ids, { timeoutMs, signal: context.signal, watcher: await makeWatcher() }) };
  } finally {
    client.close();
  }
}
