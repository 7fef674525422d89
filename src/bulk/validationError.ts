import { LabelkitError } from 'labelkit';
import type { ErrorDetails, ValidationProblem } from 'labelkit';

/**
 * Bad input to a many-project run or a corrupt journal, found before anything was sent: a
 * {@link LabelkitError} of code `VALIDATION` whose `problems` list every one.
 *
 * @remarks The bulk room sits above the client and uses its public entry only, which exports the
 * base class and not the client's own subclasses; callers tell errors apart by `code`, so this
 * error looks to them like the client's: name `ValidationError`, code `VALIDATION`, a message
 * `[Validation] N problems: path: message; …` (redacted by the base class), `problems` in
 * `toJSON()`.
 * @example
 * ```ts
 * throw new BulkValidationError([{ path: 'inputs', message: 'must be a non-empty list' }]);
 * ```
 */
export class BulkValidationError extends LabelkitError {
  override name = 'ValidationError';
  readonly problems: ValidationProblem[];

  /**
   * @param problems - every problem found, each with its path
   * @param details - usually the operation that was not sent
   */
  constructor(problems: ValidationProblem[], details: ErrorDetails = {}) {
    super(
      'VALIDATION',
      `[Validation] ${problems.length} problem${problems.length === 1 ? '' : 's'}: ` + problems.map((p) => `${p.path}: ${p.message}`).join('; '),
      details,
    );
    this.problems = problems;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), problems: this.problems };
  }
}
