import { redact, redactValue } from '../../shared/redact.js';
import type { StoredJob, StoredJobError } from '../types.js';
import { escapeHtml } from './html.js';

/** Statuses after which a job no longer changes. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['DELIVERED', 'FAILED', 'NONE']);

/**
 * A job's status as a coloured pill and its progress as a bar.
 *
 * @param job - the job
 * @returns HTML (`<span class="status status-…">` and a `<progress>`)
 * @remarks The status is escaped like any text; progress is clamped to 0–100.
 * @example
 * ```ts
 * const html = jobStatusHtml(store.jobs.get('job-1')!);
 * ```
 */
export function jobStatusHtml(job: StoredJob): string {
  const status = escapeHtml(job.status);
  const progress = Math.max(0, Math.min(100, Math.round(job.progress)));
  return `<span class="status status-${status}" data-status="${status}">${status}</span> <progress max="100" value="${progress}"></progress> <span data-progress>${progress}%</span>`;
}

function whereOf(args: Record<string, unknown> | null): string {
  if (!args) return '';
  const doc = typeof args.documentId === 'string' ? `document ${args.documentId}` : '';
  const lines = typeof args.firstLine === 'number' ? `lines ${args.firstLine}–${String(args.lastLine ?? args.firstLine)}` : '';
  return [doc, lines].filter(Boolean).join(', ');
}

function restOf(args: Record<string, unknown> | null): string {
  if (!args) return '';
  const { documentId: _d, firstLine: _f, lastLine: _l, ...rest } = redactValue(args);
  return Object.keys(rest).length > 0 ? JSON.stringify(rest) : '';
}

/**
 * The errors of a job as a table: which batch (document and lines), which rule, the details.
 *
 * @param errors - the job's errors
 * @returns HTML (a `<table class="errors">`), or a short note when there are none
 * @remarks Every text passes through the shared redactor (`redact` for the message, `redactValue`
 * for `args`) before escaping: a credential that a model echoed never reaches the page.
 * @example
 * ```ts
 * const html = jobErrorsHtml(job.errors);
 * ```
 */
export function jobErrorsHtml(errors: readonly StoredJobError[]): string {
  if (errors.length === 0) return '<p class="muted small">No errors.</p>';
  const rows = errors
    .map(
      (e) =>
        `<tr class="err"><td class="mono">${escapeHtml(e.id)}</td><td>${escapeHtml(whereOf(e.args))}</td><td>${escapeHtml(redact(e.stack))}</td><td class="mono small">${escapeHtml(restOf(e.args))}</td></tr>`,
    )
    .join('\n');
  return `<table class="errors"><thead><tr><th>error</th><th>where</th><th>what went wrong</th><th>details</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}
