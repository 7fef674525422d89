import type { CombinedError } from '@urql/core';
import { AuthError, GraphQLRequestError, isLabelkitError, MUTATION_OUTCOME_UNKNOWN_HINT, NetworkError, redact } from './errors.js';
import type { GraphQLErrorEntry, LabelkitError } from './errors.js';
import { isAuthFailure } from './auth.js';

/** What the one conversion point knows about the failed call. */
export interface FailedCall {
  kind: 'query' | 'mutation';
  operationName: string;
  requestId: string;
  url: string;
  /** Secret values that must not survive into the error (tokens, client secret, secretKey). */
  secrets: ReadonlyArray<string | undefined>;
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

/** The `Retry-After` of a response in ms (seconds or an HTTP date), or undefined. */
export function retryAfterMs(response: unknown): number | undefined {
  const value = (response as { headers?: Headers } | undefined)?.headers?.get?.('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The HTTP status of the response behind an urql error, if one arrived. */
export function statusOf(error: CombinedError): number | undefined {
  return (error.response as { status?: number } | undefined)?.status;
}

/** True for failures worth retrying for a query: no response, 408, 429 or 5xx. */
export function isTransient(error: CombinedError): boolean {
  const status = statusOf(error);
  if (status !== undefined) return status === 408 || status === 429 || status >= 500;
  return Boolean(error.networkError) && !isLabelkitError(error.networkError);
}

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * A copy of an underlying error that is safe to keep as `cause`: name, redacted message and stack,
 * and the system error code (ECONNRESET, …), nested causes likewise. urql's network error may
 * carry a response body (its message is the body text when a non-2xx answer has no status
 * text), and `util.inspect` prints `cause` even when it is not enumerable.
 */
function scrubCause(error: unknown, secrets: FailedCall['secrets'], depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 3) return undefined;
  const copy = new Error(redact(error.message, secrets).slice(0, 500));
  copy.name = error.name;
  copy.stack = redact(error.stack ?? '', secrets);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.defineProperty(copy, 'code', { value: code, enumerable: true });
  const inner = scrubCause((error as { cause?: unknown }).cause, secrets, depth + 1);
  if (inner) Object.defineProperty(copy, 'cause', { value: inner, enumerable: false });
  return copy;
}

function redactDeep(value: unknown, secrets: FailedCall['secrets']): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(redact(JSON.stringify(value), secrets)) as unknown;
}

/** A page's (or web worker's) fetch reports a CORS refusal exactly like an unreachable server ("Failed to fetch"). */
const IN_BROWSER =
  typeof (globalThis as { document?: unknown }).document !== 'undefined' || typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';

/**
 * Turns urql's `result.error` into one error of labelkit's family: the single conversion point.
 *
 * @param error - the CombinedError of a result
 * @param call - which call failed, and the secrets to scrub
 * @returns an {@link AuthError}, {@link NetworkError} or {@link GraphQLRequestError}, whose message
 * names the operation and request id and holds no secret
 */
export function toLabelkitError(error: CombinedError, call: FailedCall): LabelkitError {
  const status = statusOf(error);
  const where = `(operation ${call.operationName}, request ${call.requestId})`;
  const details = { operationName: call.operationName, requestId: call.requestId, ...(status !== undefined && { status }) };
  const clean = (text: string) => redact(text, call.secrets);

  if (error.networkError instanceof AuthError) {
    return new AuthError(`${clean(error.networkError.message.replace(/^\[Auth\] /, ''))} ${where}`, {
      ...details,
      cause: scrubCause(error.networkError.cause, call.secrets),
    });
  }
  if (isAuthFailure(error)) {
    return new AuthError(
      `the service refused the access token${status === 401 ? ' (HTTP 401)' : ' (Unauthorized)'} even after a refresh; check the token or client credentials ${where}`,
      details,
    );
  }
  if (error.graphQLErrors.length > 0) {
    const entries: GraphQLErrorEntry[] = error.graphQLErrors.map((e) => ({
      message: clean(e.message),
      ...(e.path && { path: e.path }),
      ...(e.extensions && Object.keys(e.extensions).length > 0 && {
        extensions: redactDeep(e.extensions, call.secrets) as Record<string, unknown>,
      }),
    }));
    const err = new GraphQLRequestError(entries, details);
    Object.defineProperty(err, 'message', { value: `${err.message} ${where}`, enumerable: false });
    return err;
  }

  const code = causeCode(error.networkError);
  const neverSent = code !== undefined && NEVER_SENT.has(code);
  const httpRefused = status !== undefined && status >= 400 && status < 500;
  const unknownOutcome = call.kind === 'mutation' && !neverSent && !httpRefused;
  const reason =
    status !== undefined
      ? `HTTP ${status} from ${call.url}`
      : `could not reach ${call.url}${code ? ` (${code})` : ''}${IN_BROWSER ? ' (in a browser this can also be a CORS refusal)' : ''}`;
  const hint = unknownOutcome ? MUTATION_OUTCOME_UNKNOWN_HINT : '';
  const ra = retryAfterMs(error.response);
  const err = new NetworkError('NETWORK', `${clean(reason)}${hint} ${where}`, {
    ...details,
    mutationOutcomeUnknown: unknownOutcome,
    cause: scrubCause(error.networkError, call.secrets),
  });
  if (ra !== undefined) err.retryAfterMs = ra;
  return err;
}
