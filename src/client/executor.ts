import { Client, createRequest, getOperationName, makeErrorResult, makeOperation, makeResult, stringifyDocument } from '@urql/core';
import type { AnyVariables, Exchange, ExecutionResult, Operation, OperationResult } from '@urql/core';
import { retryExchange } from '@urql/exchange-retry';
import { filter, fromPromise, makeSubject, merge, mergeMap, onEnd, onPush, pipe, share, take, takeUntil, toPromise } from 'wonka';
import { MAX_TIMER_MS } from '../shared/constants.js';
import { AuthError, MUTATION_OUTCOME_UNKNOWN_HINT, NetworkError, ProtocolError, ValidationError } from './errors.js';
import { redactUrl, secretsIn, urlSecrets } from '../shared/redact.js';
import { inBrowser } from './inBrowser.js';
import { newRequestId } from './requestId.js';
import { pause, retrySettings } from './retryPolicy.js';
import type { RetryOptions } from './retryPolicy.js';
import type { Problem } from '../shared/problem.js';
import type { TypedDocumentNode } from './typedDocument.js';
import { HttpStatusError, isRetryable, responseOf, retryAfterMs, toLabelkitError } from './toLabelkitError.js';
import { VERSION } from './version.js';

export type { RetryOptions } from './retryPolicy.js';

/**
 * What a credential factory (`clientCredentials`, `refreshingToken` of `labelkit`) gives
 * `createLabelingClient`'s `auth`: the source of tokens that are obtained, and refreshed, through
 * urql's `authExchange`. A static `token` needs none of it, so an app that never imports a factory
 * never ships the refresh machinery.
 */
export interface AuthSource {
  /** What is wrong with the factory's input (paths under `options.auth`), reported with the client's options, all at once. */
  readonly problems: readonly Problem[];
  /** Secret values the source holds (a client secret): never in an error. */
  readonly secrets: readonly string[];
  /**
   * Builds the auth exchange of one client.
   * @param context - the client's endpoint, fetch, retry settings, call time-out and close signal,
   * and `onToken`, told each new token (so that no error can echo it)
   */
  readonly exchange: (context: AuthContext) => Exchange;
}

/** What a client gives its {@link AuthSource} when it is made. */
export interface AuthContext {
  url: string;
  /** The fetch the client calls: its `fetch` option, else the global one. */
  fetch: typeof fetch;
  /** The client's `retry` option: the token endpoint's back-off follows it. */
  backoff: RetryOptions | undefined;
  /** The client's call time-out, in ms. */
  timeoutMs: number;
  /** Aborts when the client is closed. */
  signal: AbortSignal;
  /** Told each token obtained. */
  onToken: (value: string) => void;
}

/** What the executor needs of the client's options: all but the helpers' own (see `LabelingClientOptions`). */
export interface ExecutorOptions {
  /** The GraphQL endpoint, e.g. `https://…/graphql` or the emulator's `http://127.0.0.1:4000/graphql`. */
  url: string;
  /** A static access token, sent as `Authorization: Bearer <token>` (a refused one is not refreshed). */
  token?: string | undefined;
  /**
   * Tokens that are obtained and refreshed, from `clientCredentials({ clientId, clientSecret })`
   * or `refreshingToken(getToken)`; importing either is what brings urql's `authExchange`.
   */
  auth?: AuthSource | undefined;
  /** Time-out of one call, retries included. @defaultValue 30_000 */
  timeoutMs?: number | undefined;
  retry?: RetryOptions | undefined;
  /** The fetch to use. @defaultValue globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Extra headers for every request. */
  headers?: Record<string, string> | undefined;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call; it rejects with a NetworkError of code `ABORTED`. */
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call (retries included); `Infinity` for none. */
  timeoutMs?: number | undefined;
}

/** What a helper adds to a call of `request`; a call of an importer's own adds nothing. */
export interface CallExtras {
  /**
   * What a mutation of unknown outcome tells the caller to do, appended to the error's message.
   * @defaultValue MUTATION_OUTCOME_UNKNOWN_HINT (a job may have started)
   */
  outcomeHint?: string;
  /**
   * What the answer must hold besides the fields the document selects (e.g. one job per id
   * asked): returns what is wrong, or undefined. A problem rejects with code `BAD_RESPONSE`.
   */
  check?: (data: never) => string | undefined;
}

