import { getIntrospectionQuery } from 'graphql';
import type { IntrospectionQuery } from 'graphql';
import { LabelkitError } from 'labelkit';
import type { ErrorCode } from 'labelkit';
import { classifyFailure } from '../../../shared/classify.js';
import { VERSION } from '../../../shared/constants.js';
import type { Connection } from '../../connection.js';

/** Time-out of one request, as the client's default per call. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Attempts of the introspection query after transient failures, as the client's default. */
const DEFAULT_ATTEMPTS = 4;

interface Answer {
  status: number;
  text: string;
}

const fail = (code: ErrorCode, message: string, connection: Connection, details: { status?: number; phase?: 'token'; cause?: unknown } = {}) =>
  new LabelkitError(code, message, { operationName: 'IntrospectionQuery', secrets: connection.secrets, ...details });

async function post(url: string, init: RequestInit, signal: AbortSignal, what: string, connection: Connection, phase?: 'token'): Promise<Answer> {
  try {
    const response = await fetch(url, { ...init, method: 'POST', signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    const details = { cause: error, ...(phase && { phase }) };
    if (signal.aborted) throw fail('ABORTED', `[Network] ${what} was interrupted`, connection, details);
    if ((error as Error).name === 'TimeoutError') throw fail('TIMEOUT', `[Network] ${what} did not answer within ${REQUEST_TIMEOUT_MS} ms`, connection, details);
    throw fail('NETWORK', `[Network] ${what} could not be reached`, connection, details);
  }
}

/** The access token of the connection: the one given, or one from the token endpoint. */
async function accessToken(connection: Connection, signal: AbortSignal): Promise<string> {
  if (connection.auth.token !== undefined) return connection.auth.token;
  const { clientId, clientSecret, tokenUrl = new URL('/api/oauth/token', connection.url).toString() } = connection.auth.clientCredentials!;
  const what = `the token endpoint ${tokenUrl}`;
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  const answer = await post(tokenUrl, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }, signal, what, connection, 'token');
  const details = { status: answer.status, phase: 'token' as const };
  if (answer.status !== 200) {
    const kind = classifyFailure({ status: answer.status });
    if (kind === 'transient') throw fail('NETWORK', `[Network] ${what} answered HTTP ${answer.status}`, connection, details);
    throw fail('AUTH', `[Auth] ${what} refused the client credentials (HTTP ${answer.status}); check the client id and secret`, connection, details);
  }
  let token: unknown;
  try {
    token = (JSON.parse(answer.text) as { access_token?: unknown }).access_token;
  } catch {
    // not JSON: reported below as an answer without a token
  }
  if (typeof token !== 'string' || token === '') throw fail('AUTH', `[Auth] ${what} answered without an access_token`, connection, details);
  return token;
}

/** Whether a GraphQL error says the token was refused (as production and the emulator say it). */
const isUnauthorized = (e: { message?: unknown; extensions?: { type?: unknown; code?: unknown } }) =>
  e.message === 'Unauthorized' || e.extensions?.type === 'AuthenticationError' || e.extensions?.code === 'UNAUTHENTICATED';

/** One introspection request; throws a labelkit error, `transient` set when another attempt may help. */
async function introspectOnce(connection: Connection, token: string, signal: AbortSignal): Promise<IntrospectionQuery> {
  const what = `the service at ${connection.url}`;
  const answer = await post(
    connection.url,
    {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-labelkit-client': `labelkit-tools/${VERSION}` },
      body: JSON.stringify({ operationName: 'IntrospectionQuery', query: getIntrospectionQuery(), variables: {} }),
    },
    signal,
    what,
    connection,
  );
  const secrets = { ...connection, secrets: [...connection.secrets, token] };
  const kind = answer.status === 200 ? undefined : classifyFailure({ status: answer.status });
  let body: { data?: { __schema?: { types?: unknown } } | null; errors?: { message?: unknown; extensions?: { type?: unknown; code?: unknown } }[] } | undefined;
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    // not JSON: judged by the status below
  }
  const errors = Array.isArray(body?.errors) ? body.errors : [];
  if (answer.status === 401 || errors.some(isUnauthorized)) throw fail('AUTH', `[Auth] ${what} refused the access token`, secrets, { status: answer.status });
  if (kind === 'transient') throw fail('NETWORK', `[Network] ${what} answered HTTP ${answer.status}`, secrets, { status: answer.status });
  if (errors.length > 0) throw fail('GRAPHQL', `[GraphQL] ${errors.map((e) => String(e.message)).join('; ')}`, secrets, { status: answer.status });
  if (kind !== undefined) throw fail('NETWORK', `[Network] ${what} answered HTTP ${answer.status}`, secrets, { status: answer.status });
  if (!Array.isArray(body?.data?.__schema?.types)) throw fail('BAD_RESPONSE', `[Protocol] ${what} answered without data.__schema.types`, secrets, { status: answer.status });
  return body.data as unknown as IntrospectionQuery;
}

/** Waits `ms`, or less when `signal` aborts (the next attempt then ends at once with `ABORTED`). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Reads the service's schema by introspection, with the connection's credentials.
 *
 * @param connection - the resolved connection (URL, token or client credentials, secrets)
 * @param signal - aborted on Ctrl-C
 * @returns the introspection result (`__schema`)
 * @throws a labelkit error (`AUTH`, `NETWORK`, `TIMEOUT`, `ABORTED`, `GRAPHQL`, `BAD_RESPONSE`;
 * `phase: 'token'` while obtaining a token), its message redacted of every secret of the connection
 * @remarks The CLI uses the client through its public entry only, which sends only the service's
 * own operations; introspection is one POST of its own. It follows the client's rules: one token
 * from the token endpoint for client credentials, a 30 s time-out per request, and up to
 * `--retries` more attempts (default 3) after a transient failure (no answer, 408, 429, 5xx), with
 * a back-off of 300 ms doubling; an auth failure or any other answer ends it at once.
 * @example
 * ```ts
 * const data = await introspect(connection, context.signal);
 * const service = buildClientSchema(data);
 * ```
 */
export async function introspect(connection: Connection, signal: AbortSignal): Promise<IntrospectionQuery> {
  const token = await accessToken(connection, signal);
  const attempts = connection.retry?.maxAttempts ?? DEFAULT_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await introspectOnce(connection, token, signal);
    } catch (error) {
      const code = (error as LabelkitError).code;
      const status = (error as LabelkitError).status;
      const transient = (code === 'NETWORK' || code === 'TIMEOUT') && (status === undefined || classifyFailure({ status }) === 'transient');
      if (!transient || attempt >= attempts) throw error;
      await pause(300 * 2 ** (attempt - 1), signal);
    }
  }
}
