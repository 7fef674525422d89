import type { Exchange } from '@urql/core';
import type { Problem } from '../shared/problem.js';
import type { RetryOptions } from './retryPolicy.js';

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

/** What the call runner (`callRunner.ts`) needs of the client's options: all but the helpers' own (see `LabelingClientOptions`). */
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

/**
 * The options of one call of `request`: the call's signal and time-out, and what a helper (or an
 * app) checks of the answer and says of a mutation whose outcome is unknown.
 *
 * @typeParam Data - the document's result type, which `check` reads
 * @example
 * ```ts
 * await client.request(GetJobsDocument, { jobIds }, { check: (data) => (data.getJobs.length === jobIds.length ? undefined : 'a job is missing') });
 * ```
 */
export interface RequestOptions<Data = unknown> extends CallOptions {
  /**
   * What the answer must hold besides the fields the document selects (e.g. one job per id
   * asked): returns what is wrong, or undefined. A problem rejects with code `BAD_RESPONSE`.
   */
  check?: ((data: Data) => string | undefined) | undefined;
  /**
   * What a mutation of unknown outcome tells the caller to do, appended to the error's message.
   * @defaultValue that a job may have started: read the jobs before starting it again
   */
  outcomeHint?: string | undefined;
}
