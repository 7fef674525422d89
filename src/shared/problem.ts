import { isRecord } from './isRecord.js';

/**
 * One reason why input was refused: the one problem shape of the repository (the client's
 * `ValidationError`, the label-set file, bulk runs and the emulator's refusals all list these).
 *
 * @remarks Pure, imports nothing. A problem never quotes a secret.
 * @example
 * ```ts
 * const problem: Problem = { path: 'input.targetAPI.endpoint', message: 'must be an absolute http(s) URL' };
 * ```
 */
export interface Problem {
  /** Where the problem is, e.g. `input.targetAPI.endpoint` or `options.timeoutMs`. */
  path: string;
  /** What rule the value breaks, e.g. `must be an integer >= 0`. Never quotes a secret. */
  message: string;
}

/**
 * Checks a non-empty id (a string with something besides white space).
 *
 * @param value - the id
 * @param path - the field's path for the problem
 * @returns the problems found (none or one)
 * @example
 * ```ts
 * checkId(' ', 'input.projectId'); // [{ path: 'input.projectId', message: 'must be a non-empty string' }]
 * ```
 */
export function checkId(value: unknown, path: string): Problem[] {
  return typeof value === 'string' && value.trim() !== '' ? [] : [{ path, message: 'must be a non-empty string' }];
}

/** A problem at `path` unless `ok`. */
export const problemUnless = (ok: boolean, path: string, message: string): Problem[] => (ok ? [] : [{ path, message }]);

/** A number option: absent, or a number ≥ min (Infinity allowed), an integer if asked, at most max if given. */
export function checkNumber(value: unknown, path: string, min: number, integer = false, max = Infinity): Problem[] {
  const ok = value === undefined || (typeof value === 'number' && !Number.isNaN(value) && value >= min && value <= max && (!integer || Number.isInteger(value)));
  return problemUnless(ok, path, `must be ${integer ? 'an integer' : 'a number'} ${max < Infinity ? `from ${min} to ${max}` : `>= ${min}`}`);
}

/**
 * Checks time-outs, poll intervals, a signal and a progress callback: the one rule for the
 * client's options (`timeoutMs`, `poll`) and for each call's and each wait's options.
 *
 * @param options - the options as given (absent is fine)
 * @param path - where they sit, e.g. `options` or `options.poll`
 * @returns every problem, each naming its option
 * @example
 * ```ts
 * checkTimingOptions({ intervalMs: 0, timeoutMs: -1 }, 'options');
 * // [{ path: 'options.timeoutMs', … }, { path: 'options.intervalMs', message: 'must be a number >= 1' }]
 * ```
 */
export function checkTimingOptions(options: object | undefined, path: string): Problem[] {
  if (options === undefined) return [];
  if (!isRecord(options)) return [{ path, message: 'must be an object' }];
  const { signal, onProgress } = options;
  return [
    ...(['timeoutMs', 'intervalMs', 'maxIntervalMs'] as const).flatMap((key) => checkNumber(options[key], `${path}.${key}`, 1)),
    ...checkNumber(options.notFoundGraceMs, `${path}.notFoundGraceMs`, 0),
    ...problemUnless(signal === undefined || (isRecord(signal) && 'aborted' in signal && 'addEventListener' in signal), `${path}.signal`, 'must be an AbortSignal'),
    ...problemUnless(onProgress === undefined || typeof onProgress === 'function', `${path}.onProgress`, 'must be a function'),
  ];
}
