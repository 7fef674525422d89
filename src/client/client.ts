import type { AnyVariables, TypedDocumentNode } from '@urql/core';
import { AutoLabelTokenBasedProjectMutationDocument, GetCabinetDocument, GetJobDocument, GetJobsDocument } from '../../generated/graphql.js';
import { EmulatorAppliedLabelCountsDocument } from '../../generated/emulator-only/graphql.js';
import type { AuthOptions } from './auth.js';
import { isLabelkitError, JobFailedError, JobNotFoundError, JobTimeoutError, ValidationError } from './errors.js';
import type { AuthError, GraphQLRequestError, NetworkError } from './errors.js';
import { appliedLabelCountList, idList, jobList, labelItemList, labelSetField, labelSetList, nullableJob, objectField } from './answerShape.js';
import { createExecutor } from './executor.js';
import type { CallOptions, RetryOptions } from './executor.js';
import { DEFAULT_JOB_TIMEOUT_MS } from '../shared/constants.js';
import { JobPoller } from './jobPoller.js';
import { LabelSetDocuments } from './labelSetDocuments.js';
import type { SchemaChangeEvent, SchemaGeneration, SendDocument } from './labelSetDocuments.js';
import type { PollOptions, WaitOptions } from './jobPoller.js';
import type {
  AppliedLabelCount,
  AutoLabelInput,
  Cabinet,
  Job,
  JobOutcome,
  JobSnapshot,
  LabelItem,
  LabelItemInput,
  LabelItemsAppendInput,
  LabelSet,
  LabelSetCreateInput,
  LabelSetUpdateInput,
  NewLabelItemInput,
  Role,
} from './types.js';
import {
  checkAppendLabelItems,
  checkClientOptions,
  checkCreateLabelSet,
  checkId,
  checkJobIds,
  checkRole,
  checkTimingOptions,
  checkUpdateLabelSet,
  validateAutoLabelInput,
} from './validation.js';
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
  /** The GraphQL endpoint this client sends to (as given in the options). */
  readonly url: string;
  /**
   * Runs any typed document (one of `labelkit/documents`, or one your own codegen made from the
   * SDL this package ships) and resolves with its `data`.
   *
   * @param document - a `TypedDocumentNode` holding one query or mutation; its types give the
   * variables' and the result's
   * @param variables - the operation's variables (may be left out when it has none)
   * @param options - signal and time-out of this call
   * @returns the answer's `data`, typed by the document
   * @throws a labelkit error (see {@link LabelkitErrors}): `BAD_RESPONSE` when the answer lacks a
   * field the document selects; a mutation is never retried, and one whose answer was lost
   * rejects with `mutationOutcomeUnknown: true`
   * @remarks Everything the helpers get, `request` gets: the credential (and its refresh), the
   * `x-request-id`, the time-out and signal, retries of queries (with `Retry-After`), redaction of
   * every secret (the client's, and any value of the variables under a secret-like key such as
   * `secretKey`), and the error codes. The helpers below are written over it.
   * @example
   * ```ts
   * import { GetCabinetDocument } from 'labelkit/documents';
   * const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'PROJECT_ID', role: 'LABELER' });
   * ```
   */
  request<Data, Variables extends AnyVariables>(document: TypedDocumentNode<Data, Variables>, ...rest: RequestArguments<Variables>): Promise<Data>;
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
   * Creates a label set in a project (`createLabelSet`).
   * @param projectId - the project's id
   * @param input - `index` (0 to 4), `name`, `labelItems` (flat; `parentId` links them) and
   * `arrowLabelRequired`
   * @param options - signal and time-out of this call
   * @returns the new set, as {@link LabelingClient.getLabelSets} reads it (with its id and signature)
   * @throws {@link ValidationError} before anything is sent, listing every problem (an index
   * outside 0–4, an empty name, duplicate ids, names used twice under one parent, a parent not in
   * the list, a cycle, a colour that is not `#rrggbb`); {@link GraphQLRequestError} when the
   * service refuses it (e.g. a sixth set); {@link NetworkError} with `mutationOutcomeUnknown: true`
   * when the answer was lost (read the sets again before creating it again). Never retried.
   */
  createLabelSet(projectId: string, input: LabelSetCreateInput, options?: CallOptions): Promise<LabelSet>;
  /**
   * Renames a project's label set and/or replaces all of its labels (`updateProjectLabelSet`).
   * @param input - the set's `id` and `projectId`, its `labelSetSignature` as read, and a new
   * `name` and/or `labelItems` (every label of the set afterwards)
   * @param options - signal and time-out of this call
   * @returns the set afterwards
   * @remarks The service removes the applied labels of every label whose id is left out of
   * `labelItems`; a label whose id stays keeps them, renamed or not. What the service does with a
   * stale `labelSetSignature` is not documented (the emulator refuses the write): compare the
   * set's signature yourself right before writing when it matters.
   * @throws as {@link LabelingClient.createLabelSet}
   */
  updateLabelSet(input: LabelSetUpdateInput, options?: CallOptions): Promise<LabelSet>;
  /**
   * Adds labels at the top of a label set, keeping every label it has (`appendLabelSetTagItems`).
   * @param input - the set's id, its `labelSetSignature` as read, and the new labels (no
   * `parentId`; `id` optional)
   * @param options - signal and time-out of this call
   * @returns the new labels only, in the order sent, with the ids the service generated for
   * those sent without one
   * @throws as {@link LabelingClient.createLabelSet}
   */
  appendLabelItems(input: LabelItemsAppendInput, options?: CallOptions): Promise<LabelItem[]>;
  /**
   * Deletes a label set (`deleteLabelSet`); the service removes the labels applied with its labels.
   * @param id - the set's id
   * @param options - signal and time-out of this call
   * @returns the ids the service answers (the emulator answers the set's id)
   * @throws as {@link LabelingClient.createLabelSet}
   */
  deleteLabelSet(id: string, options?: CallOptions): Promise<string[]>;
  /**
   * How many applied labels use each label of a project's label sets, where the service can tell:
   * emulator-only (`emulatorAppliedLabelCounts`); production publishes no such count.
   * @param projectId - the project's id
   * @param options - signal and time-out of this call
   * @returns one count per label of every set (0 for a label never applied), or null when the
   * service does not know the query (production: it cannot tell)
   */
  getAppliedLabelCounts(projectId: string, options?: CallOptions): Promise<AppliedLabelCount[] | null>;
  /**
   * Ends every wait and call in progress (they reject with a {@link NetworkError} of code
   * `ABORTED`); no request leaves the client afterwards, and later calls reject at once.
   */
  close(): void;
}

