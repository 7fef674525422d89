import type { AnyVariables } from '@urql/core';
import { clientSettings, type HelperOptions } from './perClient.js';
import { operationOf } from './answerShape.js';
import { createCallRunner } from './callRunner.js';
import type { ExecutorOptions, RequestOptions } from './options.js';
import { assertValid, checkClientOptions, checkRequestOptions } from './validation.js';
// For TSDoc links only.
import type { AnyLabelkitError, AuthError, GraphQLRequestError, NetworkError, ValidationError } from './errors.js';
import type { TypedDocumentNode } from './typedDocument.js';

/**
 * Options of {@link createLabelingClient}. Give exactly one of `token` (a static access token) and
 * `auth` (tokens obtained and refreshed: `clientCredentials(…)` or `refreshingToken(…)`).
 */
export type LabelingClientOptions = ExecutorOptions & HelperOptions;

/**
 * The labeling service's client; see {@link createLabelingClient}.
 *
 * @remarks It runs documents: {@link LabelingClient.request} runs any typed document, and every
 * helper is a function of `labelkit` that takes the client first (`getProjectLabelSets(client, …)`,
 * `startAutoLabel(client, …)`, `waitForJob(client, …)`, the label-set writes, the job and label
 * reads), a few lines each over `request`, so that an app ships only the helpers it imports.
 * What would do harm if sent is checked first and rejects with a {@link ValidationError} before
 * anything is sent. Failures reject with the labelkit error family ({@link AnyLabelkitError}, told
 * apart by `code`): {@link AuthError}, {@link NetworkError} (codes `NETWORK`, `TIMEOUT`,
 * `ABORTED`), {@link GraphQLRequestError}, …
 */
export interface LabelingClient {
  /** The GraphQL endpoint this client sends to (as given in the options). */
  readonly url: string;
  /**
   * Runs any typed document (one of `labelkit/documents`, or one your own codegen made from the
   * SDL this package ships) and resolves with its `data`.
   *
   * @param document - a `TypedDocumentNode` holding one query or mutation; its types give the
   * variables' and the result's
   * @param rest - the operation's variables (may be left out when it has none), then the call's
   * options ({@link RequestOptions}): signal and time-out of this call, and what the answer must
   * hold besides the selected fields (`check`)
   * @returns the answer's `data`, typed by the document
   * @throws a labelkit error (see {@link AnyLabelkitError}): `BAD_RESPONSE` when the answer lacks a
   * field the document selects; a mutation is never retried, and one whose answer was lost
   * rejects with `mutationOutcomeUnknown: true`
   * @remarks Everything the helpers get, `request` gets: the credential (and its refresh), the
   * `x-request-id`, the time-out and signal, retries of queries (with `Retry-After`), redaction of
   * every secret (the client's, and any value of the variables under a secret-like key such as
   * `secretKey`), and the error codes. The helpers (`getProjectLabelSets(client, …)`, `startAutoLabel(client, …)`, `waitForJob(client, …)`, …) are written over it.
   * @example
   * ```ts
   * import { GetCabinetDocument } from 'labelkit/documents';
   * const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'PROJECT_ID', role: 'LABELER' });
   * ```
   */
  request<Data, Variables extends AnyVariables>(document: TypedDocumentNode<Data, Variables>, ...rest: RequestArguments<Variables, Data>): Promise<Data>;
  /**
   * Ends every call and every wait of the helpers in progress (they reject with a {@link NetworkError} of code
   * `ABORTED`); no request leaves the client afterwards, and later calls reject at once.
   */
  close(): void;
}

/** What a helper needs of a client: its `request` (a client made by `createLabelingClient`, or a stand-in). */
export type Requester = Pick<LabelingClient, 'request'>;

/**
 * The arguments of {@link LabelingClient.request} after the document: the variables (optional
 * when the operation has none or only optional ones), then the call's options ({@link RequestOptions},
 * whose `check` reads the document's `Data`).
 *
 * @remarks The variables' type comes from the document alone (`NoInfer`): inferred from the
 * object given as well, a variable the operation does not declare next to all those it does
 * passed unnoticed; now it is an excess-property error (TS2353).
 */
export type RequestArguments<Variables, Data = unknown> = { [key: string]: never } extends Variables
  ? [variables?: NoInfer<Variables>, options?: RequestOptions<NoInfer<Data>>]
  : [variables: NoInfer<Variables>, options?: RequestOptions<NoInfer<Data>>];

/**
 * Creates a client of the labeling service, built on urql's exchanges.
 *
 * @param options - endpoint, credentials and tuning; see {@link LabelingClientOptions}
 * @returns the client
 * @throws {@link ValidationError} when the options are unusable (no URL, no or several credentials,
 * a credential factory's problems), every problem at once
 * @remarks Every call is a POST with `operationName`, `query` and `variables`, an `x-request-id`
 * and `x-labelkit-client: labelkit/<version>`; there is no document cache. Queries are retried on
 * network errors, 408, 429 (honouring `Retry-After`) and 5xx with exponential back-off and jitter;
 * mutations never are. Errors are labelkit errors (see `errors.ts`) and hold no secret. The label-set
 * documents follow the service across its tag→label rename on their own (see `schemaGeneration`).
 * @example
 * ```ts
 * import { createLabelingClient, getProjectLabelSets } from 'labelkit';
 * const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN });
 * const sets = await getProjectLabelSets(client, 'PROJECT_ID', 'LABELER');
 * ```
 */
export function createLabelingClient(options: LabelingClientOptions): LabelingClient {
  assertValid('createLabelingClient', checkClientOptions(options));
  const { execute, close, closed } = createCallRunner(options);
  const client: LabelingClient = {
    url: options.url,
    async request(document, ...[variables, callOptions]) {
      assertValid(operationOf(document).operationName, checkRequestOptions(callOptions));
      return execute(document, variables, callOptions);
    },
    close,
  };
  // What the helpers read of this client lives beside it (see perClient.ts), not in it.
  clientSettings.set(client, { poll: options.poll, schemaGeneration: options.schemaGeneration, onSchemaChange: options.onSchemaChange, closed });
  return client;
}

