/** One problem with what the user typed: the flag (or variable) at fault and the rule it breaks. */
export interface UsageProblem {
  /** The flag, argument or environment variable, e.g. `--project` or `LABELKIT_URL`. */
  field: string;
  /** The rule, e.g. `required`. Never quotes a secret. */
  message: string;
}

/**
 * Bad command-line input, found before anything was sent; `problems` lists every one.
 *
 * @remarks Exit code 2. `hint` is printed after the problems (e.g. which variable to set).
 * @example
 * ```ts
 * throw new CliUsageError([{ field: '--project', message: 'required' }], 'see labelkit cabinet --help');
 * ```
 */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
  readonly problems: UsageProblem[];
  readonly hint: string | undefined;
  constructor(problems: UsageProblem[], hint?: string) {
    super(problems.map((p) => `${p.field}: ${p.message}`).join('; '));
    this.problems = problems;
    this.hint = hint;
  }
}
