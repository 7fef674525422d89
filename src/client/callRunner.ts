// The call runner: one urql Client per labelkit client, and each call's time-out, abort, turn of
// identical mutations and the one conversion of its result.
import { type AnyVariables, Client, createRequest, makeOperation, type OperationResult } from '@urql/core';
import { retryExchange } from '@urql/exchange-retry';
import { makeSubject, pipe, take, takeUntil, toPromise } from 'wonka';
import { MAX_TIMER_MS } from '../shared/constants.js';
import { onAbort } from '../shared/onAbort.js';
import { redactUrl, secretsIn, urlSecrets } from '../shared/redact.js';
import { operationOf } from './answerShape.js';
import { MUTATION_OUTCOME_UNKNOWN_HINT, NetworkError, ProtocolError, ValidationError } from './errors.js';
import { isRetryable, responseOf, retryAfterMs } from './failures.js';
import { inBrowser } from './inBrowser.js';
import type { ExecutorOptions, RequestOptions } from './options.js';
import { newRequestId } from './requestId.js';
import { retrySettings } from './retryPolicy.js';
import { toLabelkitError } from './toLabelkitError.js';
import { postExchange, RETRY_AFTER } from './transport.js';
import type { TypedDocumentNode } from './typedDocument.js';
import { VERSION } from './version.js';

/**
 * Builds the one urql Client of a labelkit client and the function that runs operations on it.
 *
 * @param options - endpoint, credentials, retry and time-out settings
 * @returns `execute`, which sends one operation per call, `close`, and `closed`, the signal close() aborts
 * @remarks urql's `Client` with its `retryExchange` (queries only, on the rule of
 * `isRetryable`, honouring `Retry-After` up to `maxDelayMs`: `postExchange` holds the retry back)
 * and, for a token from an {@link AuthSource}, the exchange it builds (urql's `authExchange`; a
 * static token is a header of every request), and `postExchange` (transport.ts). Each call is urql's result source, ended early by its time-out, its signal or close()
 * (`takeUntil`: urql then tears the operation down, which aborts the fetch and stops retries), and
 * read with `toPromise`. Identical queries in flight at the same moment share one request, as urql
 * deduplicates them. A result is converted once: to its data, or to one labelkit error.
 * @example
 * ```ts
 * const { execute } = createCallRunner({ url, token });
 * const data = await execute(GetCabinetDocument, { projectId, role }, { timeoutMs: 5_000 });
 * ```
 */
