import { makeErrorResult, makeResult, stringifyDocument } from '@urql/core';
import type { Exchange, Operation, OperationResult } from '@urql/core';
import { filter, make, merge, mergeMap, pipe, takeUntil } from 'wonka';

/** The longest body text kept as the message of a non-JSON answer's error (urql keeps all of it). */
export const BODY_EXCERPT_CHARS = 2_000;

type DocumentNode = Operation['query'];

const operationNames = new WeakMap<DocumentNode, string | undefined>();

/** The name of the first operation of a document (cached per document). */
function operationNameOf(document: DocumentNode): string | undefined {
  if (operationNames.has(document)) return operationNames.get(document);
  let name: string | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === 'OperationDefinition') {
      name = definition.name?.value;
      break;
    }
  }
  operationNames.set(document, name);
  return name;
}

/** The operation's headers (from `context.fetchOptions`, as the auth exchange sets them), keys lower-cased. */
function headersOf(operation: Operation): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json' };
  const options = typeof operation.context.fetchOptions === 'function' ? operation.context.fetchOptions() : operation.context.fetchOptions;
  const given = options?.headers;
  if (given instanceof Headers) given.forEach((value, key) => (headers[key] = value));
  else if (Array.isArray(given)) for (const [key, value] of given as [string, string][]) headers[key.toLowerCase()] = value;
  else if (given) for (const key in given) headers[key.toLowerCase()] = (given as Record<string, string>)[key]!;
  return headers;
}

/** POSTs one operation and turns the answer into an urql result; never rejects. */
async function send(operation: Operation, signal: AbortSignal): Promise<OperationResult> {
  const body = JSON.stringify({
    operationName: operationNameOf(operation.query),
    query: stringifyDocument(operation.query),
    variables: operation.variables,
  });
  const fetchFn = operation.context.fetch ?? fetch;
  let response: Response | undefined;
  try {
    response = await fetchFn(operation.context.url, { method: 'POST', headers: headersOf(operation), body, signal });
    // Read once as text (a body cut mid-way rejects here), parse once.
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      // Like urql's fetchExchange: a text/* answer's own words become the message (capped here).
      throw /text\//i.test(response.headers.get('content-type') ?? '') ? new Error(text.slice(0, BODY_EXCERPT_CHARS)) : error;
    }
    return makeResult(operation, json as Parameters<typeof makeResult>[1], response);
  } catch (error) {
    // A non-2xx answer that is not a GraphQL response: its status text, as urql reports it.
    const failed = response !== undefined && (response.status < 200 || response.status >= 300) && response.statusText;
    return makeErrorResult(operation, failed ? new Error(response!.statusText) : (error as Error), response);
  }
}

/**
 * The transport exchange: one `fetch` per query or mutation, its answer read once and parsed once.
 *
 * @param input - urql's exchange input (`forward` receives everything that is not a query or mutation)
 * @returns the exchange's operation stream → result stream
 * @remarks Takes the place of urql's `fetchExchange`, with the same result shapes (urql's
 * `makeResult`/`makeErrorResult`: `networkError`, `graphQLErrors` and the `Response` on the
 * error), so the retry and auth exchanges and labelkit's error mapping see what they saw before.
 * What it leaves out, since the service needs none of it: GET requests, multipart uploads,
 * incremental delivery (`multipart/mixed`, `text/event-stream`), persisted queries, the debug
 * events, and the abort of an already finished request (urql aborts every request when its
 * operation ends, which costs an `AbortError` per call). One `AbortController` per request; it
 * aborts only when the operation is torn down before its answer arrived (a time-out, an abort,
 * or an unsubscribe). A non-JSON answer fails with its status text (non-2xx), or with the first
 * {@link BODY_EXCERPT_CHARS} characters of a `text/*` body, or with the JSON parse error.
 * @example
 * ```ts
 * const client = new Client({ url, exchanges: [retryExchange({}), fetchTransport] });
 * ```
 */
export const fetchTransport: Exchange = ({ forward }) => (operations$) => {
  const isSent = (operation: Operation) => operation.kind === 'query' || operation.kind === 'mutation';
  const results$ = pipe(
    operations$,
    filter(isSent),
    mergeMap((operation) => {
      const torndown$ = pipe(operations$, filter((o) => o.kind === 'teardown' && o.key === operation.key));
      const answer$ = make<OperationResult>((observer) => {
        const controller = new AbortController();
        let ended = false;
        void send(operation, controller.signal).then((result) => {
          if (ended) return;
          ended = true;
          observer.next(result);
          observer.complete();
        });
        return () => {
          if (ended) return;
          ended = true;
          controller.abort();
        };
      });
      return pipe(answer$, takeUntil(torndown$));
    }),
  );
  const forwarded$ = forward(pipe(operations$, filter((operation) => !isSent(operation))));
  return merge([results$, forwarded$]);
};
