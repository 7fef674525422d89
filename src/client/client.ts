import { AutoLabelTokenBasedProjectMutationDocument, GetCabinetDocument, GetJobDocument, GetJobsDocument } from '../../generated/graphql.js';
import type { AuthOptions } from './auth.js';
import { JobFailedError, JobNotFoundError, JobTimeoutError, ValidationError } from './errors.js';
import type { AuthError, GraphQLRequestError, NetworkError } from './errors.js';
import { jobList, labelSetList, nullableJob, objectField } from './answerShape.js';
import { createExecutor } from './executor.js';
import type { CallOptions, RetryOptions } from './executor.js';
import { DEFAULT_JOB_TIMEOUT_MS } from '../shared/constants.js';
import { JobPoller } from './jobPoller.js';
import { LabelSetDocuments } from './labelSetDocuments.js';
import type { SchemaChangeEvent, SchemaGeneration } from './labelSetDocuments.js';
import type { PollOptions, WaitOptions } from './jobPoller.js';
import type { AutoLabelInput, Cabinet, Job, JobOutcome, JobSnapshot, LabelSet, Role } from './types.js';
import { checkClientOptions, checkId, checkJobIds, checkRole, validateAutoLabelInput } from './validation.js';
import type { ValidationProblem } from './validation.js';

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
  /**
   * Which generation of the service's schema the label-set query is written for: `tags` (today's
   * production, `tagItems`/`tagName`) or `labels` (after the service's rename). A `tags` client
   * switches to `labels` on its own, once, when the service refuses `tagItems`/`tagName`.
   * @defaultValue 'tags' (today's production; a service already renamed costs one extra request, once)
   */
  schemaGeneration?: SchemaGeneration;
  /** Called once when the client switches to the renamed label-set documents (see `schemaGeneration`). */
  onSchemaChange?: (event: SchemaChangeEvent) => void;
}

/**
 * The labeling service's client; see {@link createLabelingClient}.
 *
 * @remarks Every method validates its input first and rejects with a {@link ValidationError}
 * before anything is sent. Failures reject with the labelkit error family: {@link AuthError},
 * {@link NetworkError} (codes `NETWORK`, `TIMEOUT`, `ABORTED`), {@link GraphQLRequestError}.
 */
export interface LabelingClient {
  /** The GraphQL endpoint this client talks to (`options.url`), e.g. for a journal of what it sent. */
  readonly url: string;
  /**
   * The cabinet of a project for one role (its `id` is the key to the label sets).
   * @param projectId - the project's id
   * @param role - `LABELER` or `REVIEWER`
   * @param options - signal and time-out of this call
   * @returns the cabinet, `{ id }`
   */
  getCabinet(projectId: string, role: Role, options?: CallOptions): Promise<Cabinet>;
  /**
   * The label sets of a cabinet, sorted by `index`; labels are called labels, not tags.
   * @param cabinetId - from {@link LabelingClient.getCabinet}
   * @param options - signal and time-out of this call
   * @returns the sets with their label items
   */
  getLabelSets(cabinetId: string, options?: CallOptions): Promise<LabelSet[]>;
  /**
   * The label sets of a project for one role: getCabinet, then getLabelSets.
   * @param projectId - the project's id
   * @param role - `LABELER` or `REVIEWER`
   * @param options - signal and time-out, for each of the two calls
   * @returns the sets, sorted by `index`
   */
  getProjectLabelSets(projectId: string, role: Role, options?: CallOptions): Promise<LabelSet[]>;
  /**
   * Starts auto-labeling of a project by the customer's model; returns the new job at once.
   * @param input - project, labeler e-mail, batching options and the model's endpoint and secret key
   * @param options - signal and time-out; `allowInsecureEndpoint` to accept a plain-http
   * endpoint on a non-loopback host (the secret key would travel in clear)
   * @returns the job's id, status and progress
   * @throws {@link NetworkError} with `mutationOutcomeUnknown: true` when the request may have
   * reached the service (a job may have started and its id is unknown: look at the project in the
   * service before starting another).
   * Never retried.
   */
  startAutoLabel(input: AutoLabelInput, options?: CallOptions & { allowInsecureEndpoint?: boolean }): Promise<JobSnapshot>;
  /**
   * One job, or null when the service knows no such job.
   * @param jobId - the job's id
   * @param options - signal and time-out of this call
   * @returns the job with its errors, or null
   */
  getJob(jobId: string, options?: CallOptions): Promise<Job | null>;
  /**
   * Many jobs in one request.
   * @param jobIds - a non-empty list of ids
   * @param options - signal and time-out of this call
   * @returns the jobs in the order asked, null where unknown
   */
  getJobs(jobIds: string[], options?: CallOptions): Promise<(Job | null)[]>;
  /**
   * Waits until a job ends. All waits of a client share one getJobs request per interval.
   * @param jobId - the job's id
   * @param options - time-out of the whole wait, signal, not-found grace, onProgress
   * @returns a tagged outcome: delivered, failed (with the job's errors), timed-out (with the
   * last snapshot) or not-found; it rejects only on abort or a non-transient error (e.g. auth)
   */
  waitForJob(jobId: string, options?: WaitOptions): Promise<JobOutcome>;
  /**
   * Waits for many jobs with one request per interval.
   * @param jobIds - a non-empty list of ids
   * @param options - as for waitForJob, applied to each job
   * @returns the outcomes in the order asked
   */
  waitForJobs(jobIds: string[], options?: WaitOptions): Promise<JobOutcome[]>;
  /**
   * Like waitForJob, but resolves only with a delivered job.
   * @param jobId - the job's id
   * @param options - as for waitForJob
   * @returns the delivered job
   * @throws {@link JobFailedError}, {@link JobTimeoutError} or {@link JobNotFoundError}
   */
  waitForJobOrThrow(jobId: string, options?: WaitOptions): Promise<Job>;
  /**
   * Ends every wait and call in progress (they reject with a {@link NetworkError} of code
   * `ABORTED`); no request leaves the client afterwards, and later calls reject at once.
   */
  close(): void;
}

