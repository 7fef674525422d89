/** What an {@link ExportError} is about. */
export type ExportErrorCode = 'FORMAT' | 'LAYER' | 'OUT' | 'RESUME';

/**
 * An export that cannot be done as asked: a format that does not exist or cannot hold a label or
 * token, a label set that is not there, an output that cannot be written, or a resume with other
 * flags than the export it would go on from.
 *
 * @remarks `field` is the CLI flag at fault (`--format`, `--layer`, `--out`); the CLI prints it as a
 * usage problem (exit 2). Thrown before anything is written, except `FORMAT` for a token that
 * `conll` cannot hold, which is found as the document is written.
 */
export class ExportError extends Error {
  override name = 'ExportError';
  /**
   * @param code - what is wrong
   * @param field - the flag at fault
   * @param message - what is wrong, and what to do
   */
  constructor(
    readonly code: ExportErrorCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
