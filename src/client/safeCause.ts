import { redact, redactAndCut, redactValue, type Secrets } from '../shared/redact.js';

/** The most characters of an underlying message (often an answer's body) that an error keeps. */
export const MAX_CAUSE_MESSAGE = 2_048;
/** The most characters of an underlying stack that an error keeps. */
export const MAX_CAUSE_STACK = 4_096;
/** How deep a cause chain is copied. */
const MAX_DEPTH = 4;

/**
 * A copy of an underlying error that is safe to keep as a labelkit error's `cause`.
 *
 * @param error - what was caught: an Error (its chain of causes is copied too), a string, or anything
 * @param secrets - secret values known to the caller, redacted in every form (see `shared/redact`)
 * @returns an Error with the same `name` and system `code` (ECONNRESET, …), a redacted message of
 * at most {@link MAX_CAUSE_MESSAGE} characters and a redacted stack of at most
 * {@link MAX_CAUSE_STACK}, its own `cause` copied likewise (non-enumerable); undefined for nothing
 * @remarks urql's network error may carry a whole answer body as its message (a 50 MB HTML page),
 * and `util.inspect` prints `cause` and the stack even when they are not enumerable: so every
 * text is redacted first, then cut. Any `Bearer …`/`Basic …` credential is redacted even when the
 * secret is not known (a `getToken` callback that throws with a token in its message).
 * @example
 * ```ts
 * const cause = safeCause(new Error('vault said: Bearer abc.def'), []);
 * cause?.message; // 'vault said: Bearer ***'
 * ```
 */
export function safeCause(error: unknown, secrets: Secrets = [], depth = 0): Error | undefined {
  if (error === undefined || error === null || depth > MAX_DEPTH) return undefined;
  const known = [...secrets];
  const text = error instanceof Error ? String(error.message) : typeof error === 'string' ? error : safeString(error);
  const copy = new Error(redactAndCut(text.slice(0, MAX_CAUSE_MESSAGE * 4), MAX_CAUSE_MESSAGE, known));
  if (!(error instanceof Error)) return copy;
  copy.name = redact(String(error.name), known);
  copy.stack = redactAndCut((error.stack ?? '').slice(0, MAX_CAUSE_STACK * 4), MAX_CAUSE_STACK, known);
  if ('code' in error && typeof error.code === 'string') Object.defineProperty(copy, 'code', { value: redact(error.code, known), enumerable: true });
  const inner = safeCause(error.cause, known, depth + 1);
  if (inner) Object.defineProperty(copy, 'cause', { value: inner, enumerable: false });
  return copy;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(redactValue(value)) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
