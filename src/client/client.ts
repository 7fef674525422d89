import type { AnyVariables } from '@urql/core';
import { AppendLabelSetLabelItemsDocument as TagsAppend, AutoLabelTokenBasedProjectMutationDocument, CreateLabelSetDocument as TagsCreate, DeleteLabelSetDocument, GetCabinetDocument, GetCabinetLabelSetsByIdDocument as TagsLabelSets, GetJobDocument, GetJobsDocument, UpdateProjectLabelSetDocument as TagsUpdate } from '../../generated/tags/graphql.js';
import { AppendLabelSetLabelItemsDocument as LabelsAppend, CreateLabelSetDocument as LabelsCreate, GetCabinetLabelSetsByIdDocument as LabelsLabelSets, UpdateProjectLabelSetDocument as LabelsUpdate } from '../../generated/labels/graphql.js';
import { DEFAULT_JOB_TIMEOUT_MS } from '../shared/constants.js';
import { checkId } from '../shared/problem.js';
import type { Problem } from '../shared/problem.js';
import type { AuthOptions } from './auth.js';
import { JobFailedError, JobNotFoundError, JobTimeoutError, ValidationError } from './errors.js';
import type { AnyLabelkitError, AuthError, GraphQLRequestError, NetworkError } from './errors.js';
import { createExecutor, operationOf } from './executor.js';
import type { CallOptions, RetryOptions } from './executor.js';
import { JobPoller } from './jobPoller.js';
import type { PollOptions, WaitOptions } from './jobPoller.js';
import { generationSwitch, newLabelItemInTags, labelItemInTags } from './labelSetDocuments.js';
import type { SchemaChangeEvent, SchemaGeneration } from './labelSetDocuments.js';
import type { TypedDocumentNode } from './typedDocument.js';
import type { AutoLabelInput, Cabinet, Job, JobOutcome, JobSnapshot, LabelItem, LabelItemsAppendInput, LabelSet, LabelSetCreateInput, LabelSetUpdateInput, Role } from './types.js';
import { checkAppendLabelItems, checkClientOptions, checkCreateLabelSet, checkJobIds, checkTimingOptions, checkUpdateLabelSet, validateAutoLabelInput } from './validation.js';

/** Options of {@link createLabelingClient}. Give exactly one of `token`, `getToken`, `clientCredentials`. */
export interface LabelingClientOptions extends AuthOptions {
  /** The GraphQL endpoint, e.g. `https://…/graphql` or the emulator's `http://127.0.0.1:4000/graphql`. */
  url: string;
  /** Time-out of one call, retries included. @defaultValue 30_000 */
  timeoutMs?: number | undefined;
  retry?: RetryOptions | undefined;
  /** How often waiting for jobs asks the service. */
  poll?: PollOptions | undefined;
  /** The fetch to use. @defaultValue globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Extra headers for every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Which generation of the service's schema the label-set query is written for: `tags` (today's
   * production, `tagItems`/`tagName`) or `labels` (after the service's rename). A `tags` client
   * switches to `labels` on its own, once, when the service refuses `tagItems`/`tagName`.
   * @defaultValue 'tags' (today's production; a service already renamed costs one extra request, once)
   */
  schemaGeneration?: SchemaGeneration | undefined;
  /** Called once when the client switches to the renamed label-set documents (see `schemaGeneration`). */
  onSchemaChange?: ((event: SchemaChangeEvent) => void) | undefined;
}

/**
 * The labeling service's client; see {@link createLabelingClient}.
 *
 * @remarks {@link LabelingClient.request} runs any typed document; the other methods are a few
 * lines each over it. What would do harm if sent is checked first (the auto-label input that
 * starts a job, the label-set writes, the call's and the wait's options) and rejects with a
 * {@link ValidationError} before anything is sent; reads take the typed arguments as they are.
 * Failures reject with the labelkit error family ({@link AnyLabelkitError}, told apart by
 * `code`): {@link AuthError}, {@link NetworkError} (codes `NETWORK`, `TIMEOUT`, `ABORTED`),
 * {@link GraphQLRequestError}, …
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
   * @throws a labelkit error (see {@link AnyLabelkitError}): `BAD_RESPONSE` when the answer lacks a
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
  startAutoLabel(input: AutoLabelInput, options?: CallOptions & { allowInsecureEndpoint?: boolean | undefined }): Promise<JobSnapshot>;
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
   * Ends every wait and call in progress (they reject with a {@link NetworkError} of code
   * `ABORTED`); no request leaves the client afterwards, and later calls reject at once.
   */
  close(): void;
}