/**
 * The arguments of {@link LabelingClient.request} after the document: the variables (optional
 * when the operation has none or only optional ones), then the call's options.
 */
export type RequestArguments<Variables> = { [key: string]: never } extends Variables
  ? [variables?: Variables, options?: CallOptions]
  : [variables: Variables, options?: CallOptions];

/** What a label-set write of unknown outcome tells the caller (instead of the job's hint). */
const LABEL_SET_WRITE_OUTCOME_HINT =
  '; the write may have reached the service and changed the label set although no answer arrived: read the label sets again before writing again';

/** A label of a write as the service takes it (label words; the documents put them in the service's). */
const labelItemVariables = (item: LabelItemInput) => ({
  id: item.id,
  parentId: item.parentId ?? null,
  labelName: item.labelName,
  color: item.color ?? null,
  desc: item.desc ?? null,
});
const newLabelItemVariables = (item: NewLabelItemInput) => ({
  ...(item.id !== undefined && { id: item.id }),
  labelName: item.labelName,
  color: item.color ?? null,
  desc: item.desc ?? null,
});

/** Whether a query was refused because the service does not know one of its fields (a request error, before it ran). */
function unknownField(error: unknown, field: string): boolean {
  if (!isLabelkitError(error) || error.code !== 'GRAPHQL') return false;
  const entries = (error as { graphQLErrors?: { message: string; path?: unknown }[] }).graphQLErrors ?? [];
  const pattern = new RegExp(`\\b(?:cannot query|unknown) field\\W+${field}\\b`, 'i');
  return entries.some((e) => (e.path === undefined || e.path === null) && pattern.test(e.message));
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
  /** Validates (the arguments' problems and the options'), then runs a query; nothing is sent on a problem. */
  const query = <Data, Variables extends AnyVariables>(
    document: TypedDocumentNode<Data, Variables>,
    variables: Variables,
    operationName: string,
    problems: ValidationProblem[],
    callOptions: CallOptions | undefined,
    check: (data: unknown) => string | undefined,
  ): Promise<Data> => {
    assertValid([...problems, ...checkTimingOptions(callOptions, 'options')], operationName);
    return execute(document, variables, callOptions, { check });
  };
  const getJobs = async (jobIds: string[], callOptions?: CallOptions) =>
    (await query(GetJobsDocument, { jobIds }, 'GetJobs', checkJobIds(jobIds), callOptions, jobList(Array.isArray(jobIds) ? jobIds.length : 0))).getJobs;
  const poller = new JobPoller((ids, signal) => getJobs(ids, { signal }), options.poll);
  const checkWait = (problems: ValidationProblem[], waitOptions: WaitOptions | undefined) =>
    assertValid([...problems, ...checkTimingOptions(waitOptions, 'options')], 'GetJobs');
  // A label-set write through the executor: a mutation, never retried.
  const mutation = (_operationName: string, callOptions: CallOptions | undefined, check: (data: unknown) => string | undefined): SendDocument =>
    (document, variables) => execute(document, variables as never, callOptions, { check, outcomeHint: LABEL_SET_WRITE_OUTCOME_HINT });

  const client: LabelingClient = {
    url: options.url,
    async request(document, ...[variables, callOptions]) {
      assertValid(checkTimingOptions(callOptions, 'options'), 'request');
      return execute(document, variables, callOptions);
    },
    async getCabinet(projectId, role, callOptions) {
      const problems = [...checkId(projectId, 'projectId'), ...checkRole(role, 'role')];
      return (await query(GetCabinetDocument, { projectId, role }, 'GetCabinet', problems, callOptions, objectField('getCabinet'))).getCabinet;
    },
    async getLabelSets(cabinetId, callOptions) {
      assertValid([...checkId(cabinetId, 'cabinetId'), ...checkTimingOptions(callOptions, 'options')], 'getCabinetLabelSetsById');
      const data = await labelSetDocuments.send((document) =>
        execute(document, { cabinetId }, callOptions, { check: labelSetList() }),
      );
      return [...data.getCabinetLabelSetsById].sort((a, b) => a.index - b.index);
    },
    async getProjectLabelSets(projectId, role, callOptions) {
      const cabinet = await client.getCabinet(projectId, role, callOptions);
      return client.getLabelSets(cabinet.id, callOptions);
    },
    async startAutoLabel(input, callOptions) {
      const allowInsecureEndpoint = callOptions?.allowInsecureEndpoint ?? false;
      const problems = [...validateAutoLabelInput(input, { allowInsecureEndpoint }), ...checkTimingOptions(callOptions, 'options')];
      assertValid(problems, 'AutoLabelTokenBasedProjectMutation');
      const normalized: AutoLabelInput = { ...input, options: { ...input.options, serviceProvider: input.options.serviceProvider ?? 'CUSTOM' } };
      const data = await execute(AutoLabelTokenBasedProjectMutationDocument, { input: normalized }, callOptions, { check: objectField('result', true) });
      return data.result;
    },
    async getJob(jobId, callOptions) {
      return (await query(GetJobDocument, { jobId }, 'GetJob', checkId(jobId, 'jobId'), callOptions, nullableJob())).getJob;
    },
    getJobs,
    async waitForJob(jobId, waitOptions) {
      checkWait(checkId(jobId, 'jobId'), waitOptions);
      return poller.wait(jobId, waitOptions);
    },
    async waitForJobs(jobIds, waitOptions) {
      checkWait(checkJobIds(jobIds), waitOptions);
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
    async createLabelSet(projectId, input, callOptions) {
      assertValid([...checkCreateLabelSet(projectId, input), ...checkTimingOptions(callOptions, 'options')], 'CreateLabelSet');
      const labelSet = {
        index: input.index,
        name: input.name,
        labelItems: input.labelItems.map(labelItemVariables),
        ...(input.arrowLabelRequired !== undefined && { arrowLabelRequired: input.arrowLabelRequired }),
      };
      const data = await labelSetDocuments.write('CreateLabelSet', { projectId, input: labelSet }, mutation('CreateLabelSet', callOptions, labelSetField('createLabelSet')));
      return data.createLabelSet;
    },
    async updateLabelSet(input, callOptions) {
      assertValid([...checkUpdateLabelSet(input), ...checkTimingOptions(callOptions, 'options')], 'UpdateProjectLabelSet');
      const change = {
        id: input.id,
        projectId: input.projectId,
        ...(input.labelSetSignature !== undefined && { labelSetSignature: input.labelSetSignature }),
        ...(input.name !== undefined && { name: input.name }),
        ...(input.labelItems !== undefined && { labelItems: input.labelItems.map(labelItemVariables) }),
      };
      const data = await labelSetDocuments.write('UpdateProjectLabelSet', { input: change }, mutation('UpdateProjectLabelSet', callOptions, labelSetField('updateProjectLabelSet')));
      return data.updateProjectLabelSet;
    },
    async appendLabelItems(input, callOptions) {
      assertValid([...checkAppendLabelItems(input), ...checkTimingOptions(callOptions, 'options')], 'AppendLabelSetLabelItems');
      const added = {
        labelSetId: input.labelSetId,
        ...(input.labelSetSignature !== undefined && { labelSetSignature: input.labelSetSignature }),
        labelItems: input.labelItems.map(newLabelItemVariables),
      };
      const check = labelItemList(input.labelItems.length);
      const data = await labelSetDocuments.write('AppendLabelSetLabelItems', { input: added }, mutation('AppendLabelSetLabelItems', callOptions, check));
      return data.appendLabelSetLabelItems ?? []; // never null here: labelItemList refuses a null answer
    },
    async deleteLabelSet(id, callOptions) {
      assertValid([...checkId(id, 'id'), ...checkTimingOptions(callOptions, 'options')], 'DeleteLabelSet');
      const data = await labelSetDocuments.write('DeleteLabelSet', { id }, mutation('DeleteLabelSet', callOptions, idList()));
      return data.deleteLabelSet;
    },
    async getAppliedLabelCounts(projectId, callOptions) {
      try {
        const problems = checkId(projectId, 'projectId');
        return (await query(EmulatorAppliedLabelCountsDocument, { projectId }, 'EmulatorAppliedLabelCounts', problems, callOptions, appliedLabelCountList())).emulatorAppliedLabelCounts;
      } catch (error) {
        if (unknownField(error, 'emulatorAppliedLabelCounts')) return null;
        throw error;
      }
    },
    close() {
      poller.close();
      closeExecutor();
    },
  };
  return client;
}