/** The key under which a helper hands {@link CallExtras} to `request` in the call's options (not enumerable, not part of {@link CallOptions}). */
const CALL_EXTRAS = Symbol('labelkit.callExtras');

/**
 * A call's options carrying what a helper adds to `request` (a client that is not labelkit's ignores it).
 *
 * @param options - the caller's options (left unchanged)
 * @param extras - the answer check and the outcome hint
 * @returns a copy of the options with the extras
 * @example
 * ```ts
 * await client.request(GetJobsDocument, { jobIds }, withExtras(options, { check: (d) => … }));
 * ```
 */
export function withExtras<T extends object>(options: T | undefined, extras: CallExtras): T {
  return Object.defineProperty({ ...options }, CALL_EXTRAS, { value: extras }) as T;
}

/** The parts of a document's nodes that {@link answerProblem} reads (graphql-js's and graphql.web's nodes fit). */
interface Node {
  readonly kind: string;
  readonly operation?: string;
  readonly name?: { readonly value: string } | undefined;
  readonly alias?: { readonly value: string } | undefined;
  readonly typeCondition?: { readonly name: { readonly value: string } } | undefined;
  readonly selectionSet?: { readonly selections: readonly Node[] } | undefined;
}

/**
 * Where an answer misses the selection that asked for it, or undefined: every field selected
 * (aliases as keys, fragments included) is present, an object wherever sub-fields are asked (in
 * lists too). `null` passes (the schema decides nullability, and sends an error for a non-null
 * field it cannot give). A fragment whose type condition names another `__typename` than the
 * object's is skipped; select `__typename` where a union or interface is asked. A fragment spread
 * already being read on this object is not read again (a cycle ends the reading). The path is
 * built only for a miss, so a good answer costs one pass and no strings.
 */
function missing(value: unknown, selections: readonly Node[], fragments: ReadonlyMap<string, Node>, seen: ReadonlySet<string> = new Set()): { path: (string | number)[]; lacks: boolean } | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const miss = missing(value[i], selections, fragments);
      if (miss) return (miss.path.unshift(i), miss);
    }
    return undefined;
  }
  if (value === null) return undefined;
  if (typeof value !== 'object') return { path: [], lacks: false };
  const object = value as Record<string, unknown>;
  for (const node of selections) {
    const name = node.name?.value ?? '';
    if (node.kind === 'Field') {
      const key = node.alias?.value ?? name;
      if (object[key] === undefined) return { path: [key], lacks: true };
      const miss = node.selectionSet && missing(object[key], node.selectionSet.selections, fragments);
      if (miss) return (miss.path.unshift(key), miss);
      continue;
    }
    const spread = node.kind === 'FragmentSpread';
    const fragment = spread ? (seen.has(name) ? undefined : fragments.get(name)) : node;
    const type = fragment?.typeCondition?.name.value;
    if (!fragment?.selectionSet || (type !== undefined && typeof object.__typename === 'string' && object.__typename !== type)) continue;
    const miss = missing(object, fragment.selectionSet.selections, fragments, spread ? new Set([...seen, name]) : seen);
    if (miss) return miss;
  }
  return undefined;
}

/** What is missing from an answer, in words (`the answer's data lacks getJobs[0].progress`), or undefined. */
function answerProblem(data: unknown, operation: Node | undefined, fragments: ReadonlyMap<string, Node>): string | undefined {
  const miss = missing(data, operation?.selectionSet?.selections ?? [], fragments);
  if (!miss) return undefined;
  const at = miss.path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
  return miss.lacks ? `the answer's data lacks ${at}` : `${at || 'data'} is not an object`;
}

const operations = new WeakMap<object, { kind: string | undefined; operationName: string; problem: (data: unknown) => string | undefined }>();

/**
 * The operation of a document, read once per document object.
 *
 * @param document - a typed document (one query or mutation, and its fragments)
 * @returns its kind (`query`, `mutation`, …), its name (`anonymous` without one) and the answer check
 * @example
 * ```ts
 * operationOf(GetCabinetDocument).operationName; // 'GetCabinet'
 * ```
 */
