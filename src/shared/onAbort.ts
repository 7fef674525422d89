/** The callbacks waiting on each signal, behind the one listener each signal gets. */
const waiting = new WeakMap<AbortSignal, { callbacks: Set<() => void>; listener: () => void }>();

/**
 * Calls `callback` once when `signal` aborts, through one `abort` listener per signal however
 * many callers wait on it at once.
 *
 * @param signal - the signal (a client's closing signal, a caller's signal shared by many calls)
 * @param callback - called once on abort, unless removed before
 * @returns a function that removes the callback (the signal's listener goes with the last one)
 * @remarks Node warns (`MaxListenersExceededWarning: 11 abort listeners added to [AbortSignal]`)
 * when one signal holds more than 10 listeners, which any 11 calls in flight on one client or
 * under one caller's signal would add, each with its own listener. Here the signal holds one
 * listener and a set of callbacks; the set empties as calls end, and the listener is removed with
 * the last callback, so that a long-lived signal keeps nothing of finished calls. A signal that
 * has already aborted calls nothing: check `signal.aborted` first.
 * @example
 * ```ts
 * const stop = onAbort(signal, () => controller.abort());
 * try { await work(); } finally { stop(); }
 * ```
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let entry = waiting.get(signal);
  if (!entry) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      waiting.delete(signal);
      for (const waiter of [...callbacks]) waiter();
    };
    entry = { callbacks, listener };
    waiting.set(signal, entry);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = entry;
  callbacks.add(callback);
  return () => {
    if (!callbacks.delete(callback) || callbacks.size > 0 || waiting.get(signal) !== entry) return;
    waiting.delete(signal);
    signal.removeEventListener('abort', listener);
  };
}

/** What {@link untilAborted} rejects with once the abort has given up on a call. */
export const GIVEN_UP = Symbol('given up on abort');

/**
 * A call as an abort allows it: as it is until `signal` aborts, then at most `graceMs` more.
 *
 * @param call - the call (it goes on unobserved once given up on; its rejection is handled)
 * @param signal - the run's signal (none: the call as it is)
 * @param graceMs - how long the call may still end after the abort (0: given up on at once)
 * @returns the call's result or error, or a rejection with {@link GIVEN_UP} once the grace has passed
 * @remarks One `abort` listener per signal however many calls wait ({@link onAbort}); it and the
 * grace timer are removed when the call ends.
 * @example
 * ```ts
 * const fresh = await untilAborted(journal.refresh(), signal, 0).catch(() => undefined);
 * ```
 */
export function untilAborted<T>(call: Promise<T>, signal: AbortSignal | undefined, graceMs: number): Promise<T> {
  if (!signal) return call;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopWaiting = () => undefined as void;
  const given = new Promise<never>((_, reject) => {
    const giveUp = () => void (timer = setTimeout(() => reject(GIVEN_UP), graceMs));
    if (signal.aborted) giveUp();
    else stopWaiting = onAbort(signal, giveUp);
  });
  call.catch(() => undefined);
  return Promise.race([call, given]).finally(() => {
    clearTimeout(timer);
    stopWaiting();
  });
}
