import { authExchange } from '@urql/exchange-auth';
import type { Exchange } from '@urql/core';
import { isTransientStatus } from '../shared/classify.js';
import { isRecord } from '../shared/isRecord.js';
import { checkId, checkNumber, type Problem } from '../shared/problem.js';
import { AuthError, NetworkError } from './errors.js';
import { fetchOptionsOf, jsonOf } from './transport.js';
import type { AuthContext, AuthSource } from './options.js';
import { isHeaderToken, NOT_A_HEADER_TOKEN } from './headerToken.js';
import { backoffDelays, pause } from './retryPolicy.js';
import { isAuthFailure, isTransientError } from './failures.js';

/** How long obtaining one token may take (both factories take it). */
export interface TokenTimeoutOptions {
  /**
   * How long one token request (or `getToken()` call) may take; a failed or timed-out one is
   * forgotten, and the next call asks again. @defaultValue 10_000, or half the client's `timeoutMs` when shorter
   */
  tokenTimeoutMs?: number | undefined;
}

/** Client-credentials login, as production issues tokens (see {@link clientCredentials}). */
export interface ClientCredentials extends TokenTimeoutOptions {
  clientId: string;
  clientSecret: string;
  /** @defaultValue `{origin of url}/api/oauth/token` */
  tokenUrl?: string | undefined;
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
 * the token phase, `{noAnswer} within {ms} ms`.
 */
async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>, noAnswer: string): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new NetworkError('TIMEOUT', `${noAnswer} within ${ms} ms`, { phase })), ms)));
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
  if (isTransientStatus(status)) throw new NetworkError('NETWORK', `the token endpoint ${tokenUrl} answered HTTP ${status}`, { status, phase, secrets, cause: text });
  if (!response.ok) {
    const refused = status === 400 || status === 401 || status === 403;
    const why = refused ? 'refused the client credentials' : 'answered';
    const hint = refused ? 'check the client id and secret' : 'check the token URL';
    throw new AuthError(`the token endpoint ${tokenUrl} ${why} (HTTP ${status}); ${hint}`, { status, phase, secrets });
  }
  const json = jsonOf(text);
  if (!isRecord(json) || typeof json.access_token !== 'string' || json.access_token === '') {
    throw new AuthError(`the token endpoint ${tokenUrl} answered without an access_token`, { phase, secrets });
  }
  if (!isHeaderToken(json.access_token)) {
    throw new AuthError(`the access_token of the token endpoint ${tokenUrl} ${NOT_A_HEADER_TOKEN}`, { phase, secrets: [...secrets, json.access_token] });
  }
  const ttl = typeof json.expires_in === 'number' ? json.expires_in * 1000 : undefined;
  return { value: json.access_token, ...(ttl !== undefined && { refreshAt: Date.now() + Math.max(ttl - EXPIRY_MARGIN_MS, ttl / 2) }) };
}

/** Checks `tokenTimeoutMs`: absent, or a number ≥ 1. */
const timeoutProblems = (value: unknown): Problem[] => checkNumber(value, 'options.auth.tokenTimeoutMs', 1);

/** The time-out of one token request: the factory's, else at most half the client's call time-out. */
const tokenTimeout = (given: number | undefined, context: AuthContext) => given ?? Math.min(DEFAULT_TOKEN_TIMEOUT_MS, context.timeoutMs / 2);

/** An {@link AuthSource} whose exchange is urql's `authExchange` fed by `next`, each token told to the client. */
function sourceOf(problems: Problem[], secrets: string[], makeNext: (context: AuthContext) => () => Promise<Token>): AuthSource {
  const exchange = (context: AuthContext) => {
    const next = makeNext(context);
    return labelkitAuthExchange(async () => {
      const token = await next();
      context.onToken(token.value);
      return token;
    });
  };
  // `secrets` is not enumerable: an app that logs its options (console.log, JSON) does not print the client secret.
  return Object.defineProperty({ problems, secrets, exchange }, 'secrets', { enumerable: false });
}

