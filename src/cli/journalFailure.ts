/**
 * A many-project run's journal failed (could not be opened, read or written): the journal's own
 * error as `cause`, and a hint naming the journal's flag (`--journal`), not the service's
 * `LABELKIT_URL`.
 *
 * @remarks The exit code is the cause's (`exitCodeOf`): 4 for a database that cannot be reached,
 * dropped the connection or timed out, 3 for a refused login, 1 otherwise. Its message is the
 * cause's, which names the journal (a database URL with its password hidden).
 * @example
 * ```ts
 * throw new JournalFailure(error, 'check that the database of --journal is up');
 * ```
 */
export class JournalFailure extends Error {
  override name = 'JournalFailure';
  /** What to do, in the command's words. */
  readonly hint: string;
  /**
   * @param cause - the journal's error (already without a password)
   * @param hint - what to do, naming the flag
   */
  constructor(cause: unknown, hint: string) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.hint = hint;
  }
}