/**
 * The arguments of {@link LabelingClient.request} after the document: the variables (optional
 * when the operation has none or only optional ones), then the call's options.
 *
 * @remarks The variables' type comes from the document alone (`NoInfer`): inferred from the
 * object given as well, a variable the operation does not declare next to all those it does
 * passed unnoticed; now it is an excess-property error (TS2353).
 */
export type RequestArguments<Variables> = { [key: string]: never } extends Variables
  ? [variables?: NoInfer<Variables>, options?: CallOptions]
  : [variables: NoInfer<Variables>, options?: CallOptions];

/** What a label-set write of unknown outcome tells the caller (instead of the job's hint). */
const LABEL_SET_WRITE_OUTCOME_HINT =
  '; the write may have reached the service and changed the label set although no answer arrived: read the label sets again before writing again';

/** Rejects with every problem at once, before anything is sent. */
function assertValid(operationName: string, problems: Problem[], callOptions?: object): void {
  const all = [...problems, ...checkTimingOptions(callOptions, 'options')];
  if (all.length > 0) throw new ValidationError(all, { operationName });
}

/**
 * A check of a list answer: a list, with one entry per entry asked when `count` is given
 * (production allows `null` for some).
 */
function listOf(name: string, list: unknown, count?: number, counted = 'entries', asked = 'ids'): string | undefined {
  if (!Array.isArray(list)) return `${name} is not a list`;
  return count === undefined || list.length === count ? undefined : `${name} has ${list.length} ${counted} for ${count} ${asked}`;
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
 * documents follow the service across its tag→label rename on their own (see `schemaGeneration`).
 * @example
 * ```ts
 * import { createLabelingClient } from 'labelkit';
 * const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN });
 * const sets = await client.getProjectLabelSets('PROJECT_ID', 'LABELER');
 * ```
 */
export function createLabelingClient(options: LabelingClientOptions): LabelingClient {
  assertValid('createLabelingClient', checkClientOptions(options));
  const { execute, close: closeExecutor } = createExecutor(options);
  const inGeneration = generationSwitch(options.schemaGeneration ?? 'tags', options.onSchemaChange);
  // Polls read the jobs without validating again: the ids were checked when the wait began.
  const readJobs = async (jobIds: string[], callOptions?: CallOptions) =>
    (await execute(GetJobsDocument, { jobIds }, callOptions, { check: (d) => listOf('getJobs', d.getJobs, jobIds.length) })).getJobs;
  const poller = new JobPoller((ids, signal) => readJobs(ids, { signal }), options.poll);
  const write = { outcomeHint: LABEL_SET_WRITE_OUTCOME_HINT };

  const client: LabelingClient = {
    url: options.url,
    async request(document, ...[variables, callOptions]) {
      assertValid(operationOf(document).operationName, [], callOptions);
      return execute(document, variables, callOptions);
    },
    async getCabinet(projectId, role, callOptions) {
      return (await client.request(GetCabinetDocument, { projectId, role }, callOptions)).getCabinet;
    },
    async getLabelSets(cabinetId, callOptions) {
      assertValid('getCabinetLabelSetsById', [], callOptions);
      const check = (d: { getCabinetLabelSetsById: unknown }) => listOf('getCabinetLabelSetsById', d.getCabinetLabelSetsById);
      const data = await inGeneration('getCabinetLabelSetsById', (generation) => execute(generation === 'tags' ? TagsLabelSets : LabelsLabelSets, { cabinetId }, callOptions, { check }));
      return data.getCabinetLabelSetsById.sort((a, b) => a.index - b.index);
    },
    async getProjectLabelSets(projectId, role, callOptions) {
      const cabinet = await client.getCabinet(projectId, role, callOptions);
      return client.getLabelSets(cabinet.id, callOptions);
    },
    async startAutoLabel(input, callOptions) {
      assertValid('AutoLabelTokenBasedProjectMutation', validateAutoLabelInput(input, { allowInsecureEndpoint: callOptions?.allowInsecureEndpoint }), callOptions);
      const job = { ...input, options: { ...input.options, serviceProvider: input.options.serviceProvider ?? 'CUSTOM' } } satisfies AutoLabelInput;
      return (await execute(AutoLabelTokenBasedProjectMutationDocument, { input: job }, callOptions)).result;
    },
    async getJob(jobId, callOptions) {
      return (await client.request(GetJobDocument, { jobId }, callOptions)).getJob;
    },
    async getJobs(jobIds, callOptions) {
      assertValid('GetJobs', [], callOptions);
      return readJobs(jobIds, callOptions);
    },
    async waitForJob(jobId, waitOptions) {
      assertValid('GetJobs', checkId(jobId, 'jobId'), waitOptions);
      return (await poller.waitAll([jobId], waitOptions))[0]!;
    },
    async waitForJobs(jobIds, waitOptions) {
      assertValid('GetJobs', checkJobIds(jobIds), waitOptions);
      // One group: one abort listener for all ids; one failure ends every wait of the group.
      return poller.waitAll(jobIds, waitOptions);
    },
    async waitForJobOrThrow(jobId, waitOptions) {
      const result = await client.waitForJob(jobId, waitOptions);
      if (result.outcome === 'delivered') return result.job;
      if (result.outcome === 'failed') throw new JobFailedError(result.job);
      if (result.outcome === 'not-found') throw new JobNotFoundError(jobId);
      throw new JobTimeoutError(jobId, result.job, waitOptions?.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS);
    },
    // The writes take labelkit's input as the renamed generation's variables; today's words are one typed conversion.
    async createLabelSet(projectId, input, callOptions) {
      assertValid('CreateLabelSet', checkCreateLabelSet(projectId, input), callOptions);
      const { labelItems, ...set } = input;
      const data = await inGeneration('CreateLabelSet', (generation) =>
        generation === 'labels' ? execute(LabelsCreate, { projectId, input }, callOptions, write) : execute(TagsCreate, { projectId, input: { ...set, tagItems: labelItems.map(labelItemInTags) } }, callOptions, write));
      return data.createLabelSet;
    },
    async updateLabelSet(input, callOptions) {
      assertValid('UpdateProjectLabelSet', checkUpdateLabelSet(input), callOptions);
      const { labelItems, ...change } = input;
      const data = await inGeneration('UpdateProjectLabelSet', (generation) =>
        generation === 'labels' ? execute(LabelsUpdate, { input }, callOptions, write) : execute(TagsUpdate, { input: { ...change, ...(labelItems && { tagItems: labelItems.map(labelItemInTags) }) } }, callOptions, write));
      return data.updateProjectLabelSet;
    },
    async appendLabelItems(input, callOptions) {
      assertValid('AppendLabelSetLabelItems', checkAppendLabelItems(input), callOptions);
      const { labelItems, ...set } = input;
      const check = (d: { appendLabelSetLabelItems: unknown }) => listOf('appendLabelSetLabelItems', d.appendLabelSetLabelItems, labelItems.length, 'label items', 'sent');
      const data = await inGeneration('AppendLabelSetLabelItems', (generation) =>
        generation === 'labels' ? execute(LabelsAppend, { input }, callOptions, { ...write, check }) : execute(TagsAppend, { input: { ...set, tagItems: labelItems.map(newLabelItemInTags) } }, callOptions, { ...write, check }));
      return data.appendLabelSetLabelItems ?? []; // never null here: the check refuses a null answer
    },
    async deleteLabelSet(id, callOptions) {
      assertValid('DeleteLabelSet', checkId(id, 'id'), callOptions);
      return (await execute(DeleteLabelSetDocument, { id }, callOptions, write)).deleteLabelSet;
    },
    close() {
      poller.close();
      closeExecutor();
    },
  };
  return client;
}
