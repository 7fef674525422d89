import { readFile } from 'node:fs/promises';
import type { UsageProblem } from './usageError.js';
import { errorCode } from '../shared/classify.js';

/**
 * Reads a secret (token, client secret, model secret key) from a file, trimmed.
 *
 * @param path - the file the user named
 * @param field - the flag that named it, e.g. `--token-file`, used in problems
 * @param problems - receives a problem when the file is unreadable or empty
 * @returns the secret without surrounding white space, or undefined when a problem was recorded
 * @remarks Problems name the flag, the path and the error code (`ENOENT`, `EACCES`, …), never
 * the file's contents.
 * @example
 * ```ts
 * const problems: UsageProblem[] = [];
 * const token = await readSecretFile('token.txt', '--token-file', problems);
 * ```
 */
export async function readSecretFile(path: string, field: string, problems: UsageProblem[]): Promise<string | undefined> {
  try {
    const value = (await readFile(path, 'utf8')).trim();
    if (value === '') problems.push({ field, message: `the file ${path} is empty` });
    return value || undefined;
  } catch (error) {
    const code = errorCode(error) ?? 'unreadable';
    problems.push({ field, message: `cannot read the file ${path} (${code})` });
    return undefined;
  }
}
