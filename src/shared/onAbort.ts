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
