import { redact, type Secrets } from '../shared/redact.js';
import { safeCause } from './safeCause.js';
import type { Problem } from '../shared/problem.js';
import type { Job } from './types.js';

const ERROR_CODES = ['VALIDATION', 'AUTH', 'NETWORK', 'TIMEOUT', 'ABORTED', 'GRAPHQL', 'BAD_RESPONSE', 'JOB_FAILED', 'JOB_TIMEOUT', 'JOB_NOT_FOUND', 'LABEL_SET'] as const;

/** Machine-readable kinds of labelkit errors. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What every labelkit error may say about the request that failed. */
export interface ErrorDetails {
  /** The GraphQL operation that failed, e.g. `GetCabinet`. */
  operationName?: string;
  /** The `x-request-id` the request carried, for a support ticket. */
  requestId?: string;
  /** The HTTP status, when a response arrived. */
  status?: number;
  /**
   * The underlying error. A redacted copy is kept (see `safeCause`), non-enumerable so that it
   * never shows in JSON or `Object.keys`.
   */
  cause?: unknown;
  /** Secret values to redact from the message and the cause; used at construction, never kept. */
  secrets?: Secrets;
  /** `token` when the failure happened while obtaining an access token (the token endpoint or `getToken`). */
  phase?: 'token';
  /** For a {@link NetworkError} or {@link ProtocolError}: a mutation that may have reached the service. @defaultValue false */
  mutationOutcomeUnknown?: boolean;
}

/**
 * The base of every error labelkit throws.
 *
 * @remarks Messages start with their origin (`[Network]`, `[GraphQL]`, …). No labelkit error holds
 * an access token, a client secret or a `secretKey`, in any form (raw, JSON-escaped,
 * URL-encoded, base64): the message is redacted with the one redactor (`shared/redact`), as is any
 * `Bearer …` value; variables are never kept; `cause` is not enumerable (so `JSON.stringify` and
 * `Object.keys` do not reach it) and is a redacted, size-capped copy of the whole cause chain (so
 * `util.inspect`, even with `showHidden`, shows no secret and at most a few KB of an answer).
 * @example
 * ```ts
 * try {
 *   await startAutoLabel(client, input);
 * } catch (error) {
 *   if (error instanceof NetworkError && error.mutationOutcomeUnknown) {
 *     console.error(`${error.message}: check the project's jobs before starting again`);
 *   } else if (isLabelkitError(error)) {
 *     console.error(error.code, error.operationName, error.requestId, error.message);
 *   } else throw error;
 * }
 * ```
 */
export class LabelkitError extends Error {
  override name = 'LabelkitError';
  readonly code: ErrorCode;
  readonly operationName?: string;
  readonly requestId?: string;
  readonly status?: number;
  /** `token` when the failure happened while obtaining an access token. */
  readonly phase?: 'token';
  declare readonly cause?: unknown;

  /**
   * @param code - the machine-readable kind
   * @param message - the text, starting with its origin such as `[Network]`; redacted here
   * @param details - operation name, request id, HTTP status, phase, a cause (copied redacted)
   * and the secrets to redact
   */
  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(redact(message, details.secrets ?? []));
    this.code = code;
    for (const key of ['operationName', 'requestId', 'status', 'phase', 'mutationOutcomeUnknown'] as const) if (details[key] !== undefined) Object.assign(this, { [key]: details[key] });
    Object.defineProperty(this, 'cause', { value: safeCause(details.cause, details.secrets ?? []), enumerable: false, writable: false });
  }

  /**
   * A plain, secret-free summary, used by `JSON.stringify`.
   *
   * @returns the message and the error's own fields: name, code, operation name, request id,
   * status, phase, and each kind's own (`problems`, `mutationOutcomeUnknown`, `job`, …); never `cause`
   */
  toJSON(): Record<string, unknown> {
    return Object.assign<Record<string, unknown>, this>({ message: this.message }, this);
  }
}

