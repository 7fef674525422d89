import { onAbort } from '../shared/onAbort.js';

/** Retries of queries (mutations are never retried). */
export interface RetryOptions {
  /** Attempts in all, the first included. @defaultValue 4 */
  maxAttempts?: number | undefined;
  /** The first back-off delay; later ones grow with jitter. @defaultValue 300 */
  initialDelayMs?: number | undefined;
  /** The longest delay; a `Retry-After` beyond it is not waited for. @defaultValue 15_000 */
  maxDelayMs?: number | undefined;
}

/** The retry settings with their defaults filled in. */
export function retrySettings(options: RetryOptions | undefined): Required<RetryOptions> {
  return { maxAttempts: options?.maxAttempts ?? 4, initialDelayMs: options?.initialDelayMs ?? 300, maxDelayMs: options?.maxDelayMs ?? 15_000 };
}

/**
 * The delays between attempts, as `@urql/exchange-retry` draws them (each one the previous one
 * times a jitter of 1.5–2.5, at most `maxDelayMs`), for work retried outside urql (token requests).
 *
 * @param options - the client's retry settings
 * @returns one entry per attempt: the delay to wait after it fails, `undefined` after the last
 * @example
 * ```ts
 * for (const delayMs of backoffDelays({ maxAttempts: 3 })) { … } // e.g. 480, 1050, undefined
 * ```
 */
export function* backoffDelays(options: RetryOptions | undefined): Generator<number | undefined, undefined> {
  const { maxAttempts, initialDelayMs, maxDelayMs } = retrySettings(options);
  let delay = initialDelayMs;
  for (let attempt = 1; attempt < maxAttempts; attempt++) {
    delay = Math.min(delay * (Math.random() + 1.5), maxDelayMs);
    yield delay;
  }
  yield undefined;
}

/**
 * Waits `ms` before a retry, or less: it resolves at once when `signal` aborts (the caller then
 * checks the signal and sends nothing).
 *
 * @param ms - the delay
 * @param signal - ends the wait early (a closed client, a torn-down operation)
 * @returns a promise that resolves after the delay or on abort, whichever is first
 * @example
 * ```ts
 * await pause(delayMs, signal);
 * if (signal.aborted) throw error;
 * ```
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    // One listener on the signal for every pause at once (`shared/onAbort`).
    const done = () => (clearTimeout(timer), stop(), resolve());
    const timer = setTimeout(done, ms);
    const stop = onAbort(signal, done);
  });
}
