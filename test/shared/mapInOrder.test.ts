import { describe, expect, it } from 'vitest';
import { mapInOrder } from '../../src/shared/mapInOrder.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapInOrder', () => {
  it('keeps at most `width` calls in flight and gives the results in the items’ order, whatever order they finish in', async () => {
    let inFlight = 0;
    let most = 0;
    const work = async (ms: number) => {
      most = Math.max(most, ++inFlight);
      await sleep(ms);
      inFlight--;
      return ms;
    };
    const out: number[] = [];
    for await (const ms of mapInOrder([40, 5, 30, 0, 20, 10, 0], 3, work)) out.push(ms);
    expect(out).toEqual([40, 5, 30, 0, 20, 10, 0]);
    expect(most).toBe(3);
  });

  it('throws the first failure in order, after the results before it, though a later call failed first, and leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const seen: AbortSignal[] = [];
      const work = async (item: string, signal: AbortSignal) => {
        seen.push(signal);
        if (item === 'late-failure') throw new Error('late');
        if (item === 'failure') {
          await sleep(20);
          throw new Error('first in order');
        }
        await sleep(item === 'slow' ? 30 : 1);
        return item;
      };
      const out: string[] = [];
      const error = await (async () => {
        for await (const item of mapInOrder(['ok', 'failure', 'late-failure', 'slow'], 4, work)) out.push(item);
      })().catch((e: unknown) => e);
      expect(out).toEqual(['ok']);
      expect(error).toMatchObject({ message: 'first in order' });
      expect(seen.every((signal) => signal.aborted)).toBe(true); // 'slow' was still in flight
      await sleep(40);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('gives the calls an aborted signal when the caller’s signal is aborted, before or during the reading', async () => {
    const before = AbortSignal.abort(new Error('stopped'));
    const signals: AbortSignal[] = [];
    const work = async (item: number, signal: AbortSignal) => (signals.push(signal), item);
    for await (const _ of mapInOrder([1], 2, work, before)) void _;
    expect(signals[0]?.aborted).toBe(true);

    const caller = new AbortController();
    const during = (_: number, signal: AbortSignal) =>
      new Promise<number>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted in flight')), { once: true }));
    const pending = (async () => {
      for await (const _ of mapInOrder([1, 2], 2, during, caller.signal)) void _;
    })().catch((e: unknown) => e);
    caller.abort();
    expect(await pending).toMatchObject({ message: 'aborted in flight' });
  });
});
