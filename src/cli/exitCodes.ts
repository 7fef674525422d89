// errors.js, not index.js: the client's entry loads urql, which `labelkit --help` does not need.
import { isLabelkitError } from '../client/errors.js';
import { WaitInterrupted } from './interrupted.js';
import { CliUsageError } from './usageError.js';

/**
 * Exit codes of the `labelkit` command, exactly those of docs/CONTRACTS.md (CLI).
 *
 * @remarks `--help` and the README list them; {@link exitCodeOf} is the one place that maps an
 * error to one of them.
 */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  network: 4,
  jobFailed: 5,
  jobTimedOut: 6,
  jobNotFound: 7,
  schemaIncompatible: 8,
  interrupted: 130,
} as const;

/** One of the values of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit-code table as printed by `labelkit --help`. */
export const EXIT_CODE_HELP = [
  'Exit codes:',
  '  0    success (jobs: every job DELIVERED)',
  '  1    unexpected error (also: the service answered with a GraphQL error; model check: an invalid answer)',
  '  2    invalid input or usage (every problem is listed; nothing was sent)',
  '  3    authentication failed',
  '  4    network failure (service or model unreachable, HTTP error, unusable answer, time-out)',
  '  5    a job FAILED',
  '  6    waiting for a job timed out (--timeout)',
  '  7    a job was not found',
  '  8    schema check: the service\'s schema breaks what labelkit uses',
  '  130  interrupted (Ctrl-C)',
].join('\n');

/**
 * Maps any error to the exit code of the `labelkit` command.
 *
 * @param error - anything a command threw
 * @returns the exit code: by the labelkit error's `code`, 2 for a {@link CliUsageError}, else 1
 * @remarks The one mapping from the client's error classes (their `code` field) to exit codes.
 * `ABORTED` means the user pressed Ctrl-C (the CLI aborts only then), hence 130.
 * @example
 * ```ts
 * exitCodeOf(new AuthError('refused')); // 3
 * ```
 */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliUsageError) return EXIT.usage;
  if (error instanceof WaitInterrupted) return EXIT.interrupted;
  if (!isLabelkitError(error)) return EXIT.unexpected;
  switch (error.code) {
    case 'VALIDATION':
      return EXIT.usage;
    case 'AUTH':
      return EXIT.auth;
    case 'NETWORK':
    case 'TIMEOUT':
    case 'BAD_RESPONSE':
      return EXIT.network;
    case 'ABORTED':
      return EXIT.interrupted;
    case 'JOB_FAILED':
      return EXIT.jobFailed;
    case 'JOB_TIMEOUT':
      return EXIT.jobTimedOut;
    case 'JOB_NOT_FOUND':
      return EXIT.jobNotFound;
    case 'GRAPHQL':
    case 'LABEL_SET':
      return EXIT.unexpected;
  }
}