/**
 * Access tokens from a function of yours (a vault, a login flow), refreshed through urql's
 * `authExchange`: pass it as `createLabelingClient`'s `auth`.
 *
 * @param getToken - returns (or resolves with) a fresh access token; called for the first token,
 * before a known expiry, and after the service refuses a token
 * @param options - `tokenTimeoutMs`, how long one call may take
 * @returns the source of tokens for `auth`
 * @remarks Importing this factory is what brings the refresh machinery (`@urql/exchange-auth`)
 * into an app: an app with a static `token` never ships it. A failing or hung `getToken()` rejects
 * the call with an {@link AuthError} (or a `TIMEOUT` {@link NetworkError}) of `phase: 'token'`,
 * and is asked again by the next call. A token that cannot go into a header is refused, unquoted.
 * A `getToken` that is not a function is a problem of `createLabelingClient`'s options.
 * @example
 * ```ts
 * import { createLabelingClient, refreshingToken } from 'labelkit';
 * const client = createLabelingClient({ url, auth: refreshingToken(() => vault.read('labelkit-token')) });
 * ```
 */
export function refreshingToken(getToken: () => string | Promise<string>, options: TokenTimeoutOptions = {}): AuthSource {
  const problems: Problem[] = [
    ...(typeof getToken === 'function' ? [] : [{ path: 'options.auth.getToken', message: 'must be a function returning the access token' }]),
    ...timeoutProblems(options.tokenTimeoutMs),
  ];
  return sourceOf(problems, [], (context) => {
    const timeoutMs = tokenTimeout(options.tokenTimeoutMs, context);
    const call = () => (async () => getToken())().catch((error: unknown) => {
      throw new AuthError('getToken() failed; no access token', { cause: error, phase });
    });
    return async () => {
      const value = await withTimeout(timeoutMs, call, 'getToken() did not return a token');
      if (typeof value !== 'string' || value === '') throw new AuthError('getToken() returned no token', { phase });
      if (!isHeaderToken(value)) throw new AuthError(`getToken() returned a token that ${NOT_A_HEADER_TOKEN}`, { phase, secrets: [value] });
      return { value };
    };
  });
}

/**
 * Access tokens from the service's token endpoint (OAuth 2.0 client-credentials grant, as
 * production issues them), refreshed through urql's `authExchange`: pass it as
 * `createLabelingClient`'s `auth`.
 *
 * @param credentials - `clientId`, `clientSecret`, `tokenUrl` (default `/api/oauth/token` on the
 * endpoint's origin) and `tokenTimeoutMs`
 * @returns the source of tokens for `auth`
 * @remarks Importing this factory is what brings the refresh machinery into an app. Each token
 * request has its own time-out. A transient failure of the token endpoint (no answer, 408, 429,
 * 5xx, a time-out) is retried with the client's back-off, since nothing was sent to the service
 * yet; wrong credentials are not (an {@link AuthError} of `phase: 'token'` naming the endpoint).
 * A token is refreshed before its `expires_in`, and after the service refuses one. The secret is
 * redacted from every error; an empty id or secret is a problem of `createLabelingClient`'s options.
 * @example
 * ```ts
 * import { clientCredentials, createLabelingClient } from 'labelkit';
 * const client = createLabelingClient({ url, auth: clientCredentials({ clientId: 'CLIENT_ID', clientSecret: process.env.CLIENT_SECRET! }) });
 * ```
 */
export function clientCredentials(credentials: ClientCredentials): AuthSource {
  const given: Partial<ClientCredentials> = isRecord(credentials) ? credentials : {};
  const problems = [...checkId(given.clientId, 'options.auth.clientId'), ...checkId(given.clientSecret, 'options.auth.clientSecret'), ...timeoutProblems(given.tokenTimeoutMs)];
  return sourceOf(problems, typeof given.clientSecret === 'string' ? [given.clientSecret] : [], (context) => {
    const tokenUrl = credentials.tokenUrl ?? new URL('/api/oauth/token', context.url).toString();
    const timeoutMs = tokenTimeout(credentials.tokenTimeoutMs, context);
    const noAnswer = `the token endpoint ${tokenUrl} did not answer`;
    const once = () => withTimeout(timeoutMs, (timeout) => requestToken(credentials, tokenUrl, context.fetch, timeout), noAnswer);
    const { signal } = context;
    return async () => {
      for (const delays = backoffDelays(context.backoff); ; ) {
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
  });
}

/**
 * urql's `authExchange`, configured to add `Authorization: Bearer <token>` from a token source.
 *
 * @param next - obtains a fresh token (see {@link refreshingToken}, {@link clientCredentials})
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
    let initError: unknown;
    let token = await next().catch((error: unknown) => {
      initError = error;
      return undefined;
    });
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
        mustRefresh = token === undefined || (fetchOptionsOf(operation)?.headers as Record<string, string> | undefined)?.authorization === `Bearer ${token.value}`;
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
