// Loaded by runAction only when a command fails: the client's entry loads urql.
import { isLabelkitError } from 'labelkit';
import type { LabelkitError } from 'labelkit';
import type { Printer } from './io.js';
import { WaitInterrupted } from './interrupted.js';
import { CliUsageError } from './usageError.js';
import type { UsageProblem } from './usageError.js';

/** Maps a client validation path (e.g. `input.projectId`) to the flag the user typed. */
export type FieldNames = Record<string, string>;

function hintFor(error: LabelkitError): string {
  switch (error.code) {
    case 'AUTH':
      return 'check LABELKIT_TOKEN, or LABELKIT_CLIENT_ID and LABELKIT_CLIENT_SECRET';
    case 'NETWORK':
    case 'TIMEOUT':
    case 'BAD_RESPONSE':
      return 'check the URL (--url / LABELKIT_URL for the service) and that the server is up; --verbose shows details';
    case 'ABORTED':
      return 'interrupted';
    case 'GRAPHQL':
      return 'the service refused the request; check the ids you passed; --verbose shows details';
    case 'JOB_FAILED':
      return "labelkit jobs <id> --json shows the job's errors";
    case 'JOB_TIMEOUT':
      return 'raise --timeout, or wait again with labelkit jobs <id> --wait';
    case 'JOB_NOT_FOUND':
      return 'check the job id';
    case 'LABEL_SET':
      return 'the label set on the service is inconsistent; --json prints it as it is';
    case 'VALIDATION':
      return 'see --help';
  }
}

function printProblems(printer: Printer, problems: UsageProblem[], hint: string | undefined): void {
  if (problems.length === 1) {
    const [p] = problems as [UsageProblem];
    printer.err(`labelkit: ${p.field ? `${p.field}: ` : ''}${p.message}${hint ? ` (hint: ${hint})` : ''}`);
    return;
  }
  printer.err(`labelkit: invalid input, ${problems.length} problems (nothing was sent):`);
  for (const p of problems) printer.err(`  ${p.field ? `${p.field}: ` : ''}${p.message}`);
  if (hint) printer.err(`hint: ${hint}`);
}

/**
 * Prints an error to stderr: one clear line plus a hint (every problem for bad input).
 *
 * @param error - what a command threw
 * @param printer - the run's printer (redacts every known secret)
 * @param options - `verbose` adds the stack and request details; `fields` names flags for paths
 * @remarks Never prints a secret: labelkit errors hold none, and the printer redacts anything it
 * was told about. The stack is printed only with `--verbose`.
 */
export function reportError(error: unknown, printer: Printer, options: { verbose?: boolean; fields?: FieldNames } = {}): void {
  if (error instanceof CliUsageError) {
    printProblems(printer, error.problems, error.hint);
  } else if (error instanceof WaitInterrupted) {
    const again = error.jobIds.length > 0 ? ` (hint: labelkit jobs ${error.jobIds.join(' ')} --wait waits again)` : '';
    printer.err(`labelkit: ${error.message}${again}`);
    return;
  } else if (isLabelkitError(error) && error.code === 'VALIDATION') {
    const problems = ((error as { problems?: { path: string; message: string }[] }).problems ?? []).map((p) => ({
      field: options.fields?.[p.path] ?? p.path,
      message: p.message,
    }));
    printProblems(printer, problems.length > 0 ? problems : [{ field: '', message: error.message }], hintFor(error));
  } else if (isLabelkitError(error)) {
    const hint =
      error.phase === 'token' && error.code !== 'AUTH'
        ? 'the token endpoint did not answer usably; check that it is up (LABELKIT_URL decides where it is); --verbose shows details'
        : hintFor(error);
    printer.err(`labelkit: ${error.message} (hint: ${hint})`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    printer.err(`labelkit: unexpected error: ${message}${options.verbose ? '' : ' (hint: --verbose shows details)'}`);
  }
  if (!options.verbose) return;
  if (isLabelkitError(error)) {
    const { code, operationName, requestId, status, phase } = error;
    printer.err(`details: ${JSON.stringify({ code, operationName, requestId, status, phase })}`);
    // The whole chain: each link is a redacted, size-capped copy (see the client's safeCause).
    let cause: unknown = error.cause;
    for (let depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
      printer.err(`cause: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
      cause = cause instanceof Error ? (cause as { cause?: unknown }).cause : undefined;
    }
  }
  if (error instanceof Error && error.stack) printer.err(error.stack);
}