export function operationOf(document: { readonly definitions: readonly Node[] }) {
  const known = operations.get(document);
  if (known) return known;
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition');
  const fragments = new Map(document.definitions.filter((d) => d.kind === 'FragmentDefinition').map((d) => [d.name?.value ?? '', d]));
  const found = { kind: operation?.operation, operationName: operation?.name?.value ?? 'anonymous', problem: (data: unknown) => answerProblem(data, operation, fragments) };
  operations.set(document, found);
  return found;
}

/** The most bytes of an error answer's body that are read. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Reads at most `max` bytes of a body as text, then cancels the rest. */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let size = 0; size < max; ) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value.subarray(0, max - size), { stream: true });
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text;
}

/**
 * A body's JSON, or undefined when it is not JSON.
 *
 * @param text - the body
 * @returns the parsed value
 */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The fetch options an operation is sent with (urql's context holds them, or a function making them).
 *
 * @param operation - an urql operation
 * @returns its `fetchOptions`, or undefined
 */
export const fetchOptionsOf = ({ context: { fetchOptions } }: Operation): RequestInit | undefined => (typeof fetchOptions === 'function' ? fetchOptions() : fetchOptions);

/**
 * The fetch `postExchange` is given: it refuses a request without `Authorization` (nothing is ever sent
 * without a token), and it reads at most {@link MAX_ERROR_BODY_BYTES} of an error answer. A non-2xx
 * answer with GraphQL errors goes on to urql as it came; any other rejects with an
 * {@link HttpStatusError} (the status decides, not the body: `{"data":null}` with 503 is a failure).
 *
 * @param fetchFn - the fetch to wrap
 * @returns a fetch with the same signature
 */
export function guardedFetch(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    // postExchange passes its headers as a plain object with lower-case names; anything else is read through Headers.
    const given = init?.headers;
    const authorized = given && given.constructor === Object ? 'authorization' in given : new Headers(given).has('authorization');
    if (!authorized) throw new AuthError('no access token; the request was not sent', { phase: 'token' });
    const response = await fetchFn(input, init);
    if (response.ok) return response;
    const { status, statusText, headers } = response;
    const text = await readCapped(response, MAX_ERROR_BODY_BYTES);
    const errors = (jsonOf(text) as { errors?: unknown } | null | undefined)?.errors;
    if (Array.isArray(errors) && errors.length > 0) return new Response(text, { status, statusText, headers });
    throw new HttpStatusError(new Response(null, { status, statusText, headers }), text);
  };
}

