import { Client, createRequest, fetchExchange, makeOperation } from '@urql/core';
import type { AnyVariables, GraphQLRequest, OperationContext, TypedDocumentNode } from '@urql/core';
import { retryExchange } from '@urql/exchange-retry';
import { labelkitAuthExchange, makeTokenSource } from './auth.js';
import type { AuthOptions } from './auth.js';
import { LabelkitError, MUTATION_OUTCOME_UNKNOWN_HINT, NetworkError } from './errors.js';
import { newRequestId } from './requestId.js';
import { isTransient, retryAfterMs, toLabelkitError } from './toLabelkitError.js';
import { VERSION } from './version.js';
import { MAX_TIMER_MS } from '../shared/constants.js';

type DocumentNode = GraphQLRequest['query'];

/** True in a web page or a web worker (where fetch follows CORS). */
function inBrowser(): boolean {
  const scope = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return scope.document !== undefined || scope.WorkerGlobalScope !== undefined;
}

/** Retries of queries (mutations are never retried). */
export interface RetryOptions {
  /** Attempts in all, the first included. @defaultValue 4 */
  maxAttempts?: number;
  /** The first back-off delay; later ones grow with jitter. @defaultValue 300 */
  initialDelayMs?: number;
  /** The longest delay; a `Retry-After` beyond it is not waited for. @defaultValue 15_000 */
  maxDelayMs?: number;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call; it rejects with a NetworkError of code `ABORTED`. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call (retries included); `Infinity` for none. */
  timeoutMs?: number;
}

