/**
 * Runs `work` on each item with at most `width` calls in flight and yields the results in the
 * items' order: reading ahead while the caller handles the item before.
 *
 * @param items - what to work on, in the order of the results
 * @param width - the most calls in flight (1: one after the other)
 * @param work - one item's work; it is given a signal that aborts when the reading ends early
 * @param signal - the caller's signal: aborting it aborts the calls in flight
 * @returns each item's result, in order; at most `width` results are held at once
 * @throws the first failure in the items' order, after the results before it; the calls still in
 * flight then, or when the caller stops early (`break`), are aborted and their outcomes dropped
 * @example
 * ```ts
 * for await (const labels of mapInOrder(documentIds, 4, (id, signal) => readAll(id, { signal }))) …
 * ```
 */
export async function* mapInOrder<T, R>(items: readonly T[], width: number, work: (item: T, signal: AbortSignal) => Promise<R>, signal?: AbortSignal): AsyncGenerator<R> {
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) stop();
  // Settled at once, so that a call failing before its turn is not an unhandled rejection.
  const inFlight: Promise<{ value: R } | { error: unknown }>[] = [];
  let next = 0;
  const start = () => {
    const item = items[next++] as T;
    inFlight.push(work(item, controller.signal).then((value) => ({ value }), (error: unknown) => ({ error })));
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
    controller.abort();
    signal?.removeEventListener('abort', stop);
  }
}
