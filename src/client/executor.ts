import { Client } from '@urql/core';
import type { AnyVariables, OperationResult, TypedDocumentNode } from '@urql/core';
import { DEFAULT_TOKEN_TIMEOUT_MS, makeTokenSource } from './auth.js';
import type { AuthOptions, Token } from './auth.js';
import { callPromise } from './callPromise.js';
import { MUTATION_OUTCOME_UNKNOWN_HINT, NetworkError, ProtocolError } from './errors.js';
import { buildExchanges, callContext } from './exchanges.js';
import { guardFetch } from './guardFetch.js';
import type { RetryOptions } from './exchanges.js';
import { newRequestId } from './requestId.js';
import { toLabelkitError } from './toLabelkitError.js';
import type { FailedCall } from './toLabelkitError.js';
import { inBrowser } from './inBrowser.js';
import { uniqueRequests } from './urqlInternals.js';
import { VERSION } from './version.js';

export type { RetryOptions } from './exchanges.js';

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
  /**
   * What a mutation of unknown outcome tells the caller to do, appended to the error's message.
   * @defaultValue MUTATION_OUTCOME_UNKNOWN_HINT (a job may have started)
   */
  outcomeHint?: string;
  /**
   * Checks the shape of the answer's data: returns what is wrong (e.g. `getJobs is missing`), or
   * undefined when the data is what the operation asks for. A problem rejects the call with a
   * {@link ProtocolError} (code `BAD_RESPONSE`).
   */
  check?: (data: unknown) => string | undefined;
}

/** Runs one typed document and resolves with its data, or rejects with a labelkit error. */
export type Execute = <Data, Variables extends AnyVariables>(
  document: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  call: Call,
) => Promise<Data>;

/** The executor of a client: `execute` runs a call, `close` ends every call in flight and refuses new ones. */
export interface Executor {
  execute: Execute;
  close(): void;
}

/**
 * Builds the one urql Client of a labelkit client and the function that runs operations on it.
 *
 * @param options - endpoint, credentials, retry and time-out settings
 * @returns `execute`, which sends one operation per call, and `close`
 * @remarks Composition only: the exchange pipeline comes from `buildExchanges` (exchanges.ts),
 * each call's request from `uniqueRequests` (urqlInternals.ts: never deduplicated by urql), and
 * the call→promise adaptation (time-out, abort, close) from `callPromise`, the fetch from
 * `guardFetch` (no request without `Authorization`; an error status no body can hide). Here:
 * headers, the secrets errors must not echo, the token source with its time-out, and the one
 * conversion of a result (`settle`).
 * @example
 * ```ts
 * const execute = createExecutor({ url, token });
 * const data = await execute(GetCabinetDocument, { projectId, role }, { kind: 'query', operationName: 'GetCabinet' });
 * ```
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultTimeout = options.timeoutMs ?? 30_000;
  // Every secret the client has held, so that no error can echo one (tokens join on refresh).
  const knownSecrets: (string | undefined)[] = [options.token, options.clientCredentials?.clientSecret];
  // Half the call's time-out at most, so that a hung token request fails as itself (naming the
  // token endpoint) and leaves a retry room within the call.
  const tokenTimeoutMs = options.tokenTimeoutMs ?? Math.min(DEFAULT_TOKEN_TIMEOUT_MS, defaultTimeout / 2);
  const tokenSource = makeTokenSource(options, options.url, fetchFn, tokenTimeoutMs);
  const recordingSource = async (): Promise<Token> => {
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
    fetch: guardFetch(fetchFn),
    preferGetMethod: false,
    requestPolicy: 'network-only',
    exchanges: buildExchanges({ retry: options.retry, tokenSource: recordingSource }),
  });
  const unique = uniqueRequests();
  const closers = new Set<() => void>();
  let closed = false;

  const execute = function execute<Data, Variables extends AnyVariables>(
    document: TypedDocumentNode<Data, Variables>,
    variables: Variables,
    call: Call,
  ): Promise<Data> {
    const requestId = newRequestId();
    const details = { operationName: call.operationName, requestId };
    const where = `(operation ${call.operationName}, request ${requestId})`;
    const unknownOutcome = call.kind === 'mutation';
    const hint = unknownOutcome ? (call.outcomeHint ?? MUTATION_OUTCOME_UNKNOWN_HINT) : '';
    if (closed) return Promise.reject(new NetworkError('ABORTED', `the client is closed; nothing was sent ${where}`, details));
    if (call.options?.signal?.aborted) {
      return Promise.reject(new NetworkError('ABORTED', `the call was aborted before it was sent ${where}`, details));
    }
    const secrets = () => (call.secrets ? [...knownSecrets, ...call.secrets] : knownSecrets);
    const failed: FailedCall = {
      kind: call.kind,
      operationName: call.operationName,
      requestId,
      url: options.url,
      ...(call.outcomeHint !== undefined && { outcomeHint: call.outcomeHint }),
      get secrets() {
        return secrets();
      },
    };
    const operation = urql.createRequestOperation(call.kind, unique(document, variables), {
      fetchOptions: { headers: { ...baseHeaders, 'x-request-id': requestId } },
      ...callContext(failed),
    });
    // The one conversion point: a result becomes the data, or one error of the family.
    const settle = (result: OperationResult): Data | Error => {
      if (result.error) return toLabelkitError(result.error, failed);
      const problem = result.data == null ? 'the answer has no data' : call.check?.(result.data);
      if (problem === undefined) return result.data as Data;
      return new ProtocolError(`${problem}${hint} ${where}`, { ...details, secrets: secrets(), mutationOutcomeUnknown: unknownOutcome });
    };
    return callPromise(urql.executeRequestOperation(operation), settle, {
      timeoutMs: call.options?.timeoutMs ?? defaultTimeout,
      signal: call.options?.signal,
      onClose: (end) => {
        closers.add(end);
        return () => closers.delete(end);
      },
      lost: (code, text) => new NetworkError(code, `${text}${hint} ${where}`, { ...details, mutationOutcomeUnknown: unknownOutcome }),
    });
  };
  return {
    execute,
    close() {
      closed = true;
      for (const end of [...closers]) end();
    },
  };
}
