import { createLabelingClient, getJobs } from 'labelkit';
import type { Job, JobOutcome } from 'labelkit';
import { clientAuth, requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { parseWaitFlags, waitForAll } from '../../jobWait.js';
import type { JobWatcher } from '../../jobWait.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';

/** Flags of `labelkit jobs`. */
export interface JobsFlags extends ConnectionFlags {
  wait?: boolean;
  timeout?: string;
  interval?: string;
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
