// The transport: one JSON POST per operation (the guard, capped error bodies, the bad-port refusal) and the exchange that sends it.
import { type Exchange, type ExecutionResult, getOperationName, makeErrorResult, makeResult, type Operation, type OperationResult, stringifyDocument } from '@urql/core';
import { filter, fromPromise, merge, mergeMap, onEnd, onPush, pipe, share, takeUntil } from 'wonka';
import { AuthError, ValidationError } from './errors.js';
import { HttpStatusError } from './failures.js';
import { pause } from './retryPolicy.js';

/** The most bytes of an error answer's body that are read. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Reads at most `max` bytes of a body as text, then cancels the rest. */
export async function readCapped(response: Response, max: number): Promise<string> {
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

/** Whether fetch refused to call the URL's port itself (undici's `TypeError: fetch failed`, cause `bad port`). */
const isBadPortRefusal = (error: unknown) => error instanceof TypeError && error.cause instanceof Error && error.cause.message === 'bad port';

/**
 * Sends one operation as a JSON POST and reads its one JSON answer; a failure becomes urql's error
 * result. The transport's rules, in one place: nothing is sent without `Authorization` (an
 * {@link AuthError} of the token phase); of an error answer at most {@link MAX_ERROR_BODY_BYTES}
 * are read, and one with GraphQL errors goes on to urql as it came, any other becomes an
 * {@link HttpStatusError} (the status decides, not the body: `{"data":null}` with 503 is a
 * failure); a port that fetch refuses to call (a "bad port" of the Fetch standard) is a
 * {@link ValidationError} of `options.url` naming the port, never retried.
 *
 * @param fetchFn - the fetch to call
 * @param operation - the urql operation
 * @param signal - aborts the fetch
 * @returns urql's result
 */
async function post(fetchFn: typeof fetch, operation: Operation, signal: AbortSignal): Promise<OperationResult> {
  let response: Response | undefined;
  try {
    const given = fetchOptionsOf(operation);
    const { query, variables, extensions } = operation;
    const body = JSON.stringify({ operationName: getOperationName(query), query: stringifyDocument(query), variables, extensions });
    const headers: Record<string, string> = { accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json', ...(given?.headers as Record<string, string> | undefined) };
    // The client's headers are a plain object with lower-case names (the auth exchange's too).
    if (!headers.authorization) throw new AuthError('no access token; the request was not sent', { phase: 'token' });
    response = await fetchFn(operation.context.url, { ...given, method: 'POST', body, headers, signal }).catch((error: unknown) => {
      if (!isBadPortRefusal(error)) throw error;
      const port = new URL(operation.context.url).port;
      throw new ValidationError([{ path: 'options.url', message: `uses port ${port}, which fetch refuses to call (a "bad port" of the Fetch standard); serve the API on another port` }]);
    });
    if (!response.ok) {
      const { status, statusText, headers: answered } = response;
      const text = await readCapped(response, MAX_ERROR_BODY_BYTES);
      const errors = (jsonOf(text) as { errors?: unknown } | null | undefined)?.errors;
      if (!Array.isArray(errors) || errors.length === 0) throw new HttpStatusError(new Response(null, { status, statusText, headers: answered }), text);
      response = new Response(text, { status, statusText, headers: answered });
    }
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
export const RETRY_AFTER = 'labelkitRetryAfterMs';

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
 * @param fetchFn - the fetch
 * @returns the last exchange of the client
 */
export function postExchange(fetchFn: typeof fetch): Exchange {
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
