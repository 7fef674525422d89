// Waiting for jobs, as `labelkit jobs --wait` and `labelkit auto-label --wait` do: the flags, the
// wait and its exit code.
import { isLabelkitError, waitForJobs } from 'labelkit';
import type { Job, JobOutcome, LabelingClient } from 'labelkit';
import { DEFAULT_JOB_TIMEOUT_MS } from '../shared/constants.js';
import { parseDuration } from './duration.js';
import { EXIT } from './exitCodes.js';
import { WaitInterrupted } from './interrupted.js';
import type { UsageProblem } from './usageError.js';

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
