import { describe, expect, it } from 'vitest';
import { readAhead } from '../../src/labels/readAhead.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('readAhead', () => {
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
    for await (const ms of readAhead([40, 5, 30, 0, 20, 10, 0], work, { width: 3 })) out.push(ms);
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
        for await (const item of readAhead(['ok', 'failure', 'late-failure', 'slow'], work, { width: 4 })) out.push(item);
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
    for await (const _ of readAhead([1], work, { width: 2, signal: before })) void _;
    expect(signals[0]?.aborted).toBe(true);

    const caller = new AbortController();
    const during = (_: number, signal: AbortSignal) =>
      new Promise<number>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted in flight')), { once: true }));
    const pending = (async () => {
      for await (const _ of readAhead([1, 2], during, { width: 2, signal: caller.signal })) void _;
    })().catch((e: unknown) => e);
    caller.abort();
    expect(await pending).toMatchObject({ message: 'aborted in flight' });
  });

  it('gives each item a signal of its own, so that one item’s requests never pile listeners on a signal every item shares', async () => {
    const caller = new AbortController();
    const signals: AbortSignal[] = [];
    const work = async (item: number, signal: AbortSignal) => {
      signals.push(signal);
      // Three requests of one document, each listening to its signal.
      for (let i = 0; i < 3; i++) signal.addEventListener('abort', () => undefined);
      await sleep(item);
      return item;
    };
    const out: number[] = [];
    for await (const item of readAhead([5, 1, 1, 1, 1, 1], work, { width: 4, signal: caller.signal })) out.push(item);
    expect(out).toEqual([5, 1, 1, 1, 1, 1]);
    expect(new Set(signals).size).toBe(6);
    // Each item's signal is aborted once its work is over, releasing what listened to it.
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(caller.signal.aborted).toBe(false);
  });
});
