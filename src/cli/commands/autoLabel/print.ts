import type { JobSnapshot } from 'labelkit';
import type { Printer } from '../../io.js';
import { own } from '../../../shared/redact.js';
import { jobJson, outcomeLine } from '../../jobLines.js';
import type { AutoLabelResult } from './runner.js';

/**
 * Prints the new job: its id alone on stdout (for `JOB=$(labelkit auto-label …)`), or with
 * `--json` one line `{"event":"started","jobId","status","progress"}`.
 *
 * @param printer - where to print
 * @param job - the job the service created
 * @param json - NDJSON
 */
export function printStarted(printer: Printer, job: JobSnapshot, json: boolean): void {
  if (json) printer.json({ event: 'started', jobId: job.id, status: job.status, progress: job.progress });
  else printer.out(job.id);
}

/**
 * Prints the end of `labelkit auto-label`: the dry-run request, or the outcome of `--wait`.
 *
 * @param printer - where to print
 * @param result - what the runner returned
 * @param json - NDJSON / one JSON object
 * @remarks The dry run prints `{"dryRun":true,"url","operationName","query","variables"}` with
 * `--json`, otherwise a header line (on stderr) and the request body as indented JSON (on stdout).
 */
export function printAutoLabel(printer: Printer, result: AutoLabelResult, json: boolean): void {
  switch (result.kind) {
    case 'dry-run': {
      const { url, operationName, query, variables } = result.request;
      if (json) {
        printer.json({ dryRun: true, url, operationName, query, variables });
        return;
      }
      printer.err(own`labelkit: dry run, nothing was sent. This request would be POSTed to ${url} (secret key shown as ***):`);
      printer.json({ operationName, query, variables }, { indent: 2 });
      return;
    }
    case 'started':
      return;
    case 'waited':
      if (json) printer.json({ event: 'outcome', outcome: result.outcome.outcome, ...jobJson(result.outcome.jobId, result.outcome.job) });
      else printer.err(outcomeLine(result.outcome));
  }
}
