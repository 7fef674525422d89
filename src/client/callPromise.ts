import type { OperationResult } from '@urql/core';
import { MAX_TIMER_MS } from '../shared/constants.js';

/** How a call may end before its answer: its time-out, its signal, the client's close(). */
export interface CallLimits {
  /** `Infinity` (or anything beyond what setTimeout holds) for no limit. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Registers the function that ends the call when the client closes; returns its remover. */
  onClose: (end: () => void) => () => void;
  /** The error of a call lost to its time-out, an abort or close (`text` says which). */
  lost: (code: 'TIMEOUT' | 'ABORTED', text: string) => Error;
}

/** An operation's results, as urql's `executeRequestOperation(...)` gives them. */
export interface ResultSource {
  subscribe(next: (result: OperationResult) => void): { unsubscribe(): void };
}

/**
 * Adapts one urql operation to a promise, with a time-out, an abort signal and the client's
 * close().
 *
 * @param source - the operation's results
 * @param settle - turns the first result into the data or an error (the one conversion point)
 * @param limits - time-out, signal, close registration, and the error of a lost call
 * @returns the data, or rejects with the error
 * @remarks Ending early unsubscribes, which makes urql abort the fetch and stop any retry: after
 * a time-out, an abort or close() nothing more of this call is sent. One abort listener per call,
 * removed when the call ends.
 * @example
 * ```ts
 * const data = await callPromise(urql.executeRequestOperation(operation), settle, { timeoutMs: 30_000, onClose, lost });
 * ```
 */
export function callPromise<Data>(source: ResultSource, settle: (result: OperationResult) => Data | Error, limits: CallLimits): Promise<Data> {
  const { timeoutMs, signal } = limits;
  return new Promise<Data>((resolve, reject) => {
    let done = false;
    let subscription: { unsubscribe(): void } | undefined;
    const finish = (outcome: Data | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      removeClose();
      subscription?.unsubscribe();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => finish(limits.lost('ABORTED', 'the call was aborted'));
    const removeClose = limits.onClose(() => finish(limits.lost('ABORTED', 'the client was closed during the call')));
    const timer =
      timeoutMs < MAX_TIMER_MS ? setTimeout(() => finish(limits.lost('TIMEOUT', `no answer within ${timeoutMs} ms`)), timeoutMs) : undefined;
    signal?.addEventListener('abort', onAbort, { once: true });
    subscription = source.subscribe((result) => finish(settle(result)));
    if (done) subscription.unsubscribe();
  });
}
