import { vi } from 'vitest';

// Captured when this module loads, before any test fakes the timers: real I/O (sockets, a
// server on 127.0.0.1) needs real turns of the event loop while fake time stands still.
const realSetTimeout = globalThis.setTimeout;

/** Fakes setTimeout/setInterval and Date (not setImmediate or queueMicrotask, which I/O needs). */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** One real pause of a few ms for sockets to move; no fake time passes. */
export function ioTurn(): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, 5));
}

/**
 * Waits, in real I/O turns (fake time stands still), until `check` holds.
 *
 * @param check - returns true (or does not throw) when done
 * @param what - said in the error when it never holds
 */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (check()) return;
    await ioTurn();
  }
  throw new Error(`never happened: ${what}`);
}

/**
 * Moves fake time forward by `ms` in steps, letting real I/O happen between steps (a request
 * sent by a timer reaches the server, its answer comes back).
 *
 * @param ms - how much fake time passes
 * @param step - the fake time of each step
 */
export async function advance(ms: number, step = 100): Promise<void> {
  for (let passed = 0; passed < ms; passed += step) {
    await vi.advanceTimersByTimeAsync(Math.min(step, ms - passed));
    await ioTurn();
  }
}

/**
 * Moves fake time forward in steps (real I/O between them) until `check` holds.
 *
 * @param check - true when done
 * @param what - said in the error when it never holds
 * @param maxMs - the most fake time to let pass
 * @param step - the fake time of each step
 */
export async function advanceUntil(check: () => boolean, what: string, maxMs = 120_000, step = 100): Promise<void> {
  for (let passed = 0; passed <= maxMs; passed += step) {
    if (check()) return;
    await vi.advanceTimersByTimeAsync(step);
    await ioTurn();
  }
  if (!check()) throw new Error(`never happened within ${maxMs} ms of fake time: ${what}`);
}

/**
 * Records how a promise settled, without awaiting it (fake time must move meanwhile).
 *
 * @param promise - a call or a wait
 * @returns `settled()` and `value()` (the result or the rejection reason)
 */
export function track<T>(promise: Promise<T>): { settled: () => boolean; value: () => unknown } {
  let done = false;
  let value: unknown;
  promise.then(
    (v) => {
      done = true;
      value = v;
    },
    (e: unknown) => {
      done = true;
      value = e;
    },
  );
  return { settled: () => done, value: () => value };
}
