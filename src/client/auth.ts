import { authExchange } from '@urql/exchange-auth';
import type { Exchange, Operation } from '@urql/core';
import { isTransientStatus } from '../shared/classify.js';
import { isRecord } from '../shared/isRecord.js';
import { AuthError, NetworkError } from './errors.js';
import { backoffDelays, pause } from './retryPolicy.js';
import { isAuthFailure, isTransientError } from './toLabelkitError.js';
import type { RetryOptions } from './retryPolicy.js';

/** Client-credentials login, as production issues tokens. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** @defaultValue `{origin of url}/api/oauth/token` */
  tokenUrl?: string | undefined;
}

/** Where the access token comes from: exactly one of the three. */
export interface AuthOptions {
  token?: string | undefined;
  getToken?: (() => string | Promise<string>) | undefined;
  clientCredentials?: ClientCredentials | undefined;
  /**
   * How long one token request (or `getToken()` call) may take; a failed or timed-out one is
   * forgotten, and the next call asks again. @defaultValue 10_000, or half the client's `timeoutMs` when shorter
   */
  tokenTimeoutMs?: number | undefined;
}

/** An access token, and when to refresh it. */
export interface Token {
  value: string;
  /** Epoch ms after which the token is refreshed before use; undefined when unknown. */
  refreshAt?: number;
}

/** How long before a known expiry a token is refreshed, in milliseconds. */
const EXPIRY_MARGIN_MS = 30_000;

/** How long a token request may take unless `tokenTimeoutMs` says otherwise (capped by the call time-out). */
const DEFAULT_TOKEN_TIMEOUT_MS = 10_000;

/** Every failure here happened while obtaining a token. */
const phase = 'token';

/**
 * Runs `work` with an abort signal that fires after `ms`; rejects then with a `TIMEOUT` error of
 * the token phase, `{late} within {ms} ms`.
 */
async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>, late: string): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NetworkError('TIMEOUT', `${late} within ${ms} ms`, { phase })), ms);
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
    controller.abort(); // a hung request ends with its time-out; a finished one has nothing left to abort
  }
}

/** One request to the token endpoint (client-credentials grant). */
async function requestToken(credentials: ClientCredentials, tokenUrl: string, fetchFn: typeof fetch, signal: AbortSignal): Promise<Token> {
  const secrets = [credentials.clientSecret];
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret });
  let response: Response;
  let text: string;
  try {
    response = await fetchFn(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body, signal });
    text = await response.text();
  } catch (error) {
    throw new NetworkError('NETWORK', `the token endpoint ${tokenUrl} could not be reached`, { cause: error, phase, secrets });
  }
  const { status } = response;
  if (isTransientStatus(status)) {
    throw new NetworkError('NETWORK', `the token endpoint ${tokenUrl} answered HTTP ${status}`, { status, phase, secrets, cause: text });
  }
  if (!response.ok) {
    const refused = status === 400 || status === 401 || status === 403;
    const why = refused ? 'refused the client credentials' : 'answered';
    const hint = refused ? 'check the client id and secret' : 'check the token URL';
    throw new AuthError(`the token endpoint ${tokenUrl} ${why} (HTTP ${status}); ${hint}`, { status, phase, secrets });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // no access_token: said below
  }
  if (!isRecord(json) || typeof json.access_token !== 'string' || json.access_token === '') {
    throw new AuthError(`the token endpoint ${tokenUrl} answered without an access_token`, { phase, secrets });
  }
  if (!isHeaderToken(json.access_token)) {
    throw new AuthError(`the access_token of the token endpoint ${tokenUrl} ${NOT_A_HEADER_TOKEN}`, { phase, secrets: [...secrets, json.access_token] });
  }
  const ttl = typeof json.expires_in === 'number' ? json.expires_in * 1000 : undefined;
  return { value: json.access_token, ...(ttl !== undefined && { refreshAt: Date.now() + Math.max(ttl - EXPIRY_MARGIN_MS, ttl / 2) }) };
}

/**
 * Whether a token can go into the `Authorization` header as it is: printable ASCII (spaces inside
 * it too), not starting or ending with a space. fetch refuses a line break or a control character
 * (every request would fail with a message about the URL), trims outer spaces (another token
 * would be sent) and mangles non-ASCII text.
 *
 * @param value - an access token
 * @returns true when fetch sends it as it is
 */
export const isHeaderToken = (value: string): boolean => /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);

/** What is wrong with a token that {@link isHeaderToken} refuses (it never quotes the token). */
export const NOT_A_HEADER_TOKEN =
  'cannot go into the Authorization header as it is: it starts or ends with a space, or holds a line break, a control or a non-ASCII character';

