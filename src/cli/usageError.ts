import type { OwnText } from '../shared/redact.js';

/** One problem with what the user typed: the flag (or variable) at fault and the rule it breaks. */
export interface UsageProblem {
  /** The flag, argument or environment variable, e.g. `--project` or `LABELKIT_URL`. */
  field: string;
  /** The rule, e.g. `required`. Never quotes a secret. */
  message: string;
  /**
   * The same rule as labelkit's own wording and values (see {@link ownProblem}): its fixed words are
   * printed as they are even when a secret is a common word; without it the message is redacted whole.
   */
  readonly own?: OwnText;
}

/**
 * A problem whose message is written with the `own` tag of shared/redact.
 *
 * @param field - the flag, argument or variable
 * @param message - the rule, as own wording and values
 * @returns the problem: `message` is the plain text, `own` (not enumerable) the wording the printer keeps
 * @example
 * ```ts
 * problems.push(ownProblem('--secret-key-env', own`${name} is not set (the secret your model expects)`));
 * ```
 */
export function ownProblem(field: string, message: OwnText): UsageProblem {
  const problem: UsageProblem = { field, message: String(message) };
  Object.defineProperty(problem, 'own', { value: message, enumerable: false });
  return problem;
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

/**
 * Turns an error of the argument parser (commander) into the one line every usage error has.
 *
 * @param message - commander's message, e.g. `error: unknown option '--bogus'` (it may carry a
 * second line such as `(Did you mean --project?)`)
 * @param command - the command as typed after `labelkit` (e.g. `model check`), or `''` for `labelkit` itself
 * @returns `labelkit: unknown option '--bogus' (hint: labelkit cabinet --help)`, without a newline
 * @remarks The value of an unknown `--flag=value` is left out (`'--tokn=…'`): it may be a secret
 * typed under a misspelt flag, and nothing is known yet that could redact it.
 * @example
 * ```ts
 * parserErrorLine("error: missing required argument 'id'\n", 'jobs');
 * // "labelkit: missing required argument 'id' (hint: labelkit jobs --help)"
 * ```
 */
export function parserErrorLine(message: string, command: string): string {
  const text = message
    .replace(/^error: /, '')
    .replace(/(unknown option '[^'=\n]*=).*'/, '$1…\'')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  return `labelkit: ${text} (hint: labelkit ${command ? `${command} ` : ''}--help)`;
}
