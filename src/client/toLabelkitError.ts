import type { CombinedError } from '@urql/core';
import { classifyFailure, isTransientStatus } from '../shared/classify.js';
import { redactValue } from '../shared/redact.js';
import type { Secrets } from '../shared/redact.js';
import { AuthError, GraphQLRequestError, isLabelkitError, MUTATION_OUTCOME_UNKNOWN_HINT, NetworkError, ProtocolError } from './errors.js';
import type { GraphQLErrorEntry, LabelkitError } from './errors.js';
import { isAuthFailure } from './auth.js';
import { inBrowser } from './inBrowser.js';

/** What the one conversion point knows about the failed call. */
export interface FailedCall {
  kind: 'query' | 'mutation';
  operationName: string;
  requestId: string;
  url: string;
  /** Secret values that must not survive into the error (tokens, client secret, secretKey). */
  secrets: Secrets;
  /** What a mutation of unknown outcome tells the caller to do. @defaultValue MUTATION_OUTCOME_UNKNOWN_HINT (a job's) */
  outcomeHint?: string;
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

/**
 * The `Retry-After` of a response in ms (seconds or an HTTP date), or undefined.
 *
 * @param response - a fetch Response (or anything with `headers.get`)
 * @returns the delay the server asked for, in ms, or undefined when it asked none
 */
export function retryAfterMs(response: unknown): number | undefined {
  const value = (response as { headers?: Headers } | undefined)?.headers?.get?.('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The HTTP status of the response behind an urql error, if one arrived.
 *
 * @param error - the CombinedError of a result
 * @returns the status, or undefined when no response arrived
 */
export function statusOf(error: CombinedError): number | undefined {
  return (error.response as { status?: number } | undefined)?.status;
}

/**
 * The one rule for retries (queries) and waits, applied to a labelkit error: true when asking
 * again can help.
 *
 * @param error - anything caught
 * @returns true for a {@link NetworkError} of code `NETWORK` or `TIMEOUT` that the shared
 * classification (`shared/classify`) calls transient: no answer at all, a cut answer, or HTTP
 * 408/429/5xx (whatever the body said), the token endpoint's included; false for everything else
 * (auth, a refused 4xx such as 404, GraphQL errors, a malformed answer, an abort)
 * @example
 * ```ts
 * isTransientError(new NetworkError('NETWORK', 'HTTP 503 from …', { status: 503 })); // true
 * ```
 */
export function isTransientError(error: unknown): boolean {
  if (!isLabelkitError(error) || (error.code !== 'NETWORK' && error.code !== 'TIMEOUT')) return false;
  return classifyFailure({ status: error.status }) === 'transient';
}

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** True when reading the body of an answer failed (the connection dropped mid-body), not parsing it. */
function bodyCut(error: unknown): boolean {
  return error instanceof TypeError || causeCode(error) !== undefined;
}

/**
 * Turns urql's `result.error` into one error of labelkit's family: the single conversion point.
 *
 * @param error - the CombinedError of a result
 * @param call - which call failed, and the secrets to scrub
 * @returns an {@link AuthError}, {@link NetworkError}, {@link GraphQLRequestError} or
 * {@link ProtocolError}, whose message names the operation and request id and holds no secret
 * @remarks The HTTP status decides first: 408, 429 and 5xx give a {@link NetworkError} (with
 * `retryAfterMs` when `Retry-After` was sent) even when the body is JSON with GraphQL errors.
 */
export function toLabelkitError(error: CombinedError, call: FailedCall): LabelkitError {
  const status = statusOf(error);
  const where = `(operation ${call.operationName}, request ${call.requestId})`;
  const secrets = call.secrets;
  const details = { operationName: call.operationName, requestId: call.requestId, secrets, ...(status !== undefined && { status }) };
  const cause = error.networkError;

  // Obtaining the token failed (the token source's errors arrive as the network error): nothing was sent.
  if (isLabelkitError(cause) && cause.phase === 'token') {
    const text = `${cause.message.replace(/^\[\w+\] /, '')} ${where}`;
    const tokenDetails = { ...details, phase: 'token' as const, cause: cause.cause, ...(cause.status !== undefined && { status: cause.status }) };
    if (cause instanceof NetworkError) return new NetworkError(cause.code as 'NETWORK' | 'TIMEOUT', text, tokenDetails);
    return new AuthError(text, tokenDetails);
  }
  if (cause instanceof AuthError) return new AuthError(`${cause.message.replace(/^\[Auth\] /, '')} ${where}`, { ...details, cause: cause.cause });
  if (isAuthFailure(error)) {
    return new AuthError(
      `the service refused the access token${status === 401 ? ' (HTTP 401)' : ' (Unauthorized)'} even after a refresh; check the token or client credentials ${where}`,
      details,
    );
  }
  const ok = status !== undefined && status >= 200 && status < 300;
  if (error.graphQLErrors.length > 0 && (status === undefined || !isTransientStatus(status))) {
    const entries: GraphQLErrorEntry[] = error.graphQLErrors.map((e) => ({
      message: e.message,
      ...(e.path && { path: e.path }),
      ...(e.extensions && Object.keys(e.extensions).length > 0 && { extensions: e.extensions as Record<string, unknown> }),
    }));
    const err = new GraphQLRequestError(redactValue(entries, secrets), details);
    Object.defineProperty(err, 'message', { value: `${err.message} ${where}`, enumerable: false });
    return err;
  }
  const mutation = call.kind === 'mutation';
  if (ok && cause && !bodyCut(cause)) {
    return new ProtocolError(`the answer from ${call.url} (HTTP ${status}) is not GraphQL JSON${mutation ? (call.outcomeHint ?? MUTATION_OUTCOME_UNKNOWN_HINT) : ''} ${where}`, {
      ...details,
      mutationOutcomeUnknown: mutation,
      cause,
    });
  }

  const code = causeCode(cause);
  const neverSent = code !== undefined && NEVER_SENT.has(code);
  // A 4xx (429 included) means the service refused the request: the mutation did not run.
  const httpRefused = status !== undefined && status >= 400 && status < 500;
  const unknownOutcome = mutation && !neverSent && !httpRefused;
  const graphQL = error.graphQLErrors.map((e) => e.message).join('; ');
  const reason = ok
    ? `the connection to ${call.url} was lost while reading the answer (HTTP ${status})${code ? ` (${code})` : ''}`
    : status !== undefined
      ? `HTTP ${status} from ${call.url}${graphQL ? `: ${graphQL.slice(0, 500)}` : ''}`
      : `could not reach ${call.url}${code ? ` (${code})` : ''}${inBrowser() ? ' (in a browser this can also be a CORS refusal)' : ''}`;
  const hint = unknownOutcome ? (call.outcomeHint ?? MUTATION_OUTCOME_UNKNOWN_HINT) : '';
  const ra = retryAfterMs(error.response);
  // A cut answer is no answer: its 200 status is not kept, so that it classifies as transient.
  const err = new NetworkError('NETWORK', `${reason}${hint} ${where}`, {
    ...details,
    ...(ok && { status: undefined }),
    mutationOutcomeUnknown: unknownOutcome,
    cause,
  });
  if (ra !== undefined) err.retryAfterMs = ra;
  return err;
}
