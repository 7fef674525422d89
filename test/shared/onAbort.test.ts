import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { GIVEN_UP, onAbort, untilAborted } from '../../src/shared/onAbort.js';

describe('onAbort', () => {
  it('puts one listener on a signal however many wait on it, and removes it with the last', () => {
    const controller = new AbortController();
    const stops = Array.from({ length: 20 }, () => onAbort(controller.signal, () => undefined));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (const stop of stops) stop();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('calls each callback still waiting once on abort, and none that was removed', () => {
    const controller = new AbortController();
    const waiting = vi.fn();
    const removed = vi.fn();
    onAbort(controller.signal, waiting);
    onAbort(controller.signal, () => waiting());
    onAbort(controller.signal, removed)();
    controller.abort();
    controller.abort();
    expect(waiting).toHaveBeenCalledTimes(2);
    expect(removed).not.toHaveBeenCalled();
    // After the abort, a new wait starts a new listener (the signal stays aborted: callers check `aborted` first).
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('untilAborted', () => {
  it('gives up on a call graceMs after the abort, lets a call end within the grace, and keeps no listener', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const never = new Promise<string>(() => undefined);
      let late: (value: string) => void = () => undefined;
      const slow = new Promise<string>((resolve) => (late = resolve));
      const givenUp = untilAborted(never, controller.signal, 1_000).catch((e: unknown) => e);
      const ended = untilAborted(slow, controller.signal, 1_000);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      controller.abort();
      await vi.advanceTimersByTimeAsync(500);
      late('answered');
      await expect(ended).resolves.toBe('answered');
      await vi.advanceTimersByTimeAsync(500);
      expect(await givenUp).toBe(GIVEN_UP);
      // Already aborted, no grace: given up on at once; a call's own error stays its own.
      const atOnce = untilAborted(never, controller.signal, 0).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(0);
      expect(await atOnce).toBe(GIVEN_UP);
      const failing = new AbortController();
      await expect(untilAborted(Promise.reject(new Error('the call failed')), failing.signal, 0)).rejects.toThrow('the call failed');
      expect(getEventListeners(failing.signal, 'abort')).toHaveLength(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
