// Loaded by runAction only when a command fails: the client's entry loads urql.
import { isLabelkitError } from 'labelkit';
import type { LabelkitError } from 'labelkit';
import type { ConnectionSources } from './connection.js';
import type { Printer } from './io.js';
import { FileWriteError } from '../shared/fileWrites.js';
import { Interrupted, WaitInterrupted } from './interrupted.js';
import { JournalFailure } from './journalFailure.js';
import { inFlagTerms } from './optionFlags.js';
import type { OptionFlags } from './optionFlags.js';
import { CliUsageError } from './usageError.js';
import type { UsageProblem } from './usageError.js';
import { own, ownWords } from '../shared/redact.js';
import type { OwnText } from '../shared/redact.js';

/** Maps a client validation path (e.g. `input.projectId`) to the flag the user typed. */
export type FieldNames = Record<string, string>;

/**
 * What the hints of one command may name: its flags, and where the values they point at came
 * from.
 *
 * @remarks Every hint names a flag or variable of the command that ran, and the source the value
 * actually came from (flag, variable, file); where a field is absent the hint stays generic
 * rather than name something the command does not take.
 */
export interface HintTerms {
  /** The command as typed after `labelkit`, e.g. `auto-label` or `model check`. */
  command?: string;
  /** Client validation paths → the command's flags. */
  fields?: FieldNames;
  /** The library's options, as the client's messages name them → the command's flags. */
  options?: OptionFlags;
  /** Where the service URL and the credential came from (commands that call the service). */
  connection?: ConnectionSources;
  /**
   * What a network failure is about when the command calls something other than the service,
   * e.g. `{ what: 'the model', url: 'the <url> argument' }`.
   */
  target?: { what: string; url: string };
}

// Hints are labelkit's own wording: they name commands, flags and variables, never a value; the
// one exception, the credential's source, may hold a file name and stays a value (see `own`).
function helpHint(terms: HintTerms): string {
  return terms.command ? `labelkit ${terms.command} --help lists every flag and variable` : '--help lists every flag and variable';
}

function hintFor(error: LabelkitError, terms: HintTerms): string | OwnText {
  switch (error.code) {
    case 'AUTH':
      return terms.connection ? own`check ${terms.connection.credential}` : 'check the access token or the client credentials';
    case 'NETWORK':
    case 'TIMEOUT':
    case 'BAD_RESPONSE':
      if (terms.target) return `check the URL (${terms.target.url}) and that ${terms.target.what} is up; --verbose shows details`;
      if (error.phase === 'token') {
        const from = terms.connection ? ` (its address comes from the URL in ${terms.connection.url})` : '';
        return `the token endpoint did not answer usably; check that it is up${from}; --verbose shows details`;
      }
      return `check the URL${terms.connection ? ` (${terms.connection.url})` : ''} and that the service is up; --verbose shows details`;
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
      return helpHint(terms);
  }
}

/** A flag, an argument or a variable name (`--secret-key-env`, `<url>`, `LABELKIT_URL`): labelkit's words; a `file:line` is not. */
const NAMED_FIELD = /^(?:--[a-z][a-z-]*(?:[,/] ?--[a-z][a-z-]*)*|<[a-z]+>|[A-Z][A-Z0-9_]*)$/;

function printProblems(printer: Printer, problems: UsageProblem[], hint: string | OwnText, terms: HintTerms): void {
  const field = (p: UsageProblem) => (!p.field ? '' : NAMED_FIELD.test(p.field) ? ownWords(`${p.field}: `) : own`${p.field}: `);
  const line = (p: UsageProblem) => own`${field(p)}${p.own ?? inFlagTerms(p.message, terms.options)}`;
  const hinted = (h: string | OwnText) => (typeof h === 'string' ? ownWords(h) : h);
  // An empty hint: the problem's own words already say what to do (e.g. `(try --port 0)`).
  if (problems.length === 1) {
    printer.err(hint ? own`labelkit: ${line(problems[0]!)} (hint: ${hinted(hint)})` : own`labelkit: ${line(problems[0]!)}`);
    return;
  }
  printer.err(own`labelkit: invalid input, ${ownWords(String(problems.length))} problems (nothing was sent):`);
  for (const p of problems) printer.err(own`  ${line(p)}`);
  if (hint) printer.err(own`hint: ${hinted(hint)}`);
}

/**
 * Prints an error to stderr: one clear line plus a hint (every problem for bad input).
 *
 * @param error - what a command threw
 * @param printer - the run's printer (redacts every known secret)
 * @param options - `verbose` adds the stack and request details; the rest are the command's
 * {@link HintTerms} (flags for validation paths and options, where the URL and credential came from)
 * @remarks Never prints a secret: labelkit errors hold none, and the printer redacts anything it
 * was told about. The stack is printed only with `--verbose`. A usage error without a hint of its
 * own gets `labelkit <the command> --help …`; the client's messages are put in the command's
 * words (`allowInsecureEndpoint` becomes `--allow-insecure-endpoint` where the command has it).
 * @example
 * ```ts
 * reportError(error, printer, { command: 'cabinet', connection: connectionSources(flags, io.env) });
 * // labelkit: [Auth] … (hint: check the access token in token.txt (--token-file))
 * ```
 */
export function reportError(error: unknown, printer: Printer, options: { verbose?: boolean } & HintTerms = {}): void {
  if (error instanceof CliUsageError) {
    printProblems(printer, error.problems, error.hint ?? helpHint(options), options);
  } else if (error instanceof WaitInterrupted) {
    const again = error.jobIds.length > 0 ? ` (hint: labelkit jobs ${error.jobIds.join(' ')} --wait waits again)` : '';
    printer.err(`labelkit: ${error.message}${again}`);
    return;
  } else if (error instanceof Interrupted) {
    printer.err(own`labelkit: ${error.message}`);
    return;
  } else if (error instanceof FileWriteError) {
    // Names the file (the user's own path) and what the file system said.
    printer.err(own`labelkit: ${error.message}`);
  } else if (error instanceof JournalFailure) {
    // The journal's message names it (a database URL without its password); the hint its flag.
    printer.err(own`labelkit: ${error.message} (hint: ${ownWords(error.hint)})`);
  } else if (isLabelkitError(error) && error.code === 'VALIDATION') {
    // The client names its options (`options.url`); the command line has a flag or a variable for the URL and the token.
    const from: Record<string, string | undefined> = { 'options.url': options.connection?.url, 'options.token': options.connection?.credential };
    const problems = error.problems.map((p) => ({
      field: options.fields?.[p.path] ?? from[p.path] ?? p.path,
      message: p.message,
    }));
    printProblems(printer, problems.length > 0 ? problems : [{ field: '', message: error.message }], hintFor(error, options), options);
  } else if (isLabelkitError(error)) {
    const hint = hintFor(error, options);
    printer.err(own`labelkit: ${inFlagTerms(error.message, options.options)} (hint: ${typeof hint === 'string' ? ownWords(hint) : hint})`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    printer.err(own`labelkit: unexpected error: ${message}${ownWords(options.verbose ? '' : ' (hint: --verbose shows details)')}`);
  }
  if (!options.verbose) return;
  if (isLabelkitError(error)) {
    const { code, operationName, requestId, status, phase } = error;
    printer.err(own`details: ${JSON.stringify({ code, operationName, requestId, status, phase })}`);
    // The whole chain: each link is a redacted, size-capped copy (see the client's safeCause).
    let cause: unknown = error.cause;
    for (let depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
      printer.err(own`cause: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  if (error instanceof Error && error.stack) printer.err(error.stack);
}
