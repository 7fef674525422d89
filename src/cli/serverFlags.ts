import type { UsageProblem } from './usageError.js';

/**
 * Parses a `--port` flag.
 *
 * @param value - what the user typed (a string), or the default (a number)
 * @param problems - receives a problem when it is not an integer from 0 to 65535
 * @returns the port
 */
export function parsePort(value: string | number, problems: UsageProblem[]): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) problems.push({ field: '--port', message: 'must be an integer from 0 to 65535 (0: a free port)' });
  return n;
}

/**
 * Resolves until `signal` is aborted (Ctrl-C), at once when it already is.
 *
 * @param signal - the run's Ctrl-C signal
 * @returns a promise that resolves on abort
 */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
