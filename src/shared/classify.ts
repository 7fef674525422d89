/**
 * The one error classification: "is this failure transient?". The client's retries of queries,
 * job waits, the CLI's exit codes and the emulator's calls to a model all decide with it.
 *
 * @remarks The HTTP status decides first, whatever the body says: 408, 429 and 5xx are transient
 * even when the body is JSON with GraphQL `errors`; 401 is an authentication failure (refresh once);
 * any other 4xx is refused (the caller's mistake: retrying or waiting cannot help). A failure
 * with no HTTP status (connection refused or reset, DNS, a body cut mid-way, a time-out) is
 * transient.
 */

/** How a failure is treated. */
export type FailureClass = 'transient' | 'auth' | 'refused';

/** What is known of a failed call. */
export interface FailureFacts {
  /** The HTTP status, when a response arrived. */
  status?: number | undefined;
}

/**
 * Tells whether an HTTP status is worth retrying (a query) or waiting through (a job wait).
 *
 * @param status - an HTTP status
 * @returns true for 408, 429 and 5xx
 */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Classifies a failed call.
 *
 * @param facts - the HTTP status if any
 * @returns `transient`, `auth` or `refused`
 * @example
 * ```ts
 * classifyFailure({ status: 503 }); // 'transient'
 * classifyFailure({ status: 404 }); // 'refused'
 * classifyFailure({});              // 'transient' (no answer at all)
 * ```
 */
export function classifyFailure(facts: FailureFacts): FailureClass {
  const { status } = facts;
  if (status === undefined) return 'transient';
  if (isTransientStatus(status)) return 'transient';
  if (status === 401) return 'auth';
  return 'refused';
}

/**
 * The string `code` of a thrown value (a system error's `ENOENT`, `ECONNRESET`, `EADDRINUSE`, …),
 * read without a cast.
 *
 * @param error - anything caught
 * @returns the code, or undefined when the value has no string `code`
 * @example
 * ```ts
 * try { await readFile(path, 'utf8'); } catch (error) { if (errorCode(error) !== 'ENOENT') throw error; }
 * ```
 */
export function errorCode(error: unknown): string | undefined {
  return error instanceof Object && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
