import { createRequest, makeOperation } from '@urql/core';
import type { AnyVariables, DocumentInput, GraphQLRequest, Operation } from '@urql/core';

/**
 * The only places where labelkit leans on urql behaviour that is not a documented API. Each
 * helper below was checked against these versions (from their package.json); a test compares
 * them with the installed ones and exercises each helper, so an upgrade fails loudly and points
 * here. Re-check each helper against the new sources, then update the versions.
 */
export const CHECKED_AGAINST = {
  '@urql/core': '6.0.3',
  '@urql/exchange-retry': '2.0.0',
  '@urql/exchange-auth': '3.0.0',
} as const;

/**
 * Makes requests that urql never deduplicates: each gets its own, negative operation key.
 *
 * @returns a function that turns a document and variables into a request with a fresh key
 * @remarks urql shares one request among operations with the same key in flight (the key is a
 * hash of the document and variables), which would send one `x-request-id` for two calls and
 * let one call's teardown stop the other's retries. urql's keys are unsigned hashes, so negative
 * keys never collide with them. The document is keyed (printed) once per document, not per call.
 * @example
 * ```ts
 * const unique = uniqueRequests();
 * unique(GetJobDocument, { jobId: 'j' }).key; // -1, then -2, …
 * ```
 */
export function uniqueRequests(): <Data, Variables extends AnyVariables>(document: DocumentInput<Data, Variables>, variables: Variables) => GraphQLRequest<Data, Variables> {
  let nextKey = 0;
  const keyed = new WeakMap<object, GraphQLRequest['query']>();
  return <Data, Variables extends AnyVariables>(document: DocumentInput<Data, Variables>, variables: Variables) => {
    let query = keyed.get(document as object);
    if (!query) keyed.set(document as object, (query = createRequest(document as DocumentInput, {}).query));
    nextKey = nextKey <= -0x7fffffff ? -1 : nextKey - 1;
    return { key: nextKey, query, variables } as GraphQLRequest<Data, Variables>;
  };
}

/**
 * A copy of an operation whose next retry waits at least `delayMs` (a server's `Retry-After`).
 *
 * @param operation - the operation about to be retried (from `retryWith`)
 * @param delayMs - the least delay before the retry
 * @returns the operation with `@urql/exchange-retry`'s back-off state seeded
 * @remarks The retry exchange keeps `{ count, delay }` in `context.retry` and computes the next
 * delay as the previous one times a jitter factor of 1.5–2.5; seeding `delay` with
 * `delayMs / 1.5` makes the next delay at least `delayMs` (at most `maxDelayMs`).
 */
export function withRetryDelay(operation: Operation, delayMs: number): Operation {
  const count = (operation.context.retry as { count?: number } | undefined)?.count ?? 0;
  return makeOperation(operation.kind, operation, { ...operation.context, retry: { count, delay: delayMs / 1.5 } });
}

/**
 * A copy of an operation that `@urql/exchange-auth` treats as a first attempt again.
 *
 * @param operation - the operation about to be retried
 * @returns the operation with `context.authAttempt` false
 * @remarks The auth exchange marks an operation that waited for a token request with
 * `authAttempt: true`, and sends such an operation with whatever token it has, none included.
 * A retry of an operation whose token request failed must go through the token check again.
 */
export function asFirstAuthAttempt(operation: Operation): Operation {
  return makeOperation(operation.kind, operation, { ...operation.context, authAttempt: false });
}
