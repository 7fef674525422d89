/**
 * How many documents the reads of a project (`readLabelsOfDocuments`, `listLabels`,
 * `labelkit eval`, export, the applied-label counts of a label-set plan) keep in flight: over a network each
 * document costs a round trip or more, and one at a time a 1,000-document project takes 1,000 of them.
 *
 * @example
 * ```ts
 * for await (const labels of readAhead(documentIds, read, { width: READ_AHEAD })) …
 * ```
 */
export const READ_AHEAD = 4;

/** Options of {@link readAhead}. */
export interface ReadAheadOptions {
  /** The most calls in flight (1: one after the other). @defaultValue {@link READ_AHEAD} */
  width?: number | undefined;
  /** The caller's signal: aborting it aborts the calls in flight. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `work` on each item with a few calls in flight and yields the results in the items' order:
 * reading ahead while the caller handles the item before. The one read-ahead loop of the
 * repository: every read of a project's documents goes through it.
 *
 * @param items - what to work on, in the order of the results
 * @param work - one item's work; it is given a signal of its own, which aborts when the reading
 * ends early or the work is over (so one item's several requests never pile listeners on a signal
 * shared by all)
 * @param options - `width`, the most calls in flight (default {@link READ_AHEAD}), and the caller's `signal`
 * @returns each item's result, in order; at most `width` results are held at once
 * @throws the first failure in the items' order, after the results before it; the calls still in
 * flight then, or when the caller stops early (`break`), are aborted and their outcomes dropped
 * @example
 * ```ts
 * for await (const labels of readAhead(documentIds, (id, signal) => readAll(id, { signal }))) …
 * ```
 */
export async function* readAhead<T, R>(items: readonly T[], work: (item: T, signal: AbortSignal) => Promise<R>, options: ReadAheadOptions = {}): AsyncGenerator<R> {
  const { width = READ_AHEAD, signal } = options;
  // One controller per item in flight: the caller's signal and the end of the loop abort them all.
  const controllers = new Set<AbortController>();
  const stopAll = (reason?: unknown) => {
    for (const controller of controllers) controller.abort(reason);
  };
  const stop = () => stopAll(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  // Settled at once, so that a call failing before its turn is not an unhandled rejection.
  const inFlight: Promise<{ value: R } | { error: unknown }>[] = [];
  let next = 0;
  const start = () => {
    const item = items[next++] as T;
    const controller = new AbortController();
    controllers.add(controller);
    if (signal?.aborted) controller.abort(signal.reason);
    // Its work is over: abort its signal too, so that nothing its requests left listening on it stays.
    const done = () => (controllers.delete(controller), controller.abort());
    inFlight.push(
      work(item, controller.signal).then(
        (value) => (done(), { value }),
        (error: unknown) => (done(), { error }),
      ),
    );
  };
  try {
    while (next < items.length && inFlight.length < width) start();
    while (inFlight.length > 0) {
      const settled = await (inFlight.shift() as (typeof inFlight)[number]);
      if ('error' in settled) throw settled.error;
      if (next < items.length) start();
      yield settled.value;
    }
  } finally {
    stopAll();
    signal?.removeEventListener('abort', stop);
  }
}
