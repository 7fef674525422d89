import type { Printer } from '../../io.js';
import { jobJson, outcomeLine, statusNote } from '../../jobLines.js';
import type { JobsResult } from './runner.js';

/**
 * Prints the outcome of `labelkit jobs` (and the end of `auto-label --wait`).
 *
 * @param printer - where to print
 * @param result - snapshots or outcomes
 * @param json - NDJSON: one object per job (`event: "status"` or `event: "outcome"`)
 * @remarks A job with errors gets what failed next to its progress, e.g.
 * `job-1 FAILED 0% (12 of 12 batches failed: document "doc-1" lines 0-2: …)`; the errors' text is
 * the service's (the emulator's is redacted), and the printer redacts every secret it knows.
 */
export function printJobs(printer: Printer, result: JobsResult, json: boolean): void {
  if (result.kind === 'status') {
    result.jobIds.forEach((jobId, i) => {
      const job = result.jobs[i] ?? null;
      if (json) printer.json({ event: 'status', ...jobJson(jobId, job) });
      else if (!job) printer.out(`${jobId} not found`);
      else printer.out(`${jobId} ${job.status} ${job.progress}%${statusNote(job)}`);
    });
    return;
  }
  for (const outcome of result.outcomes) {
    if (json) printer.json({ event: 'outcome', outcome: outcome.outcome, ...jobJson(outcome.jobId, outcome.job) });
    else printer.out(outcomeLine(outcome));
  }
}