export function createCallRunner(options: ExecutorOptions) {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const retry = retrySettings(options.retry);
  const closing = new AbortController();
  // Every secret the client has held, so that no error can echo one (tokens join on refresh).
  // The URL's query values are secrets too (an API key under any name), and the URL is shown without them.
  const knownSecrets: (string | undefined)[] = [options.token, ...(options.auth?.secrets ?? []), ...urlSecrets(options.url, { everyQueryValue: true })];
  const shownUrl = redactUrl(options.url, { everyQueryValue: true });
  // How many of them came with the options: they stay for the client's life, the tokens after them come and go.
  const optionSecrets = knownSecrets.length;
  const baseHeaders: Record<string, string> = {
    // Lower-case names, as urql's own fetch sends them (the transport looks for `authorization`).
    ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    'x-labelkit-client': `labelkit/${VERSION}`,
    // In a browser User-Agent is the browser's: sending it would add a header to the CORS preflight.
    ...(!inBrowser() && { 'user-agent': `labelkit/${VERSION}` }),
    // A static token is a header: there is nothing to refresh, so a refused one is not sent again.
    ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
  };
  // Tokens from an auth source (getToken, client credentials) come, and are refreshed, through urql's authExchange; the last 14 are redacted.
  const onToken = (value: string) => knownSecrets.push(value) > optionSecrets + 14 && knownSecrets.splice(optionSecrets, 1);
  const auth = options.auth?.exchange({ url: options.url, fetch: fetchFn, backoff: options.retry, timeoutMs: defaultTimeout, signal: closing.signal, onToken });
  const urql = new Client({
    url: options.url,
    requestPolicy: 'network-only',
    exchanges: [
      retryExchange({
        maxNumberAttempts: retry.maxAttempts, initialDelayMs: retry.initialDelayMs, maxDelayMs: retry.maxDelayMs, randomDelay: true,
        retryIf: (error, operation) => operation.kind === 'query' && isRetryable(error),
        retryWith: (error, operation) => {
          const asked = retryAfterMs(responseOf(error));
          return asked !== undefined && asked > retry.maxDelayMs ? null : makeOperation(operation.kind, operation, { ...operation.context, [RETRY_AFTER]: asked });
        },
      }),
      ...(auth ? [auth] : []),
      postExchange(fetchFn),
    ],
  });
  // urql's auth exchange holds operations by key while it waits for a token, and identical
  // mutations share a key: they go one after another (each is still sent once).
  const mutationTurns = new Map<number, Promise<unknown>>();

  const execute = async <Data, Variables extends AnyVariables>(document: TypedDocumentNode<Data, Variables>, given: Variables | undefined, callOptions?: RequestOptions<Data>): Promise<Data> => {
    const variables = given ?? ({} as Variables);
    const { kind, operationName, problem: answerProblemOf } = operationOf(document);
    const requestId = newRequestId();
    const details = { operationName, requestId };
    const where = `(operation ${operationName}, request ${requestId})`;
    if (kind !== 'query' && kind !== 'mutation') throw new ValidationError([{ path: 'document', message: 'must hold a query or a mutation' }], details);
    const unknownOutcome = kind === 'mutation';
    const hint = unknownOutcome ? (callOptions?.outcomeHint ?? MUTATION_OUTCOME_UNKNOWN_HINT) : '';
    const signal = callOptions?.signal;
    if (closing.signal.aborted) throw new NetworkError('ABORTED', `the client is closed; nothing was sent ${where}`, details);
    if (signal?.aborted) throw new NetworkError('ABORTED', `the call was aborted before it was sent ${where}`, details);
    // Values under secret-like keys of the variables (a model's `secretKey`) are redacted too.
    const secrets = () => [...knownSecrets, ...secretsIn(variables)];

    // The call ends early on its time-out, its signal or close(): `stoppedBy` says which.
    const stop = makeSubject<void>();
    let stoppedBy: { code: 'TIMEOUT' | 'ABORTED'; text: string } | undefined;
    const end = (code: 'TIMEOUT' | 'ABORTED', text: string) => () => {
      stoppedBy ??= { code, text };
      stop.next();
    };
    const timeoutMs = callOptions?.timeoutMs ?? defaultTimeout;
    const timer = timeoutMs < MAX_TIMER_MS ? setTimeout(end('TIMEOUT', `no answer within ${timeoutMs} ms`), timeoutMs) : undefined;
    const onAbortCall = end('ABORTED', 'the call was aborted');
    const onClose = end('ABORTED', 'the client was closed during the call');
    // One listener per signal however many calls are in flight (`shared/onAbort`): a listener per
    // call on the client's closing signal passed Node's limit of 10 with 12 reads in flight.
    const stopWaitingForAbort = signal ? onAbort(signal, onAbortCall) : undefined;
    const stopWaitingForClose = onAbort(closing.signal, onClose);

    const request = createRequest(document, variables);
    const sent$ = urql.createRequestOperation(kind, request, { fetchOptions: { headers: { ...baseHeaders, 'x-request-id': requestId } } });
    const before = kind === 'mutation' ? mutationTurns.get(request.key) : undefined;
    let result: OperationResult | undefined;
    let sent = false;
    const turn = (async () => {
      if (before) await Promise.race([before, pipe(stop.source, take(1), toPromise)]);
      if (stoppedBy) return;
      sent = true;
      result = await pipe(urql.executeRequestOperation(sent$), takeUntil(stop.source), take(1), toPromise);
    })();
    if (kind === 'mutation') mutationTurns.set(request.key, turn);
    try {
      await turn;
    } finally {
      if (mutationTurns.get(request.key) === turn) mutationTurns.delete(request.key);
      clearTimeout(timer);
      stopWaitingForAbort?.();
      stopWaitingForClose();
    }
    if (!result) {
      const { code, text } = stoppedBy ?? { code: 'ABORTED' as const, text: 'the call ended without an answer' };
      // A mutation still waiting for its turn was never sent: its outcome is known.
      throw new NetworkError(code, `${text}${sent ? hint : '; nothing was sent'} ${where}`, { ...details, mutationOutcomeUnknown: unknownOutcome && sent });
    }
    // The one conversion point: a result becomes the data, or one error of the family.
    if (result.error) throw toLabelkitError(result.error, { kind, details, where, url: shownUrl, secrets: secrets(), hint, staticToken: typeof options.token === 'string' });
    const data = result.data as Data | null | undefined;
    const problem = data == null ? 'the answer has no data' : (answerProblemOf(data) ?? callOptions?.check?.(data));
    if (problem === undefined) return data as Data;
    throw new ProtocolError(`${problem}${hint} ${where}`, { ...details, secrets: secrets(), mutationOutcomeUnknown: unknownOutcome });
  };
  return { execute, closed: closing.signal, close: () => closing.abort() };
}