/** Sends one operation as a JSON POST and reads its one JSON answer; a failure becomes urql's error result. */
async function post(fetchFn: typeof fetch, operation: Operation, signal: AbortSignal): Promise<OperationResult> {
  let response: Response | undefined;
  try {
    const given = fetchOptionsOf(operation);
    const { query, variables, extensions } = operation;
    const body = JSON.stringify({ operationName: getOperationName(query), query: stringifyDocument(query), variables, extensions });
    const headers = { accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json', ...given?.headers };
    response = await fetchFn(operation.context.url, { ...given, method: 'POST', body, headers, signal });
    const text = await response.text();
    const json = jsonOf(text);
    // A body that is not JSON rejects with its text, as urql's fetch does (the cause keeps its start).
    if (json === undefined) throw new Error(text);
    return makeResult(operation, json as ExecutionResult, response);
  } catch (error) {
    return makeErrorResult(operation, error as Error, response);
  }
}

/** Context key of the least delay a retry must wait (a server's `Retry-After`). */
const RETRY_AFTER = 'labelkitRetryAfterMs';

/** The operations {@link postExchange} sends; the rest (teardowns) go on. */
const isSent = (operation: Operation) => operation.kind === 'query' || operation.kind === 'mutation';

/**
 * Sends queries and mutations: urql's `fetchExchange` cut to what the service speaks (one JSON
 * answer to a POST; no GET, no multipart or event-stream answers, no uploads), written against
 * urql's exchange API. A retry the service asked to come back later (`Retry-After`, which the retry
 * rule puts in the operation's context) waits first. A fetch (or that wait) is aborted only when
 * its operation is torn down before the answer: urql's own aborts every request after its answer,
 * which costs each request about a tenth.
 *
 * @param fetchFn - the (guarded) fetch
 * @returns the last exchange of the client
 */
function postExchange(fetchFn: typeof fetch): Exchange {
  return ({ forward }) => (operations$) => {
    const shared$ = share(operations$);
    const send = (operation: Operation) => {
      const controller = new AbortController();
      const { signal } = controller;
      let answered = false;
      // A retry the service asked to come back later (`Retry-After`, put in the context by the retry rule) waits first.
      const wait = operation.context[RETRY_AFTER] as number | undefined;
      const teardown$ = pipe(shared$, filter((o) => o.kind === 'teardown' && o.key === operation.key));
      const answer = wait ? pause(wait, signal).then(() => post(fetchFn, operation, signal)) : post(fetchFn, operation, signal);
      return pipe(fromPromise(answer), onPush(() => (answered = true)), onEnd(() => answered || controller.abort()), takeUntil(teardown$));
    };
    return merge([pipe(shared$, filter(isSent), mergeMap(send)), forward(pipe(shared$, filter((operation) => !isSent(operation))))]);
  };
}

/**
 * Builds the one urql Client of a labelkit client and the function that runs operations on it.
 *
 * @param options - endpoint, credentials, retry and time-out settings
 * @returns `execute`, which sends one operation per call, `close`, and `closed`, the signal close() aborts
 * @remarks urql's `Client` with its `retryExchange` (queries only, on the rule of
 * `isRetryable`, honouring `Retry-After` up to `maxDelayMs`: `postExchange` holds the retry back)
 * and, for a token from an {@link AuthSource}, the exchange it builds (urql's `authExchange`; a
 * static token is a header of every request), and `postExchange` with a guarded fetch. Each call is urql's result source, ended early by its time-out, its signal or close()
 * (`takeUntil`: urql then tears the operation down, which aborts the fetch and stops retries), and
 * read with `toPromise`. Identical queries in flight at the same moment share one request, as urql
 * deduplicates them. A result is converted once: to its data, or to one labelkit error.
 * @example
 * ```ts
 * const { execute } = createExecutor({ url, token });
 * const data = await execute(GetCabinetDocument, { projectId, role }, { timeoutMs: 5_000 });
 * ```
 */
export function createExecutor(options: ExecutorOptions) {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const retry = retrySettings(options.retry);
  const closing = new AbortController();
  // Every secret the client has held, so that no error can echo one (tokens join on refresh).
  // The URL's query values are secrets too (an API key under any name), and the URL is shown without them.
  const knownSecrets: (string | undefined)[] = [options.token, ...(options.auth?.secrets ?? []), ...urlSecrets(options.url, { everyQueryValue: true })];
  const shownUrl = redactUrl(options.url, { everyQueryValue: true });
  const kept = knownSecrets.length;
  const baseHeaders: Record<string, string> = {
    // Lower-case names, as urql's own fetch sends them (the guarded fetch looks for `authorization`).
    ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    'x-labelkit-client': `labelkit/${VERSION}`,
    // In a browser User-Agent is the browser's: sending it would add a header to the CORS preflight.
    ...(!inBrowser() && { 'user-agent': `labelkit/${VERSION}` }),
    // A static token is a header: there is nothing to refresh, so a refused one is not sent again.
    ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
  };
  // Tokens from an auth source (getToken, client credentials) come, and are refreshed, through urql's authExchange; the last 14 are redacted.
  const onToken = (value: string) => knownSecrets.push(value) > kept + 14 && knownSecrets.splice(kept, 1);
  const auth = options.auth?.exchange({ url: options.url, fetch: fetchFn, backoff: options.retry, timeoutMs: defaultTimeout, signal: closing.signal, onToken });
  const urql = new Client({
    url: options.url,
    requestPolicy: 'network-only',
    exchanges: [
      retryExchange({
        maxNumberAttempts: retry.maxAttempts, initialDelayMs: retry.initialDelayMs, maxDelayMs: retry.maxDelayMs, randomDelay: true,
        retryIf: (error, operation) => operation.kind === 'query' && isRetryable(error),
        retryWith: (error, operation) => {
          const wish = retryAfterMs(responseOf(error));
          return wish !== undefined && wish > retry.maxDelayMs ? null : makeOperation(operation.kind, operation, { ...operation.context, [RETRY_AFTER]: wish });
        },
      }),
      ...(auth ? [auth] : []),
      postExchange(guardedFetch(fetchFn)),
    ],
  });
  // urql's auth exchange holds operations by key while it waits for a token, and identical
  // mutations share a key: they go one after another (each is still sent once).
  const mutationTurns = new Map<number, Promise<unknown>>();

  const execute = async <Data, Variables extends AnyVariables>(document: TypedDocumentNode<Data, Variables>, given: Variables | undefined, callOptions?: CallOptions): Promise<Data> => {
    const extras: CallExtras = (callOptions as { [CALL_EXTRAS]?: CallExtras } | undefined)?.[CALL_EXTRAS] ?? {};
    const variables = given ?? ({} as Variables);
    const { kind, operationName, problem: answerProblemOf } = operationOf(document);
    const requestId = newRequestId();
    const details = { operationName, requestId };
    const where = `(operation ${operationName}, request ${requestId})`;
    if (kind !== 'query' && kind !== 'mutation') throw new ValidationError([{ path: 'document', message: 'must hold a query or a mutation' }], details);
    const unknownOutcome = kind === 'mutation';
    const hint = unknownOutcome ? (extras.outcomeHint ?? MUTATION_OUTCOME_UNKNOWN_HINT) : '';
    const signal = callOptions?.signal;
    if (closing.signal.aborted) throw new NetworkError('ABORTED', `the client is closed; nothing was sent ${where}`, details);
    if (signal?.aborted) throw new NetworkError('ABORTED', `the call was aborted before it was sent ${where}`, details);
    // Values under secret-like keys of the variables (a model's `secretKey`) are redacted too.
    const secrets = () => [...knownSecrets, ...secretsIn(variables)];

    // The call ends early on its time-out, its signal or close(): `lost` says which.
    const stop = makeSubject<void>();
    let lost: { code: 'TIMEOUT' | 'ABORTED'; text: string } | undefined;
    const end = (code: 'TIMEOUT' | 'ABORTED', text: string) => () => {
      lost ??= { code, text };
      stop.next();
    };
    const timeoutMs = callOptions?.timeoutMs ?? defaultTimeout;
    const timer = timeoutMs < MAX_TIMER_MS ? setTimeout(end('TIMEOUT', `no answer within ${timeoutMs} ms`), timeoutMs) : undefined;
    const onAbort = end('ABORTED', 'the call was aborted');
    const onClose = end('ABORTED', 'the client was closed during the call');
    signal?.addEventListener('abort', onAbort, { once: true });
    closing.signal.addEventListener('abort', onClose, { once: true });

    const request = createRequest(document, variables);
    const sent$ = urql.createRequestOperation(kind, request, { fetchOptions: { headers: { ...baseHeaders, 'x-request-id': requestId } } });
    const before = kind === 'mutation' ? mutationTurns.get(request.key) : undefined;
    let result: OperationResult | undefined;
    let sent = false;
    const turn = (async () => {
      if (before) await Promise.race([before, pipe(stop.source, take(1), toPromise)]);
      if (lost) return;
      sent = true;
      result = await pipe(urql.executeRequestOperation(sent$), takeUntil(stop.source), take(1), toPromise);
    })();
    if (kind === 'mutation') mutationTurns.set(request.key, turn);
    try {
      await turn;
    } finally {
      if (mutationTurns.get(request.key) === turn) mutationTurns.delete(request.key);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      closing.signal.removeEventListener('abort', onClose);
    }
    if (!result) {
      const { code, text } = lost ?? { code: 'ABORTED' as const, text: 'the call ended without an answer' };
      // A mutation still waiting for its turn was never sent: its outcome is known.
      throw new NetworkError(code, `${text}${sent ? hint : '; nothing was sent'} ${where}`, { ...details, mutationOutcomeUnknown: unknownOutcome && sent });
    }
    // The one conversion point: a result becomes the data, or one error of the family.
    if (result.error) throw toLabelkitError(result.error, { kind, details, where, url: shownUrl, secrets: secrets(), hint, staticToken: typeof options.token === 'string' });
    const data = result.data as Data | null | undefined;
    const problem = data == null ? 'the answer has no data' : (answerProblemOf(data) ?? extras.check?.(data as never));
    if (problem === undefined) return data as Data;
    throw new ProtocolError(`${problem}${hint} ${where}`, { ...details, secrets: secrets(), mutationOutcomeUnknown: unknownOutcome });
  };
  return { execute, closed: closing.signal, close: () => closing.abort() };
}
