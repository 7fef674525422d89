// errors.js, not index.js: the client's entry loads urql, which `labelkit --help` does not need.
import { isLabelkitError } from '../client/errors.js';
// The room's errors alone (no dependencies), for the same reason.
import { isLabelSetsError } from '../labelSets/errors.js';
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
  /** `label-sets plan --exit-code`: the plan has changes (the label sets differ from the file). */
  labelSetsDiffer: 9,
  /** `label-sets apply`: the sets changed since the plan; nothing was written. */
  labelSetsChanged: 10,
  interrupted: 130,
} as const;

/** One of the values of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit-code table as printed by `labelkit --help`. */
export const EXIT_CODE_HELP = [
  'Exit codes:',
  '  0    success (jobs: every job DELIVERED)',
  '  1    unexpected error (also: the service answered with a GraphQL error; model check: an invalid answer)',
  '  2    invalid input or usage (every problem is listed; nothing was sent); label sets: a file that cannot',
  '       be applied (e.g. a set moved to another index), or a destructive step without --allow-destructive',
  '  3    authentication failed',
  '  4    network failure (service or model unreachable, HTTP error, unusable answer, time-out)',
  '  5    a job FAILED',
  '  6    waiting for a job timed out (--timeout)',
  '  7    a job was not found',
  '  8    schema check: the service\'s schema breaks what labelkit uses',
  '  9    label-sets plan --exit-code: the label sets differ from the file (there is something to apply)',
  '  10   label-sets apply: the label sets changed since the plan; nothing was written (plan again)',
  '  130  interrupted (Ctrl-C)',
].join('\n');

/**
 * Maps any error to the exit code of the `labelkit` command.
 *
 * @param error - anything a command threw
 * @returns the exit code: by the labelkit error's `code`, 2 for a {@link CliUsageError}, by the
 * label-set workflow's `code` (file, plan, destructive: 2; changed since the plan: 10; a failed
 * write: its cause's), else 1
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
  if (isLabelSetsError(error)) {
    switch (error.code) {
      case 'FILE':
      case 'PLAN':
      case 'DESTRUCTIVE':
        return EXIT.usage;
      case 'STALE':
        return EXIT.labelSetsChanged;
      case 'APPLY':
        // A write failed: the code of its cause (4 for a lost answer, 1 for the service's refusal).
        return error.cause === undefined ? EXIT.unexpected : exitCodeOf(error.cause);
    }
  }
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
