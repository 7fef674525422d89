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

/**
 * What a database failure means for the one who asked: `connection` (the server cannot be
 * reached, dropped the connection, restarts or timed out: worth trying again for a while; the
 * CLI's exit 4), `auth` (the login was refused: a wrong user or password; exit 3), `setup`
 * (the database does not exist, or the user may not create what it needs: someone has to create
 * it; exit 2), or `other`.
 */
export type DatabaseFailureClass = 'connection' | 'auth' | 'setup' | 'other';

/**
 * Classifies an error of a PostgreSQL driver (`pg`) or of the socket under it.
 *
 * @param error - anything a database call threw
 * @returns its {@link DatabaseFailureClass}
 * @remarks By the SQLSTATE or system `code` first: `08…` (connection exceptions), `57P01`–`57P03`
 * (the server shuts down, crashed or is starting up), `53300` (too many connections) and any
 * system code (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`, `ENOTFOUND`, …) are `connection`;
 * `28P01` and `28000` are `auth`; `3D000` (no such database), `3F000` (no such schema) and
 * `42501` (insufficient privilege) are `setup`. Errors without a code are read by their words:
 * the driver's "Connection terminated unexpectedly", "Connection terminated due to connection
 * timeout", "timeout exceeded when trying to connect" and "Client has encountered a connection
 * error" are `connection`.
 * @example
 * ```ts
 * classifyDatabaseFailure(new Error('Connection terminated unexpectedly')); // 'connection'
 * classifyDatabaseFailure(Object.assign(new Error('password authentication failed'), { code: '28P01' })); // 'auth'
 * ```
 */
export function classifyDatabaseFailure(error: unknown): DatabaseFailureClass {
  const code = errorCode(error);
  if (code !== undefined) {
    if (/^(08...|57P0[1-3]|53300|E[A-Z_]+)$/.test(code)) return 'connection';
    if (code === '28P01' || code === '28000') return 'auth';
    if (code === '3D000' || code === '3F000' || code === '42501') return 'setup';
    return 'other';
  }
  const message = error instanceof Error ? error.message : '';
  return /connection terminated|connection timeout|timeout exceeded when trying to connect|connection error|not queryable|connection ended/i.test(message) ? 'connection' : 'other';
}
