import type { CombinedError } from '@urql/core';
import { classifyFailure, errorCode, isTransientStatus } from '../shared/classify.js';
import { redactValue } from '../shared/redact.js';
import type { Secrets } from '../shared/redact.js';
import { AuthError, GraphQLRequestError, isLabelkitError, NetworkError, ProtocolError } from './errors.js';
import type { GraphQLErrorEntry, LabelkitError } from './errors.js';
import { inBrowser } from './inBrowser.js';

/** What the one conversion point knows about the failed call. */
export interface FailedCall {
  kind: 'query' | 'mutation';
  /** The operation's name and the request's id, for the error's fields. */
  details: { operationName: string; requestId: string };
  /** `(operation X, request Y)`, ending every message. */
  where: string;
  url: string;
  /** Secret values that must not survive into the error (tokens, client secret, secretKey). */
  secrets: Secrets;
  /** What a mutation of unknown outcome tells the caller to do (the helper's, else MUTATION_OUTCOME_UNKNOWN_HINT); empty for a query. */
  hint: string;
  /** True when the token is a static one (`token`): a refusal was not followed by a refresh. */
  staticToken?: boolean;
}

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
const isOk = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/** Error codes of a connection that never carried the request: a mutation sent nothing. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

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
export function isTransientError(error: unknown): boolean {
  return isLabelkitError(error) && (error.code === 'NETWORK' || error.code === 'TIMEOUT') && classifyFailure(error) === 'transient';
}

/** What kind of failure an urql error is: the one reading of its shape, for conversion and retries. */
type FailureKind = 'auth' | 'graphql' | 'protocol' | 'network';

/** The system error code (ECONNRESET, …) under a network error, if any. */
const causeCode = (error: unknown) => errorCode(error instanceof Error ? error.cause : undefined);

function kindOf(error: CombinedError): FailureKind {
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

/**
 * Converts an urql error into the labelkit error family: the one conversion point.
 *
 * @param error - the CombinedError of a result
 * @param call - the call's kind, operation name, request id, URL and secrets
 * @returns an {@link AuthError}, {@link GraphQLRequestError}, {@link ProtocolError} or
 * {@link NetworkError}; messages end with `(operation X, request Y)` and hold no secret
 * @remarks A mutation's outcome is unknown (`mutationOutcomeUnknown`, with a hint in the message)
 * when the request may have reached the service: not when the connection was refused or never
 * made, and not when the service answered 4xx.
 */
export function toLabelkitError(error: CombinedError, call: FailedCall): LabelkitError {
  const response = responseOf(error);
  const status = response?.status;
  const { secrets, where } = call;
  const details = { ...call.details, secrets, ...(status !== undefined && { status }) };
  const cause = error.networkError;
  const mutation = call.kind === 'mutation';
  // A token failure, or a request refused before it was sent: already a labelkit error.
  if (isLabelkitError(cause)) {
    const text = `${cause.message.replace(/^\[\w+\] /, '')} ${where}`;
    const own = { ...details, cause: cause.cause, phase: cause.phase, status: cause.status };
    // By code, not by class: a labelkit error from a second copy of the package is one too.
    const { code } = cause;
    return code === 'NETWORK' || code === 'TIMEOUT' || code === 'ABORTED' ? new NetworkError(code, text, own) : new AuthError(text, own);
  }
  switch (kindOf(error)) {
    case 'auth': {
      const after = call.staticToken ? '; check the token' : ' even after a refresh; check the token or client credentials';
      return new AuthError(`the service refused the access token${status === 401 ? ' (HTTP 401)' : ' (Unauthorized)'}${after} ${where}`, details);
    }
    case 'graphql': {
      const entries: GraphQLErrorEntry[] = error.graphQLErrors.map(({ message, path, extensions }) =>
        ({ message, ...(path && { path }), ...(extensions && Object.keys(extensions).length > 0 && { extensions }) }));
      const err = new GraphQLRequestError(redactValue(entries, secrets), details);
      err.message += ` ${where}`; // stays non-enumerable, as every Error's message
      return err;
    }
    case 'protocol':
      return new ProtocolError(`the answer from ${call.url} (HTTP ${status}) is not GraphQL JSON${call.hint} ${where}`, { ...details, mutationOutcomeUnknown: mutation, cause });
    case 'network': {
      const code = causeCode(cause);
      const ok = isOk(status);
      // A 4xx (429 included) means the service refused the request: the mutation did not run.
      const refused = status !== undefined && status >= 400 && status < 500;
      const unknownOutcome = mutation && !NEVER_SENT.has(code ?? '') && !refused;
      const graphQL = error.graphQLErrors.map((e) => e.message).join('; ');
      const reason = ok
        ? `the connection to ${call.url} was lost while reading the answer (HTTP ${status})${code ? ` (${code})` : ''}`
        : status !== undefined
          ? `HTTP ${status} from ${call.url}${graphQL ? `: ${graphQL.slice(0, 500)}` : ''}`
          : `could not reach ${call.url}${code ? ` (${code})` : ''}${inBrowser() ? ' (in a browser this can also be a CORS refusal)' : ''}`;
      // A cut answer is no answer: its 200 status is not kept, so that it classifies as transient.
      const own = { ...details, ...(ok && { status: undefined }), mutationOutcomeUnknown: unknownOutcome, cause };
      const err = new NetworkError('NETWORK', `${reason}${unknownOutcome ? call.hint : ''} ${where}`, own);
      const wish = retryAfterMs(response);
      if (wish !== undefined) err.retryAfterMs = wish;
      return err;
    }
  }
}
