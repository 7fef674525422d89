import { Client, createRequest, fetchExchange, makeOperation } from '@urql/core';
import type { AnyVariables, OperationContext, TypedDocumentNode } from '@urql/core';
import { retryExchange } from '@urql/exchange-retry';
import {
  AutoLabelTokenBasedProjectMutationDocument,
  GetCabinetDocument,
  GetCabinetLabelSetsByIdDocument,
  GetJobDocument,
  GetJobsDocument,
} from '../../generated/graphql.js';
import { labelkitAuthExchange, makeTokenSource } from './auth.js';
import type { AuthOptions } from './auth.js';
import { JobFailedError, JobNotFoundError, JobTimeoutError, LabelkitError, NetworkError, ValidationError } from './errors.js';
import { JobPoller } from './jobPoller.js';
import type { PollOptions, WaitOptions } from './jobPoller.js';
import { isTransient, retryAfterMs, toLabelkitError } from './toLabelkitError.js';
import type { AutoLabelInput, Cabinet, Job, JobOutcome, JobSnapshot, LabelSet, Role } from './types.js';
import { checkId, checkJobIds, checkRole, validateAutoLabelInput } from './validation.js';
import type { ValidationProblem } from './validation.js';
import { VERSION } from './version.js';

/** Retries of queries (mutations are never retried). */
export interface RetryOptions {
  /** Attempts in all, the first included. @defaultValue 4 */
  maxAttempts?: number;
  /** The first back-off delay; later ones grow with jitter. @defaultValue 300 */
  initialDelayMs?: number;
  /** The longest delay; a `Retry-After` beyond it is not waited for. @defaultValue 15_000 */
  maxDelayMs?: number;
}

/** Options of {@link createLabelingClient}. Give exactly one of `token`, `getToken`, `clientCredentials`. */
export interface LabelingClientOptions extends AuthOptions {
  /** The GraphQL endpoint, e.g. `https://…/graphql` or the emulator's `http://127.0.0.1:4000/graphql`. */
  url: string;
  /** Time-out of one call, retries included. @defaultValue 30_000 */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** How often waiting for jobs asks the service. */
  poll?: PollOptions;
  /** The fetch to use. @defaultValue globalThis.fetch */
  fetch?: typeof fetch;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call; it rejects with a NetworkError of code `ABORTED`. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** The labeling service's client; see {@link createLabelingClient}. */
export interface LabelingClient {
  /** The cabinet of a project for one role. */
  getCabinet(projectId: string, role: Role, options?: CallOptions): Promise<Cabinet>;
  /** The label sets of a cabinet, sorted by `index`. */
  getLabelSets(cabinetId: string, options?: CallOptions): Promise<LabelSet[]>;
  /** The label sets of a project for one role (getCabinet, then getLabelSets). */
  getProjectLabelSets(projectId: string, role: Role, options?: CallOptions): Promise<LabelSet[]>;
  /** Starts auto-labeling; returns the new job at once. Never retried. */
  startAutoLabel(input: AutoLabelInput, options?: CallOptions & { allowInsecureEndpoint?: boolean }): Promise<JobSnapshot>;
  /** One job, or null when the service knows no such job. */
  getJob(jobId: string, options?: CallOptions): Promise<Job | null>;
  /** Many jobs in one request, in the order asked; null where unknown. */
  getJobs(jobIds: string[], options?: CallOptions): Promise<(Job | null)[]>;
  /** Waits until a job ends; resolves with a tagged outcome. */
  waitForJob(jobId: string, options?: WaitOptions): Promise<JobOutcome>;
  /** Waits for many jobs with one request per interval; outcomes in the order asked. */
  waitForJobs(jobIds: string[], options?: WaitOptions): Promise<JobOutcome[]>;
  /** Like waitForJob, but resolves with the delivered job and throws for every other outcome. */
  waitForJobOrThrow(jobId: string, options?: WaitOptions): Promise<Job>;
  /** Ends every wait in progress (they reject with code `ABORTED`). */
  close(): void;
}

/** A call's options after defaults. */
interface Call {
  kind: 'query' | 'mutation';
  operationName: string;
  secrets?: ReadonlyArray<string | undefined>;
  options?: CallOptions | undefined;
}

function assertValid(problems: ValidationProblem[], operationName: string): void {
  if (problems.length > 0) throw new ValidationError(problems, { operationName });
}

function checkClientOptions(options: LabelingClientOptions): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  let url: URL | undefined;
  try {
    url = new URL(options.url);
  } catch {
    /* reported below */
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({ path: 'options.url', message: 'must be an absolute http(s) URL of the GraphQL endpoint' });
  }
  const sources = [options.token !== undefined, options.getToken !== undefined, options.clientCredentials !== undefined];
  if (sources.filter(Boolean).length !== 1) {
    problems.push({ path: 'options', message: 'give exactly one of token, getToken, clientCredentials' });
  }
  if (options.token !== undefined && (typeof options.token !== 'string' || options.token.trim() === '')) {
    problems.push({ path: 'options.token', message: 'must be a non-empty string' });
  }
  const cc = options.clientCredentials;
  if (cc !== undefined) {
    problems.push(...checkId(cc.clientId, 'options.clientCredentials.clientId'));
    problems.push(...checkId(cc.clientSecret, 'options.clientCredentials.clientSecret'));
  }
  return problems;
}

