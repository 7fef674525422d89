/**
 * One job's stop signal, fanned out to its model calls and retry waits with a single listener.
 *
 * @remarks A job may have many model calls in flight at once (the model's concurrency) and each
 * needs to stop when the job stops. Adding one `abort` listener per call to the job's
 * `AbortSignal` passes Node's limit of 10 listeners (`MaxListenersExceededWarning`) as soon as more
 * than 10 calls are in flight. Here the job's signal carries exactly one listener, added when the
 * job starts and removed by {@link JobAbort.dispose}; each call subscribes to this object and
 * unsubscribes when it ends, so nothing outlives its call.
 * @example
 * ```ts
 * const controller = new AbortController();
 * const stop = new JobAbort(controller.signal);
 * const unsubscribe = stop.subscribe(() => console.log('stopped'));
 * controller.abort(); // prints "stopped"
 * unsubscribe();
 * stop.dispose();
 * ```
 */
export class JobAbort {
  private readonly handlers = new Set<() => void>();
  private readonly onAbort = () => {
    const all = [...this.handlers];
    this.handlers.clear();
    for (const handler of all) handler();
  };

  /**
   * @param signal - the job's signal; gets one `abort` listener until {@link JobAbort.dispose}
   */
  constructor(readonly signal: AbortSignal) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** True once the job was stopped. */
  get aborted(): boolean {
    return this.signal.aborted;
  }

  /**
   * Calls `handler` once when the job stops (at once if it already has).
   *
   * @param handler - what stops one call or wait
   * @returns a function that forgets the handler; call it when the call or wait ends
   * @example
   * ```ts
   * const off = stop.subscribe(() => req.destroy());
   * // … when the request ends:
   * off();
   * ```
   */
  subscribe(handler: () => void): () => void {
    if (this.signal.aborted) {
      handler();
      return () => {};
    }
    this.handlers.add(handler);
    return () => void this.handlers.delete(handler);
  }

  /**
   * Removes the one listener from the job's signal; call it when the job ends.
   *
   * @returns nothing
   */
  dispose(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.handlers.clear();
  }
}
