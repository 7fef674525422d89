/**
 * One option of the library, as the client's messages name it, and the flag that sets it on the
 * command line.
 */
interface OptionFlag {
  /** The flag, e.g. `--allow-insecure-endpoint`. */
  flag: string;
  /** Where a message names the option (global), e.g. `allowInsecureEndpoint` in "allow it explicitly (allowInsecureEndpoint)". */
  spelled: RegExp;
}

/** The options a command's flags set: how its hints translate the client's words. */
export type OptionFlags = readonly OptionFlag[];

// Not inside another word, flag, URL, path or address (so "--force" or "x-force.example" stay).
const EDGE_BEFORE = '(?<![\\w./:@-])';
const EDGE_AFTER = '(?![\\w./:@-])';

/**
 * The options of `labelkit auto-label` that the client's messages name (its validation, the
 * journal check and the plan of a many-project run).
 *
 * @remarks The client names them as the library's options (`allowInsecureEndpoint`, `force`,
 * `retryFailed`, `retryUnknown`), or in words ("retry failed"). `force` is matched only where a
 * message suggests it ("or force to use this one anyway"): a project id `force` in the same
 * message stays as it is.
 */
export const AUTO_LABEL_OPTIONS: OptionFlags = [
  { flag: '--allow-insecure-endpoint', spelled: new RegExp(`${EDGE_BEFORE}allowInsecureEndpoint${EDGE_AFTER}`, 'g') },
  { flag: '--force', spelled: new RegExp(`${EDGE_BEFORE}force(?= to )`, 'g') },
  { flag: '--retry-failed', spelled: new RegExp(`${EDGE_BEFORE}(?:retryFailed|retry failed)${EDGE_AFTER}`, 'g') },
  { flag: '--retry-unknown', spelled: new RegExp(`${EDGE_BEFORE}(?:retryUnknown|retry unknown)${EDGE_AFTER}`, 'g') },
  { flag: '--start-timeout', spelled: new RegExp(`${EDGE_BEFORE}startTimeoutMs${EDGE_AFTER}`, 'g') },
  { flag: '--max-running', spelled: new RegExp(`${EDGE_BEFORE}maxRunning${EDGE_AFTER}`, 'g') },
  { flag: '--max-starts-per-minute', spelled: new RegExp(`${EDGE_BEFORE}maxStartsPerMinute${EDGE_AFTER}`, 'g') },
];

/**
 * Rewrites a message of the client so that it names the command's flags instead of the
 * library's options.
 *
 * @param message - a message (or plan reason) the client wrote
 * @param options - the command's options, e.g. {@link AUTO_LABEL_OPTIONS}
 * @returns the message with each option replaced by its flag; unchanged when it names none
 * @remarks The one place where the client's vocabulary becomes the command line's; the CLI's own
 * messages already name flags and pass through unchanged (a flag is never matched again).
 * @example
 * ```ts
 * inFlagTerms('use https or allow it explicitly (allowInsecureEndpoint)', AUTO_LABEL_OPTIONS);
 * // 'use https or allow it explicitly (--allow-insecure-endpoint)'
 * ```
 */
export function inFlagTerms(message: string, options: OptionFlags | undefined): string {
  return (options ?? []).reduce((text, { flag, spelled }) => text.replace(spelled, flag), message);
}
