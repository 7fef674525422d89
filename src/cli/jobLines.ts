// A job in words, as `labelkit jobs` and `labelkit auto-label` print it: its JSON, its outcome
// line, and the progress display while waiting.
import type { Job, JobOutcome } from 'labelkit';
import type { Io, Printer } from './io.js';
import { hasEnded } from './jobWait.js';
import type { JobWatcher } from './jobWait.js';
import { redact } from '../shared/redact.js';

/** Counts of a FAILED job's batches, read from its errors' `args`. */
interface BatchCounts {
  failedBatches: number;
  batches: number;
  notSent: number;
}

const count = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/**
 * The batch counts a job's errors hold, when they hold any (the emulator's do): each batch error
 * has the job's number of `batches`; an error with `failedBatches` (a job stopped early, a capped
 * list) has the exact counts; otherwise the failed batches are the distinct batches with errors.
 */
function batchCounts(job: Job): BatchCounts | undefined {
  let batches: number | undefined;
  let exact: Omit<BatchCounts, 'batches'> | undefined;
  const failed = new Set<string>();
  for (const { args } of job.errors) {
    if (!args || !count(args.batches)) continue;
    batches = args.batches;
    if (count(args.failedBatches)) exact = { failedBatches: args.failedBatches, notSent: count(args.notSent) ? args.notSent : 0 };
    else failed.add(JSON.stringify([args.documentId, args.firstLine]));
  }
  if (batches === undefined) return undefined;
  return { batches, ...(exact ?? { failedBatches: failed.size, notSent: 0 }) };
}

const firstLine = (job: Job | null) => job?.errors[0]?.stack.split('\n')[0];

/**
 * What failed, in words, for a job that has errors.
 *
 * @param job - a job
 * @returns e.g. `12 of 12 batches failed` (with `, 8 not sent` when the job stopped early), when
 * the job's errors hold batch counts (the emulator's do); undefined otherwise
 * @remarks The service does not publish the shape of a job's errors. The emulator's batch errors
 * carry the job's number of `batches` in their `args`, and the error that stops a job early
 * `{ failedBatches, batches, notSent }`. Without such counts, the line falls back to the number
 * of errors.
 */
function batchesFailed(job: Job): string | undefined {
  const counts = batchCounts(job);
  if (!counts) return undefined;
  return `${counts.failedBatches} of ${counts.batches} batch${counts.batches === 1 ? '' : 'es'} failed${counts.notSent > 0 ? `, ${counts.notSent} not sent` : ''}`;
}

/** ` (12 of 12 batches failed: <first error>)`, or ` (3 errors; first: <first error>)`, or '' without errors. */
export function statusNote(job: Job): string {
  if (job.errors.length === 0) return '';
  const batches = batchesFailed(job);
  const first = firstLine(job);
  if (batches) return ` (${batches}${first ? `: ${first}` : ''})`;
  return ` (${job.errors.length} errors; first: ${first})`;
}

/**
 * One job as JSON (`--json`), the same shape in every command.
 *
 * @param jobId - the id asked for
 * @param job - the job, or null when unknown
 * @returns `{ jobId, found, status, progress, errors, resultId, createdAt, updatedAt }`
 */
export function jobJson(jobId: string, job: Job | null): Record<string, unknown> {
  if (!job) return { jobId, found: false };
  const { status, progress, errors, resultId, createdAt, updatedAt } = job;
  return { jobId, found: true, status, progress, errors, resultId, createdAt, updatedAt };
}

/**
 * One outcome as a line of text.
 *
 * @param outcome - how the wait for a job ended
 * @returns e.g. `job-1 DELIVERED 100%`, or
 * `job-2 FAILED 75%: 1 of 4 batches failed: document "doc-2" lines 0-4: the model answered HTTP 500 (2 errors)`
 * @remarks A FAILED job's progress counts the batches whose labels were stored; the words after it
 * say what failed (see {@link batchesFailed}) and the first error.
 */
export function outcomeLine(outcome: JobOutcome): string {
  switch (outcome.outcome) {
    case 'delivered':
      return `${outcome.jobId} DELIVERED ${outcome.job.progress}%`;
    case 'failed': {
      const what = [batchesFailed(outcome.job), firstLine(outcome.job)].filter(Boolean).join(': ');
      return `${outcome.jobId} FAILED ${outcome.job.progress}%${what ? `: ${what}` : ''} (${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'})`;
    }
    case 'timed-out':
      return outcome.job
        ? `${outcome.jobId} still running when --timeout ran out (last seen ${outcome.job.status} ${outcome.job.progress}%)`
        : `${outcome.jobId} not seen before --timeout ran out (is the id right?)`;
    case 'not-found':
      return `${outcome.jobId} not found`;
  }
}

/**
 * The progress display while waiting: NDJSON on stdout with `--json`, a bar per job on a
 * terminal (cli-progress, on stderr), plain lines on stderr otherwise (CI logs), each change
 * but a job's end, which the outcome line after the wait says once.
 *
 * @param io - the process (decides TTY or not)
 * @param printer - where lines go
 * @param options - `json`, and the job ids (one bar each)
 * @returns a watcher for `waitForAll`
 */
export async function createJobWatcher(io: Io, printer: Printer, options: { json: boolean; jobIds: string[] }): Promise<JobWatcher> {
  if (options.json) {
    return {
      update: (job) => printer.json({ event: 'progress', jobId: job.id, status: job.status, progress: job.progress }),
      stop: () => undefined,
    };
  }
  if (io.stderr.isTTY !== true) {
    // The end of a job is the outcome, printed once after the wait (with what failed): not here too.
    return { update: (job) => (hasEnded(job) ? undefined : printer.err(`job ${job.id} ${job.status} ${job.progress}%`)), stop: () => undefined };
  }
  const { default: cliProgress } = await import('cli-progress');
  const multibar = new cliProgress.MultiBar(
    {
      stream: io.stderr as NodeJS.WritableStream,
      format: (_options, params, payload: { jobId: string; status: string }) =>
        redact(`${payload.jobId} ${'█'.repeat(Math.round(params.progress * 30)).padEnd(30, '░')} ${String(params.value).padStart(3)}% ${payload.status}`, printer.secrets),
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map(options.jobIds.map((id) => [id, multibar.create(100, 0, { jobId: id, status: 'waiting' })]));
  return {
    update: (job) => bars.get(job.id)?.update(job.progress, { jobId: job.id, status: job.status }),
    stop: () => multibar.stop(),
  };
}