/**
 * Turns the auth options into a function that obtains a fresh access token.
 *
 * @param options - `token`, `getToken` or `clientCredentials`; `url`, the GraphQL endpoint (the
 * default token URL is `/api/oauth/token` on its origin); `retry`, the client's settings, with
 * which transient failures of the token endpoint are retried; `tokenTimeoutMs` (see
 * {@link AuthOptions}), else at most half the client's `timeoutMs`, so that a hung token request
 * fails as itself; `timeoutMs`, the client's call time-out
 * @param fetchFn - the fetch to use
 * @param signal - the client's close(): ends any wait between token attempts
 * @returns a function that resolves with a token, or rejects with an {@link AuthError} or a
 * {@link NetworkError}, both of `phase: 'token'` and naming the token endpoint (or `getToken()`)
 * @remarks Each request (or `getToken()` call) has its own time-out. A transient failure of the
 * token endpoint (no answer, 408, 429, 5xx, a time-out) is retried here, with the client's back-off,
 * since nothing was sent to the service yet; wrong credentials are not. Nothing is cached here: the
 * auth exchange keeps the token.
 * @example
 * ```ts
 * const next = makeTokenSource({ url, timeoutMs: 30_000, clientCredentials: { clientId, clientSecret } }, fetch, closing.signal);
 * const { value } = await next();
 * ```
 */
export function makeTokenSource(options: AuthOptions & { url: string; retry?: RetryOptions | undefined; timeoutMs: number }, fetchFn: typeof fetch, signal: AbortSignal): () => Promise<Token> {
  const { token, getToken, clientCredentials } = options;
  const timeoutMs = options.tokenTimeoutMs ?? Math.min(DEFAULT_TOKEN_TIMEOUT_MS, options.timeoutMs / 2);
  if (getToken) {
    const call = async () => {
      try {
        return await getToken();
      } catch (error) {
        throw new AuthError('getToken() failed; no access token', { cause: error, phase });
      }
    };
    return async () => {
      const value = await withTimeout(timeoutMs, call, 'getToken() did not return a token');
      if (typeof value !== 'string' || value === '') throw new AuthError('getToken() returned no token', { phase });
      if (!isHeaderToken(value)) throw new AuthError(`getToken() returned a token that ${NOT_A_HEADER_TOKEN}`, { phase, secrets: [value] });
      return { value };
    };
  }
  if (clientCredentials) {
    const tokenUrl = clientCredentials.tokenUrl ?? new URL('/api/oauth/token', options.url).toString();
    const late = `the token endpoint ${tokenUrl} did not answer`;
    const once = () => withTimeout(timeoutMs, (timeout) => requestToken(clientCredentials, tokenUrl, fetchFn, timeout), late);
    return async () => {
      for (const delays = backoffDelays(options.retry); ; ) {
        try {
          return await once();
        } catch (error) {
          const delayMs = delays.next().value;
          if (!isTransientError(error) || delayMs === undefined || signal.aborted) throw error;
          await pause(delayMs, signal);
          if (signal.aborted) throw error; // closed while waiting: no request after close()
        }
      }
    };
  }
  // createLabelingClient's validation lets exactly one credential through: here, a non-empty token
  // (createExecutor sends a static token as a header and never asks here).
  return async () => ({ value: token ?? '' });
}

/** The `Authorization` header an operation was sent with (from its public `fetchOptions`). */
function sentAuthorization(operation: Operation): string | undefined {
  const options = typeof operation.context.fetchOptions === 'function' ? operation.context.fetchOptions() : operation.context.fetchOptions;
  return (options?.headers as Record<string, string> | undefined)?.authorization;
}

/**
 * urql's `authExchange`, configured to add `Authorization: Bearer <token>` from a token source.
 *
 * @param next - obtains a fresh token (see {@link makeTokenSource})
 * @returns the exchange
 * @remarks The first token is asked for when the exchange starts; its failure reaches the
 * operations waiting for it as their error result (and is forgotten: the next one asks again). A token is refreshed before a known expiry, and after an HTTP 401 or production's
 * `Unauthorized` error; many operations refused together share one refresh, and one refused with
 * a token that has since been replaced is re-sent without another. A failed refresh forgets the
 * token, so the next operation asks again: nothing is ever sent without a token.
 * @example
 * ```ts
 * new Client({ url, exchanges: [labelkitAuthExchange(next), fetchExchange] });
 * ```
 */
export function labelkitAuthExchange(next: () => Promise<Token>): Exchange {
  return authExchange(async (utils) => {
    // The first token (urql holds every operation until this function returns). A failure is
    // kept and thrown from refreshAuth, so that it reaches the waiting operations as their error
    // result (a throwing init function would only be logged by urql).
    let token: Token | undefined;
    let initError: unknown;
    try {
      token = await next();
    } catch (error) {
      initError = error;
    }
    // False when the refused request carried a token that has since been replaced.
    let mustRefresh = true;
    return {
      addAuthToOperation: (operation) => (token ? utils.appendHeaders(operation, { authorization: `Bearer ${token.value}` }) : operation),
      willAuthError: () => {
        const will = initError !== undefined || token === undefined || (token.refreshAt !== undefined && Date.now() >= token.refreshAt);
        if (will) mustRefresh = true;
        return will;
      },
      didAuthError: (error, operation) => {
        if (!isAuthFailure(error)) return false;
        mustRefresh = token === undefined || sentAuthorization(operation) === `Bearer ${token.value}`;
        return true;
      },
      refreshAuth: async () => {
        const failed = initError;
        initError = undefined; // forgotten: the next operation asks again
        if (failed !== undefined) throw failed;
        if (!mustRefresh && token) return;
        token = undefined; // a failed refresh leaves none: the next operation asks again
        token = await next();
      },
    };
  });
}
