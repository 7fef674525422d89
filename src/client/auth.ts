import { authExchange } from '@urql/exchange-auth';
import type { CombinedError, Exchange, Operation } from '@urql/core';
import { AuthError } from './errors.js';

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
}

interface Token {
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

/**
 * Builds the token source that the auth exchange calls (once at start, again on refresh).
 *
 * @param options - the client's auth options
 * @param url - the GraphQL endpoint (the token URL defaults to its origin + /api/oauth/token)
 * @param fetchFn - the fetch to use for the token request
 * @returns a function that obtains a fresh token
 * @throws {@link AuthError} (from the returned function) when no token can be had; the
 * message never holds the client secret or a token
 */
export function makeTokenSource(options: AuthOptions, url: string, fetchFn: typeof fetch): () => Promise<Token> {
  const { token, getToken, clientCredentials } = options;
  if (getToken) {
    return async () => {
      let value: string;
      try {
        value = await getToken();
      } catch (error) {
        throw new AuthError('getToken() failed; no access token', { cause: error });
      }
      if (typeof value !== 'string' || value === '') throw new AuthError('getToken() returned no token');
      return { value };
    };
  }
  if (clientCredentials) {
    const tokenUrl = clientCredentials.tokenUrl ?? new URL('/api/oauth/token', url).toString();
    return async () => {
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientCredentials.clientId,
        client_secret: clientCredentials.clientSecret,
      });
      let response: Response;
      try {
        response = await fetchFn(tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
        });
      } catch (error) {
        throw new AuthError(`the token endpoint ${tokenUrl} could not be reached`, { cause: error });
      }
      if (!response.ok) {
        throw new AuthError(
          `the token endpoint ${tokenUrl} refused the client credentials (HTTP ${response.status}); check the client id and secret`,
          { status: response.status },
        );
      }
      const json = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
      if (!json || typeof json.access_token !== 'string' || json.access_token === '') {
        throw new AuthError(`the token endpoint ${tokenUrl} answered without an access_token`);
      }
      const ttl = typeof json.expires_in === 'number' ? json.expires_in * 1000 : undefined;
      return {
        value: json.access_token,
        ...(ttl !== undefined && { refreshAt: Date.now() + Math.max(ttl - EXPIRY_MARGIN_MS, ttl / 2) }),
      };
    };
  }
  if (typeof token === 'string' && token !== '') return async () => ({ value: token });
  return async () => {
    throw new AuthError('no credentials: pass token, getToken or clientCredentials');
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
 * The auth exchange: adds `Authorization: Bearer`, refreshes before a known expiry and after an
 * auth failure. urql's authExchange keeps one refresh in flight however many operations fail
 * together, and re-sends each failed operation once; a second failure reaches the caller and
 * becomes an {@link AuthError}.
 *
 * @param source - obtains a fresh token (see {@link makeTokenSource})
 * @returns an exchange to place before the transport (`fetchTransport` or urql's `fetchExchange`)
 * @remarks urql only merges refreshes that overlap in time: a failure that arrives after a
 * refresh has finished would start another. So a failure of a request sent with an older token
 * than the current one does not refresh again; the request is simply re-sent with the current
 * token. A mutation refused with 401/Unauthorized was not executed, so re-sending it after a
 * refresh cannot start a second job.
 */
export function labelkitAuthExchange(source: () => Promise<Token>): Exchange {
  return authExchange(async (utils) => {
    // A first failure is kept and thrown from refreshAuth, so that it reaches the caller as an
    // error result (a throwing init function would only be logged by urql).
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
        const will = initError !== undefined || (token?.refreshAt !== undefined && Date.now() >= token.refreshAt);
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
          initError = undefined;
          throw error;
        }
        if (!mustRefresh) return;
        token = await source();
      },
    };
  });
}
