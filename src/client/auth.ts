import { authExchange } from '@urql/exchange-auth';
import type { CombinedError, Exchange, Operation } from '@urql/core';
import { isTransientStatus } from '../shared/classify.js';
import { AuthError, NetworkError } from './errors.js';

/** Client-credentials login, as production issues tokens. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** @defaultValue `{origin of url}/api/oauth/token` */
  tokenUrl?: string;
}

/** Where the access token comes from: exactly one of the three. */
export interface AuthOptions {
  token?: string;
  getToken?: () => string | Promise<string>;
  clientCredentials?: ClientCredentials;
  /**
   * How long one token request (or `getToken()` call) may take; a failed or timed-out one is
   * forgotten, and the next call asks again. @defaultValue 10_000, or half the client's `timeoutMs` when shorter
   */
  tokenTimeoutMs?: number;
}

/** An access token, and when to refresh it. */
export interface Token {
  value: string;
  /** Epoch ms after which the token is refreshed before use; undefined when unknown. */
  refreshAt?: number;
}

/** Seconds before a known expiry at which a token is refreshed. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Tells whether an urql error means "not authenticated".
 *
 * @param error - the CombinedError of a result
 * @returns true for HTTP 401, or production's GraphQL error `Unauthorized` (with
 * `extensions.type` `AuthenticationError`)
 */
export function isAuthFailure(error: CombinedError): boolean {
  const status = (error.response as { status?: number } | undefined)?.status;
  return (
    status === 401 ||
    error.graphQLErrors.some((e) => e.extensions?.type === 'AuthenticationError' || e.message === 'Unauthorized')
  );
}

/** How long a token request may take unless `tokenTimeoutMs` says otherwise (capped by the call time-out). */
export const DEFAULT_TOKEN_TIMEOUT_MS = 10_000;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Rejects with `onTimeout()` when `work` has not settled within `ms`; `work` gets a signal that aborts then. */
async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>, onTimeout: () => Error): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(onTimeout());
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Builds the token source that the auth exchange calls (before the first call, and again on
 * refresh).
 *
 * @param options - the client's auth options
 * @param url - the GraphQL endpoint (the token URL defaults to its origin + /api/oauth/token)
 * @param fetchFn - the fetch to use for the token request
 * @param timeoutMs - how long one token request (or `getToken()` call) may take
 * @returns a function that obtains a fresh token
 * @throws (from the returned function) an {@link AuthError} with `phase: 'token'` when the
 * credentials are refused or `getToken` fails, or a {@link NetworkError} with `phase: 'token'`
 * when the token endpoint cannot be reached, times out or answers 408/429/5xx (a fault of the
 * token endpoint, not of the credentials). Messages name the token endpoint and hold no secret.
 */
