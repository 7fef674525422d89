// What a failure is: what is retried, what is final. The conversion to labelkit's errors is toLabelkitError.ts.
import type { CombinedError } from '@urql/core';
import { classifyFailure, errorCode, isTransientStatus } from '../shared/classify.js';
import { isLabelkitError, type NetworkError } from './errors.js';

/**
 * A non-2xx answer that is not a GraphQL response: the request failed at the HTTP level. The
 * client's fetch rejects with it (so urql reports it as the network error), keeping the status
 * and headers in `response` and the start of the body in the message.
 */
export class HttpStatusError extends Error {
  override name = 'HttpStatusError';
  /**
   * @param response - the answer's status, status text and headers (its body already read)
   * @param body - the body's text, already capped
   */
  constructor(readonly response: Response, body: string) {
    super(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${body ? `: ${body}` : ''}`);
  }
}

/**
 * The response behind an urql error: the one urql kept, or the one of an {@link HttpStatusError}.
 *
 * @param error - the CombinedError of a result
 * @returns the response (status and headers), or undefined when none arrived
 */
export function responseOf(error: CombinedError): Response | undefined {
  return (error.response as Response | undefined) ?? (error.networkError instanceof HttpStatusError ? error.networkError.response : undefined);
}

/**
 * Tells whether an urql error means "not authenticated".
 *
 * @param error - the CombinedError of a result
 * @returns true for HTTP 401, or production's GraphQL error `Unauthorized` (with
 * `extensions.type` `AuthenticationError`)
 */
export function isAuthFailure(error: CombinedError): boolean {
  return responseOf(error)?.status === 401 || error.graphQLErrors.some((e) => e.extensions?.type === 'AuthenticationError' || e.message === 'Unauthorized');
}

/** True for a 2xx status. */
export const isOk = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/** Error codes of a connection that never carried the request: a mutation sent nothing. */
export const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

/**
 * The `Retry-After` of a response in ms (seconds or an HTTP date), or undefined.
 *
 * @param response - a fetch Response (or anything with `headers.get`)
 * @returns the delay the server asked for, in ms, or undefined when it asked none
 */
export function retryAfterMs(response: Response | undefined): number | undefined {
  const value = response?.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The one rule for retries (queries) and waits, applied to a labelkit error: true when asking
 * again can help.
 *
 * @param error - anything caught
 * @returns true for a {@link NetworkError} of code `NETWORK` or `TIMEOUT` that the shared
 * status rule (`classifyFailure` of `shared/classify`) calls transient: no answer at all, a cut answer, or HTTP
 * 408/429/5xx (whatever the body said), the token endpoint's included; false for everything else
 * (auth, a refused 4xx such as 404, GraphQL errors, a malformed answer, an abort)
 * @example
 * ```ts
 * isTransientError(new NetworkError('NETWORK', 'HTTP 503 from …', { status: 503 })); // true
 * ```
 */
export function isTransientError(error: unknown): error is NetworkError {
  return isLabelkitError(error) && (error.code === 'NETWORK' || error.code === 'TIMEOUT') && classifyFailure(error) === 'transient';
}

/** What kind of failure an urql error is: the one reading of its shape, for conversion and retries. */
export type FailureKind = 'auth' | 'graphql' | 'protocol' | 'network';

/** The system error code (ECONNRESET, …) under a network error, if any. */
export const causeCode = (error: unknown) => errorCode(error instanceof Error ? error.cause : undefined);

/**
 * The one reading of an urql error's shape.
 *
 * @param error - the CombinedError of a result
 * @returns `auth` (a token failure or a refusal), `graphql`, `protocol` (a 2xx that is not GraphQL JSON) or `network`
 */
export function kindOf(error: CombinedError): FailureKind {
  const status = responseOf(error)?.status;
  const cause = error.networkError;
  if (isLabelkitError(cause) || isAuthFailure(error)) return 'auth'; // a token failure (the token source retries those), or refused
  if (error.graphQLErrors.length > 0 && (status === undefined || !isTransientStatus(status))) return 'graphql';
  // A 2xx whose body is not GraphQL JSON; a body cut mid-way (a TypeError, or a socket error code) is no answer.
  if (isOk(status) && cause && !(cause instanceof TypeError) && causeCode(cause) === undefined) return 'protocol';
  return 'network';
}

/**
 * Whether a failed query is worth sending again: the retry rule of the exchange pipeline.
 *
 * @param error - the CombinedError of a result
 * @returns true for no answer, a cut answer, HTTP 408/429/5xx; false for GraphQL errors, auth,
 * a malformed answer, a refused 4xx, and token failures (the token source retries those itself)
 */
export function isRetryable(error: CombinedError): boolean {
  if (kindOf(error) !== 'network') return false;
  const status = responseOf(error)?.status;
  return status === undefined || isOk(status) || isTransientStatus(status);
}