function assertValid(problems: ValidationProblem[], operationName: string): void {
  if (problems.length > 0) throw new ValidationError(problems, { operationName });
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
 * mutations never are. Errors are labelkit errors (see `errors.ts`) and hold no secret. The label-set
 * query follows the service across its tag→label rename on its own (see `schemaGeneration`).
 * @example
 * ```ts
 * import { createLabelingClient } from 'labelkit';
 * const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN });
 * const sets = await client.getProjectLabelSets('PROJECT_ID', 'LABELER');
 * ```
 */
export function createLabelingClient(options: LabelingClientOptions): LabelingClient {
  assertValid(checkClientOptions(options), 'createLabelingClient');
  const { execute, close: closeExecutor } = createExecutor(options);
  const labelSetDocuments = new LabelSetDocuments(options.schemaGeneration ?? 'tags', options.onSchemaChange);

  const getJobs = async (jobIds: string[], callOptions?: CallOptions) => {
    assertValid(checkJobIds(jobIds), 'GetJobs');
    const data = await execute(GetJobsDocument, { jobIds }, {
      kind: 'query',
      operationName: 'GetJobs',
      options: callOptions,
      check: jobList(jobIds.length),
    });
    return data.getJobs;
  };
  const poller = new JobPoller((ids, signal) => getJobs(ids, { signal }), options.poll);

  const client: LabelingClient = {
    url: options.url,
    async getCabinet(projectId, role, callOptions) {
      assertValid([...checkId(projectId, 'projectId'), ...checkRole(role, 'role')], 'GetCabinet');
      const data = await execute(GetCabinetDocument, { projectId, role }, {
        kind: 'query',
        operationName: 'GetCabinet',
        options: callOptions,
        check: objectField('getCabinet'),
      });
      return data.getCabinet;
    },
    async getLabelSets(cabinetId, callOptions) {
      assertValid(checkId(cabinetId, 'cabinetId'), 'getCabinetLabelSetsById');
      const data = await labelSetDocuments.send((document) =>
        execute(document, { cabinetId }, { kind: 'query', operationName: 'getCabinetLabelSetsById', options: callOptions, check: labelSetList() }),
      );
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
        check: objectField('result', true),
      });
      return data.result;
    },
    async getJob(jobId, callOptions) {
      assertValid(checkId(jobId, 'jobId'), 'GetJob');
      const data = await execute(GetJobDocument, { jobId }, {
        kind: 'query',
        operationName: 'GetJob',
        options: callOptions,
        check: nullableJob(),
      });
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
      // One group: one abort listener for all ids; one failure ends every wait of the group.
      return poller.waitAll(jobIds, waitOptions);
    },
    async waitForJobOrThrow(jobId, waitOptions) {
      const result = await client.waitForJob(jobId, waitOptions);
      switch (result.outcome) {
        case 'delivered':
          return result.job;
        case 'failed':
          throw new JobFailedError(result.job);
        case 'timed-out':
          throw new JobTimeoutError(jobId, result.job, waitOptions?.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS);
        case 'not-found':
          throw new JobNotFoundError(jobId);
      }
    },
    close() {
      poller.close();
      closeExecutor();
    },
  };
  return client;
}