/** What the executor needs from the client's options. */
export interface ExecutorOptions extends AuthOptions {
  url: string;
  timeoutMs?: number;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/** One call: its kind, name, the secrets its variables hold, and its options. */
export interface Call {
  kind: 'query' | 'mutation';
  operationName: string;
  /** Secret values in the variables (e.g. `secretKey`), scrubbed from any error. */
  secrets?: ReadonlyArray<string | undefined>;
  options?: CallOptions | undefined;
}

/** Runs one typed document and resolves with its data, or rejects with a labelkit error. */
export type Execute = <Data, Variables extends AnyVariables>(
  document: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  call: Call,
) => Promise<Data>;

/**
 * Builds the one urql Client of a labelkit client and the function that runs operations on it.
 *
 * @param options - endpoint, credentials, retry and time-out settings
 * @returns `execute`, which sends one operation per call
 * @remarks The exchanges are urql's own: `retryExchange` (queries only, transient failures,
 * exponential back-off with jitter, `Retry-After` honoured), the auth exchange, `fetchExchange`.
 * Each call gets its own operation key: urql shares one request among identical queries in
 * flight, which would send one `x-request-id` for two calls and let one call's teardown stop the
 * other's retries. Documents are keyed (printed) once, here, not per call. Time-out and abort
 * unsubscribe, which makes urql abort the fetch; no wrapper around `fetch` is needed.
 * @example
 * ```ts
 * const execute = createExecutor({ url, token });
 * const data = await execute(GetCabinetDocument, { projectId, role }, { kind: 'query', operationName: 'GetCabinet' });
 * ```
 */
export function createExecutor(options: ExecutorOptions): Execute {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const maxDelayMs = options.retry?.maxDelayMs ?? 15_000;
  // Every secret the client has held, so that no error can echo one (tokens join on refresh).
  const knownSecrets: (string | undefined)[] = [options.token, options.clientCredentials?.clientSecret];
  const tokenSource = makeTokenSource(options, options.url, fetchFn);
  const recordingSource = async () => {
    const token = await tokenSource();
    knownSecrets.push(token.value);
    if (knownSecrets.length > 16) knownSecrets.splice(2, knownSecrets.length - 16);
    return token;
  };
  const baseHeaders: Record<string, string> = {
    ...options.headers,
    'x-labelkit-client': `labelkit/${VERSION}`,
    // Not in a browser: there User-Agent is the browser's, and sending it would add a header to
    // the CORS preflight that servers need not allow (x-labelkit-client always arrives).
    ...(!inBrowser() && { 'user-agent': `labelkit/${VERSION}` }),
  };

  const urql = new Client({
    url: options.url,
    fetch: fetchFn,
    preferGetMethod: false,
    requestPolicy: 'network-only',
    exchanges: [
      retryExchange({
        maxNumberAttempts: options.retry?.maxAttempts ?? 4,
        initialDelayMs: options.retry?.initialDelayMs ?? 300,
        maxDelayMs,
        randomDelay: true,
        retryIf: (error, operation) => operation.kind === 'query' && isTransient(error),
        // Retry-After: seed the exchange's back-off state so that its next delay (the seed times
        // a jitter factor of 1.5–2.5) is at least the server's wish; beyond maxDelayMs, give up.
        retryWith: (error, operation) => {
          const wish = retryAfterMs(error.response);
          if (wish === undefined) return operation;
          if (wish > maxDelayMs) return null;
          const count = (operation.context.retry as { count?: number } | undefined)?.count ?? 0;
          return makeOperation(operation.kind, operation, { ...operation.context, retry: { count, delay: wish / 1.5 } });
        },
      }),
      labelkitAuthExchange(recordingSource),
      fetchExchange,
    ],
  });

  // Negative keys never collide with urql's own (unsigned hashes).
  let nextKey = 0;
  const keyed = new WeakMap<DocumentNode, GraphQLRequest['query']>();
  const keyedDocument = (document: DocumentNode) => {
    let query = keyed.get(document);
    if (!query) keyed.set(document, (query = createRequest(document, {}).query));
    return query;
  };

  return function execute<Data, Variables extends AnyVariables>(
    document: TypedDocumentNode<Data, Variables>,
    variables: Variables,
    call: Call,
  ): Promise<Data> {
    const requestId = newRequestId();
    const timeoutMs = call.options?.timeoutMs ?? defaultTimeout;
    const signal = call.options?.signal;
    const details = { operationName: call.operationName, requestId };
    const where = `(operation ${call.operationName}, request ${requestId})`;
    const unknownOutcome = call.kind === 'mutation';
    const hint = unknownOutcome ? MUTATION_OUTCOME_UNKNOWN_HINT : '';
    if (signal?.aborted) {
      return Promise.reject(new NetworkError('ABORTED', `the call was aborted before it was sent ${where}`, details));
    }
    nextKey = nextKey <= -0x7fffffff ? -1 : nextKey - 1;
    const request = { key: nextKey, query: keyedDocument(document), variables } as GraphQLRequest<Data, Variables>;
    const context: Partial<OperationContext> = { fetchOptions: { headers: { ...baseHeaders, 'x-request-id': requestId } } };
    const operation = urql.createRequestOperation(call.kind, request, context);

    return new Promise<Data>((resolve, reject) => {
      let done = false;
      let subscription: { unsubscribe(): void } | undefined;
      const finish = (error: Error | null, data?: Data) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        subscription?.unsubscribe();
        if (error) reject(error);
        else resolve(data as Data);
      };
      const lost = (code: 'TIMEOUT' | 'ABORTED', text: string) =>
        finish(new NetworkError(code, `${text}${hint} ${where}`, { ...details, mutationOutcomeUnknown: unknownOutcome }));
      const onAbort = () => lost('ABORTED', 'the call was aborted');
      // Infinity (or anything beyond setTimeout's 2^31-1 ms, which Node would run at once) means no limit.
      const timer = timeoutMs < MAX_TIMER_MS ? setTimeout(() => lost('TIMEOUT', `no answer within ${timeoutMs} ms`), timeoutMs) : undefined;
      signal?.addEventListener('abort', onAbort, { once: true });
      subscription = urql.executeRequestOperation(operation).subscribe((result) => {
        if (result.error) {
          const secrets = call.secrets ? [...knownSecrets, ...call.secrets] : knownSecrets;
          finish(toLabelkitError(result.error, { kind: call.kind, operationName: call.operationName, requestId, url: options.url, secrets }));
        } else if (result.data == null) {
          finish(new LabelkitError('GRAPHQL', `[GraphQL] the response had no data ${where}`, details));
        } else finish(null, result.data);
      });
      if (done) subscription.unsubscribe();
    });
  };
}
