import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { onAbort } from '../../src/shared/onAbort.js';

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