/** Input that failed validation before any request was sent; `problems` lists every one. */
export class ValidationError extends LabelkitError {
  override name = 'ValidationError';
  declare readonly code: 'VALIDATION';
  /**
   * @param problems - every problem found, each with its field path
   * @param details - usually the operation that was not sent
   */
  constructor(readonly problems: Problem[], details: ErrorDetails = {}) {
    super('VALIDATION', `[Validation] ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, details);
  }
}

/** The service refused the credentials, or a new token could not be obtained. */
export class AuthError extends LabelkitError {
  override name = 'AuthError';
  declare readonly code: 'AUTH';
  /**
   * @param message - what failed, without the `[Auth]` prefix; never a token or secret
   * @param details - see {@link ErrorDetails}
   */
  constructor(message: string, details: ErrorDetails = {}) {
    super('AUTH', `[Auth] ${message}`, details);
  }
}

/**
 * Appended to the message of a mutation whose fate is unknown. The job's id never arrived, and
 * the API lists no jobs by project, so getJobs cannot find it: say what can be done instead.
 */
export const MUTATION_OUTCOME_UNKNOWN_HINT =
  '; the mutation may have reached the service, so a job may have started although its id never arrived: ' +
  "do not start another blindly, look at the project's auto-labeling in the service first";

/** No usable answer arrived: connection failed, HTTP error status, time-out or abort. */
export class NetworkError extends LabelkitError {
  override name = 'NetworkError';
  declare readonly code: 'NETWORK' | 'TIMEOUT' | 'ABORTED';
  /**
   * True for a mutation that may have reached the service before the connection failed: a job
   * may have started, and its id is unknown. Look at the project before starting another.
   */
  declare readonly mutationOutcomeUnknown: boolean;
  /** The server's `Retry-After`, in ms, when it sent one. */
  retryAfterMs?: number;
  /**
   * @param code - `NETWORK` (no usable answer), `TIMEOUT` or `ABORTED`
   * @param message - what failed, without the `[Network]` prefix
   * @param details - see {@link ErrorDetails}, `mutationOutcomeUnknown` included
   */
  constructor(code: 'NETWORK' | 'TIMEOUT' | 'ABORTED', message: string, details: ErrorDetails = {}) {
    super(code, `[Network] ${message}`, { mutationOutcomeUnknown: false, ...details });
  }
}

/** One error of a GraphQL response, as the service sent it (secrets redacted). */
export interface GraphQLErrorEntry {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
}

/** The service answered with GraphQL errors. */
export class GraphQLRequestError extends LabelkitError {
  override name = 'GraphQLRequestError';
  declare readonly code: 'GRAPHQL';
  /**
   * @param graphQLErrors - the response's errors, already redacted
   * @param details - see {@link ErrorDetails}
   */
  constructor(readonly graphQLErrors: GraphQLErrorEntry[], details: ErrorDetails = {}) {
    super('GRAPHQL', `[GraphQL] ${graphQLErrors.map((e) => e.message).join('; ') || 'unknown error'}`, details);
  }
}

/**
 * An answer arrived but is not what the operation asks for: not JSON, no `data`, or `data`
 * without the asked field or with a field of the wrong shape. Code `BAD_RESPONSE`.
 *
 * @remarks Usually a proxy or a wrong URL in front of the service, or a service of another
 * version. Not transient: a query is not retried and a wait ends with it. For a mutation
 * `mutationOutcomeUnknown` is true (the service may have started a job).
 */
export class ProtocolError extends LabelkitError {
  override name = 'ProtocolError';
  declare readonly code: 'BAD_RESPONSE';
  /** True for a mutation: the request reached a server, so a job may have started. */
  declare readonly mutationOutcomeUnknown: boolean;
  /**
   * @param message - what is wrong with the answer, without the `[Protocol]` prefix
   * @param details - see {@link ErrorDetails}, `mutationOutcomeUnknown` included
   */
  constructor(message: string, details: ErrorDetails = {}) {
    super('BAD_RESPONSE', `[Protocol] ${message}`, { mutationOutcomeUnknown: false, ...details });
  }
}

/** A job ended `FAILED`; `job.errors` says why. */
export class JobFailedError extends LabelkitError {
  override name = 'JobFailedError';
  declare readonly code: 'JOB_FAILED';
  /** @param job - the job as last read, status `FAILED` */
  constructor(readonly job: Job) {
    const first = job.errors[0]?.stack.split('\n')[0];
    super('JOB_FAILED', `[Job] job ${job.id} failed with ${job.errors.length} error${job.errors.length === 1 ? '' : 's'}${first ? `: ${first}` : ''}`, { operationName: 'GetJobs' });
  }
}

/** Waiting for a job ran out of time; `job` is the last snapshot seen (null if none). */
export class JobTimeoutError extends LabelkitError {
  override name = 'JobTimeoutError';
  declare readonly code: 'JOB_TIMEOUT';
  /**
   * @param jobId - the job waited for
   * @param job - the last snapshot seen, or null
   * @param timeoutMs - how long the wait lasted
   */
  constructor(readonly jobId: string, readonly job: Job | null, timeoutMs: number) {
    super('JOB_TIMEOUT', `[Job] job ${jobId} did not end within ${timeoutMs} ms${job ? ` (last seen ${job.status}, ${job.progress}%)` : ' (never seen)'}`, { operationName: 'GetJobs' });
  }
}

/** The service does not know the job (null, or stuck in `NONE` past the grace period). */
export class JobNotFoundError extends LabelkitError {
  override name = 'JobNotFoundError';
  declare readonly code: 'JOB_NOT_FOUND';
  /** @param jobId - the job the service does not know */
  constructor(readonly jobId: string) {
    super('JOB_NOT_FOUND', `[Job] the service knows no job ${jobId}`, { operationName: 'GetJobs' });
  }
}

/** A label set whose hierarchy is broken: orphans, cycles, duplicate names under one parent; the message names the first 20 problems and counts the rest. */
export class LabelHierarchyError extends LabelkitError {
  override name = 'LabelHierarchyError';
  declare readonly code: 'LABEL_SET';
  /**
   * @param labelSetId - the label set at fault
   * @param problems - every problem found (orphans, cycles, duplicate names)
   */
  constructor(readonly labelSetId: string, readonly problems: string[]) {
    const more = problems.length > 20 ? `; and ${problems.length - 20} more` : '';
    super('LABEL_SET', `[LabelSet] label set ${labelSetId}: ${problems.slice(0, 20).join('; ')}${more}`);
  }
}

/**
 * Every error labelkit throws, told apart by `code`: narrowing on it gives each kind's fields
 * (`error.code === 'JOB_FAILED'` gives `error.job`, `'VALIDATION'` gives `error.problems`,
 * `'NETWORK'` gives `error.mutationOutcomeUnknown`, …).
 *
 * @example
 * ```ts
 * if (isLabelkitError(error) && error.code === 'JOB_FAILED') console.error(error.job.errors);
 * ```
 */
export type AnyLabelkitError = ValidationError | AuthError | NetworkError | GraphQLRequestError | ProtocolError
  | JobFailedError | JobTimeoutError | JobNotFoundError | LabelHierarchyError;

/**
 * Tells whether a value is a labelkit error, across copies of the package.
 *
 * @param value - anything caught
 * @returns true when `value` is a labelkit error (checked by shape, not only `instanceof`); the type
 * is the union {@link AnyLabelkitError}, so that `code` narrows it
 * @example
 * ```ts
 * try { await getCabinet(client, id, 'LABELER'); }
 * catch (e) { if (isLabelkitError(e) && e.code === 'AUTH') console.error('log in again'); }
 * ```
 */
export function isLabelkitError(value: unknown): value is AnyLabelkitError {
  if (value instanceof LabelkitError) return true;
  return value instanceof Error && 'code' in value && (ERROR_CODES as readonly unknown[]).includes(value.code) && /^\[\w+\] /.test(value.message);
}