export function makeTokenSource(options: AuthOptions, url: string, fetchFn: typeof fetch, timeoutMs = DEFAULT_TOKEN_TIMEOUT_MS): () => Promise<Token> {
  const { token, getToken, clientCredentials } = options;
  const phase = 'token' as const;
  if (getToken) {
    return async () => {
      let value: string;
      try {
        value = await withTimeout(timeoutMs, async () => getToken(), () =>
          new NetworkError('TIMEOUT', `getToken() did not return a token within ${timeoutMs} ms`, { phase }),
        );
      } catch (error) {
        if (error instanceof NetworkError) throw error;
        throw new AuthError('getToken() failed; no access token', { cause: error, phase });
      }
      if (typeof value !== 'string' || value === '') throw new AuthError('getToken() returned no token', { phase });
      return { value };
    };
  }
  if (clientCredentials) {
    const tokenUrl = clientCredentials.tokenUrl ?? new URL('/api/oauth/token', url).toString();
    const secrets = [clientCredentials.clientSecret];
    return () =>
      withTimeout(
        timeoutMs,
        async (signal) => {
          const body = new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientCredentials.clientId,
            client_secret: clientCredentials.clientSecret,
          });
          let response: Response;
          let text: string;
          try {
            response = await fetchFn(tokenUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
              body,
              signal,
            });
            text = await response.text();
          } catch (error) {
            throw new NetworkError('NETWORK', `the token endpoint ${tokenUrl} could not be reached`, { cause: error, phase, secrets });
          }
          const status = response.status;
          if (isTransientStatus(status)) {
            throw new NetworkError('NETWORK', `the token endpoint ${tokenUrl} answered HTTP ${status}`, { status, phase, secrets, cause: text });
          }
          if (!response.ok) {
            const refused = status === 400 || status === 401 || status === 403;
            throw new AuthError(
              refused
                ? `the token endpoint ${tokenUrl} refused the client credentials (HTTP ${status}); check the client id and secret`
                : `the token endpoint ${tokenUrl} answered HTTP ${status}; check the token URL`,
              { status, phase, secrets },
            );
          }
          const json = parseJson(text) as { access_token?: unknown; expires_in?: unknown } | null;
          if (!json || typeof json.access_token !== 'string' || json.access_token === '') {
            throw new AuthError(`the token endpoint ${tokenUrl} answered without an access_token`, { phase, secrets });
          }
          const ttl = typeof json.expires_in === 'number' ? json.expires_in * 1000 : undefined;
          return {
            value: json.access_token,
            ...(ttl !== undefined && { refreshAt: Date.now() + Math.max(ttl - EXPIRY_MARGIN_MS, ttl / 2) }),
          };
        },
        () => new NetworkError('TIMEOUT', `the token endpoint ${tokenUrl} did not answer within ${timeoutMs} ms`, { phase }),
      );
  }
  if (typeof token === 'string' && token !== '') return async () => ({ value: token });
  return async () => {
    throw new AuthError('no credentials: pass token, getToken or clientCredentials', { phase });
  };
}

/** The `Authorization` header an operation was sent with, if any. */
function sentAuthorization(operation: Operation): string | undefined {
  const fetchOptions = operation.context.fetchOptions;
  const options = typeof fetchOptions === 'function' ? fetchOptions() : fetchOptions;
  const headers = options?.headers as Record<string, string> | undefined;
  return headers?.authorization;
}

/**
 * The auth exchange: adds `Authorization: Bearer`, fetches a token before the first call,
 * refreshes before a known expiry and after an auth failure. urql's authExchange keeps one
 * refresh in flight however many operations wait for it, and re-sends each failed operation
 * once; a second failure reaches the caller and becomes an {@link AuthError}.
 *
 * @param source - obtains a fresh token (see {@link makeTokenSource}); it has its own time-out
 * @returns an exchange to place before the transport
 * @remarks No operation is sent without a token: while there is none (at start, or after a failed
 * token request, which is forgotten), `willAuthError` holds each operation until a token request
 * succeeds, and a failed request fails the operations that waited for it. urql only merges
 * refreshes that overlap in time: a failure that arrives after a refresh has finished would
 * start another. So a failure of a request sent with an older token than the current one does
 * not refresh again; the request is simply re-sent with the current token. A mutation refused
 * with 401/Unauthorized was not executed, so re-sending it after a refresh cannot start a second job.
 */
export function labelkitAuthExchange(source: () => Promise<Token>): Exchange {
  return authExchange(async (utils) => {
    // The first token request (it has its own time-out: urql holds every operation until this
    // function returns). A failure is kept and thrown from refreshAuth, so that it reaches the
    // waiting operations as an error result (a throwing init function would only be logged by urql).
    let token: Token | undefined;
    let initError: unknown;
    try {
      token = await source();
    } catch (error) {
      initError = error;
    }
    // Set just before urql calls refreshAuth: false when the failed request carried a token that
    // has since been replaced, so that the current token is tried before fetching another.
    let mustRefresh = true;
    return {
      addAuthToOperation: (operation) =>
        token ? utils.appendHeaders(operation, { authorization: `Bearer ${token.value}` }) : operation,
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
        if (initError !== undefined) {
          const error = initError;
          initError = undefined; // forgotten: the next operation asks again
          throw error;
        }
        if (!mustRefresh && token) return;
        try {
          token = await source();
        } catch (error) {
          token = undefined; // forgotten: the next operation asks again (never sent without a token)
          throw error;
        }
      },
    };
  });
}
