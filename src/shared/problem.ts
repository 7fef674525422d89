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

