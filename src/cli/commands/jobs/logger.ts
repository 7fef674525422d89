import type { Job, JobOutcome } from 'labelkit';
import type { Io, Printer } from '../../io.js';
import { redact } from '../../../shared/redact.js';
import type { JobWatcher, JobsResult } from './runner.js';

const firstLine = (job: Job | null) => job?.errors[0]?.stack.split('\n')[0];

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
 * @returns e.g. `job-1 DELIVERED 100%` or `job-2 FAILED 40%: model answered 500`
 */
export function outcomeLine(outcome: JobOutcome): string {
  switch (outcome.outcome) {
    case 'delivered':
      return `${outcome.jobId} DELIVERED ${outcome.job.progress}%`;
    case 'failed':
      return `${outcome.jobId} FAILED ${outcome.job.progress}%${firstLine(outcome.job) ? `: ${firstLine(outcome.job)}` : ''} (${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'})`;
    case 'timed-out':
      return outcome.job
        ? `${outcome.jobId} still running when --timeout ran out (last seen ${outcome.job.status} ${outcome.job.progress}%)`
        : `${outcome.jobId} not seen before --timeout ran out (is the id right?)`;
    case 'not-found':
      return `${outcome.jobId} not found`;
  }
}

/**
 * Prints the outcome of `labelkit jobs` (and the end of `auto-label --wait`).
 *
 * @param printer - where to print
 * @param result - snapshots or outcomes
 * @param json - NDJSON: one object per job (`event: "status"` or `event: "outcome"`)
 */
export function printJobs(printer: Printer, result: JobsResult, json: boolean): void {
  if (result.kind === 'status') {
    result.jobIds.forEach((jobId, i) => {
      const job = result.jobs[i] ?? null;
      if (json) printer.json({ event: 'status', ...jobJson(jobId, job) });
      else if (!job) printer.out(`${jobId} not found`);
      else printer.out(`${jobId} ${job.status} ${job.progress}%${job.errors.length > 0 ? ` (${job.errors.length} errors; first: ${firstLine(job)})` : ''}`);
    });
    return;
  }
  for (const outcome of result.outcomes) {
    if (json) printer.json({ event: 'outcome', outcome: outcome.outcome, ...jobJson(outcome.jobId, outcome.job) });
    else printer.out(outcomeLine(outcome));
  }
}

/**
 * The progress display while waiting: NDJSON on stdout with `--json`, a bar per job on a
 * terminal (cli-progress, on stderr), plain lines on stderr otherwise (CI logs).
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
    return { update: (job) => printer.err(`job ${job.id} ${job.status} ${job.progress}%`), stop: () => undefined };
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