/**
 * Creates a client of the labeling service, built on urql's exchanges.
 *
 * @param options - endpoint, credentials and tuning; see {@link LabelingClientOptions}
 * @returns the client
 * @throws {@link ValidationError} when the options are unusable (no URL, no or several credentials)
 * @remarks Every call is a POST with `operationName`, `query` and `variables`, an `x-request-id`
 * and `x-labelkit-client: labelkit/<version>`; there is no document cache. Queries are retried on
 * network errors, 408, 429 (honouring `Retry-After`) and 5xx with exponential back-off and jitter;
 * mutations never are. Errors are labelkit errors (see `errors.ts`) and hold no secret.
 * @example
 * ```ts
 * import { createLabelingClient } from 'labelkit';
 * const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN });
 * const sets = await client.getProjectLabelSets('PROJECT_ID', 'LABELER');
 * ```
 */
export function createLabelingClient(options: LabelingClientOptions): LabelingClient {
  assertValid(checkClientOptions(options), 'createLabelingClient');
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const maxDelayMs = options.retry?.maxDelayMs ?? 15_000;
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
    'user-agent': `labelkit/${VERSION}`,
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

  let callCounter = 0;
  function execute<Data, Variables extends AnyVariables>(
    document: TypedDocumentNode<Data, Variables>,
    variables: Variables,
    call: Call,
  ): Promise<Data> {
    const requestId = globalThis.crypto.randomUUID();
    const timeoutMs = call.options?.timeoutMs ?? defaultTimeout;
    const signal = call.options?.signal;
    const failure = { kind: call.kind, operationName: call.operationName, requestId, url: options.url };
    const where = `(operation ${call.operationName}, request ${requestId})`;
    const details = { operationName: call.operationName, requestId };
    const unknownOutcome = call.kind === 'mutation';
    const hint = unknownOutcome ? '; the mutation may have reached the service: check with getJobs before starting another job' : '';
    if (signal?.aborted) {
      return Promise.reject(new NetworkError('ABORTED', `the call was aborted before it was sent ${where}`, details));
    }
    const context: Partial<OperationContext> = { fetchOptions: { headers: { ...baseHeaders, 'x-request-id': requestId } } };
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
      const onAbort = () =>
        finish(new NetworkError('ABORTED', `the call was aborted${hint} ${where}`, { ...details, mutationOutcomeUnknown: unknownOutcome }));
      const timer = setTimeout(
        () =>
          finish(
            new NetworkError('TIMEOUT', `no answer within ${timeoutMs} ms${hint} ${where}`, {
              ...details,
              mutationOutcomeUnknown: unknownOutcome,
            }),
          ),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      // A key of its own per call: urql would otherwise share one in-flight operation between
      // identical calls (two identical startAutoLabel calls must start two jobs, and each call
      // has its own request id, timeout and abort). Keys above 2^32 never meet urql's hashes.
      const request = { ...createRequest(document, variables), key: 2 ** 32 + ++callCounter };
      const source = call.kind === 'query' ? urql.executeQuery(request, context) : urql.executeMutation(request, context);
      subscription = source.subscribe((result) => {
        if (result.error) {
          finish(toLabelkitError(result.error, { ...failure, secrets: [...knownSecrets, ...(call.secrets ?? [])] }));
        } else if (result.data == null) {
          finish(new LabelkitError('GRAPHQL', `[GraphQL] the response had no data ${where}`, details));
        } else finish(null, result.data);
      });
      if (done) subscription.unsubscribe();
    });
  }

  const getJobs = async (jobIds: string[], callOptions?: CallOptions) => {
    assertValid(checkJobIds(jobIds), 'GetJobs');
    const data = await execute(GetJobsDocument, { jobIds }, { kind: 'query', operationName: 'GetJobs', options: callOptions });
    return data.getJobs;
  };
  const poller = new JobPoller((ids) => getJobs(ids), options.poll);

  const client: LabelingClient = {
    async getCabinet(projectId, role, callOptions) {
      assertValid([...checkId(projectId, 'projectId'), ...checkRole(role, 'role')], 'GetCabinet');
      const data = await execute(GetCabinetDocument, { projectId, role }, { kind: 'query', operationName: 'GetCabinet', options: callOptions });
      return data.getCabinet;
    },
    async getLabelSets(cabinetId, callOptions) {
      assertValid(checkId(cabinetId, 'cabinetId'), 'getCabinetLabelSetsById');
      const data = await execute(GetCabinetLabelSetsByIdDocument, { cabinetId }, {
        kind: 'query',
        operationName: 'getCabinetLabelSetsById',
        options: callOptions,
      });
      return [...data.getCabinetLabelSetsById].sort((a, b) => a.index - b.index);
    },
    async getProjectLabelSets(projectId, role, callOptions) {
      const cabinet = await client.getCabinet(projectId, role, callOptions);
      return client.getLabelSets(cabinet.id, callOptions);
    },
    async startAutoLabel(input, callOptions) {
      const allowInsecureEndpoint = callOptions?.allowInsecureEndpoint ?? false;
      assertValid(validateAutoLabelInput(input, { allowInsecureEndpoint }), 'AutoLabelTokenBasedProjectMutation');
      const normalized: AutoLabelInput = {
        ...input,
        options: { ...input.options, serviceProvider: input.options.serviceProvider ?? 'CUSTOM' },
      };
      const data = await execute(AutoLabelTokenBasedProjectMutationDocument, { input: normalized }, {
        kind: 'mutation',
        operationName: 'AutoLabelTokenBasedProjectMutation',
        secrets: [input.targetAPI.secretKey],
        options: callOptions,
      });
      return data.result;
    },
    async getJob(jobId, callOptions) {
      assertValid(checkId(jobId, 'jobId'), 'GetJob');
      const data = await execute(GetJobDocument, { jobId }, { kind: 'query', operationName: 'GetJob', options: callOptions });
      return data.getJob;
    },
    getJobs,
    waitForJob(jobId, waitOptions) {
      try {
        assertValid(checkId(jobId, 'jobId'), 'GetJobs');
      } catch (error) {
        return Promise.reject(error);
      }
      return poller.wait(jobId, waitOptions);
    },
    waitForJobs(jobIds, waitOptions) {
      const problems = checkJobIds(jobIds);
      if (problems.length > 0) return Promise.reject(new ValidationError(problems, { operationName: 'GetJobs' }));
      return Promise.all(jobIds.map((id) => poller.wait(id, waitOptions)));
    },
    async waitForJobOrThrow(jobId, waitOptions) {
      const result = await client.waitForJob(jobId, waitOptions);
      switch (result.outcome) {
        case 'delivered':
          return result.job;
        case 'failed':
          throw new JobFailedError(result.job);
        case 'timed-out':
          throw new JobTimeoutError(jobId, result.job, waitOptions?.timeoutMs ?? 600_000);
        case 'not-found':
          throw new JobNotFoundError(jobId);
      }
    },
    close() {
      poller.close();
    },
  };
  return client;
}
