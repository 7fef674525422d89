import { isLabelkitError } from 'labelkit';
import { EXIT } from './exitCodes.js';
import type { ExitCode } from './exitCodes.js';
import { isLabelSetsAsCodeError } from '../labelSets/errors.js';
import { FileWriteError } from '../shared/fileWrites.js';
import { Interrupted } from './interrupted.js';
import { JournalFailure } from './journalFailure.js';
import { CliUsageError } from './usageError.js';

/**
 * Maps any error to the exit code of the `labelkit` command.
 *
 * @param error - anything a command threw
 * @returns the exit code: by the labelkit error's `code`, 2 for a {@link CliUsageError}, 130 for
 * an {@link Interrupted} command, 4 for a file that could not be written (`FileWriteError`), by the
 * journal failure's cause's, by the
 * label-set workflow's `code` (file, plan, destructive: 2; changed since the plan: 10; a failed
 * write: its cause's), else 1
 * @remarks The one mapping from labelkit errors (their `code` field) to exit codes. Apart from
 * exitCodes.ts, because it loads the client's entry (urql), which `labelkit --help` does not need.
 * `ABORTED` means the user pressed Ctrl-C (the CLI aborts only then), hence 130.
 * @example
 * ```ts
 * exitCodeOf(new LabelkitError('AUTH', '[Auth] refused')); // 3
 * ```
 */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliUsageError) return EXIT.usage;
  if (error instanceof Interrupted) return EXIT.interrupted;
  // A file that could not be written (a full disk): the environment failed, as for the network.
  if (error instanceof FileWriteError) return EXIT.network;
  // A many-project run's journal: the code of what failed (4 unreachable, 3 login refused).
  if (error instanceof JournalFailure) return exitCodeOf(error.cause);
  if (isLabelSetsAsCodeError(error)) {
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
