import { AutoLabelTokenBasedProjectMutationDocument, GetJobDocument, GetJobsDocument } from '../../generated/tags/graphql.js';
import { DEFAULT_JOB_TIMEOUT_MS } from '../shared/constants.js';
import { checkId } from '../shared/problem.js';
import type { Requester } from './client.js';
import { perClient } from './perClient.js';
import { JobFailedError, JobNotFoundError, JobTimeoutError } from './errors.js';
import type { CallOptions } from './options.js';
import { createJobPoller, type WaitOptions } from './jobPoller.js';
import type { AutoLabelInput, Job, JobOutcome, JobSnapshot } from './types.js';
import { assertValid, checkJobIds, listProblem, validateAutoLabelInput } from './validation.js';
// For TSDoc links only.
import type { NetworkError } from './errors.js';

/** Reads jobs without validating the ids again (a poll's ids were checked when its wait began). */
const readJobs = async (client: Requester, jobIds: string[], callOptions?: CallOptions) =>
  (await client.request(GetJobsDocument, { jobIds }, { ...callOptions, check: (d) => listProblem('getJobs', d.getJobs, jobIds.length) })).getJobs;

/** The one job poll of each client, beside it: made on the first wait, ended by the client's close(). */
const pollerOf = /* @__PURE__ */ perClient(({ poll, closed }, client: Requester) => {
  const poller = createJobPoller((ids, signal) => readJobs(client, ids, { signal }), poll);
  if (closed?.aborted) poller.close();
  else closed?.addEventListener('abort', () => poller.close(), { once: true });
  return poller;
});

/**
 * Starts auto-labeling of a project by the customer's model; returns the new job at once.
 *
 * @param client - a client made by `createLabelingClient`
 * @param input - project, labeler e-mail, batching options and the model's endpoint and secret key
 * @param options - signal and time-out; `allowInsecureEndpoint` to accept a plain-http
 * endpoint on a non-loopback host (the secret key would travel in clear)
 * @returns the job's id, status and progress
 * @throws `ValidationError` before anything is sent, with every problem of the input;
 * {@link NetworkError} with `mutationOutcomeUnknown: true` when the request may have reached the
 * service (a job may have started and its id is unknown: look at the project in the service
 * before starting another). Never retried.
 * @example
 * ```ts
 * const job = await startAutoLabel(client, { projectId, labelerEmail, options: { numberOfFilesPerRequest: 50 }, targetAPI: { endpoint, secretKey } });
 * ```
 */
export async function startAutoLabel(client: Requester, input: AutoLabelInput, options?: CallOptions & { allowInsecureEndpoint?: boolean | undefined }): Promise<JobSnapshot> {
  assertValid('AutoLabelTokenBasedProjectMutation', validateAutoLabelInput(input, { allowInsecureEndpoint: options?.allowInsecureEndpoint }), options);
  const job = { ...input, options: { ...input.options, serviceProvider: input.options.serviceProvider ?? 'CUSTOM' } } satisfies AutoLabelInput;
  return (await client.request(AutoLabelTokenBasedProjectMutationDocument, { input: job }, options)).result;
}

/**
 * One job, or null when the service knows no such job.
 *
 * @param client - a client made by `createLabelingClient`
 * @param jobId - the job's id
 * @param options - signal and time-out of this call
 * @returns the job with its errors, or null
 */
export async function getJob(client: Requester, jobId: string, options?: CallOptions): Promise<Job | null> {
  return (await client.request(GetJobDocument, { jobId }, options)).getJob;
}

/**
 * Many jobs in one request.
 *
 * @param client - a client made by `createLabelingClient`
 * @param jobIds - a non-empty list of ids
 * @param options - signal and time-out of this call
 * @returns the jobs in the order asked, null where unknown
 * @throws `BAD_RESPONSE` when the answer does not hold one entry per id
 */
export async function getJobs(client: Requester, jobIds: string[], options?: CallOptions): Promise<(Job | null)[]> {
  return readJobs(client, jobIds, options);
}

/**
 * Waits until a job ends. All waits of a client share one getJobs request per interval.
 *
 * @param client - a client made by `createLabelingClient` (its `poll` sets the intervals)
 * @param jobId - the job's id
 * @param options - time-out of the whole wait, signal, not-found grace, onProgress
 * @returns a tagged outcome: delivered, failed (with the job's errors), timed-out (with the
 * last snapshot) or not-found; it rejects only on abort (or the client's close()) or a
 * non-transient error (e.g. auth)
 * @example
 * ```ts
 * const outcome = await waitForJob(client, job.id, { timeoutMs: 60_000 });
 * ```
 */
export async function waitForJob(client: Requester, jobId: string, options?: WaitOptions): Promise<JobOutcome> {
  assertValid('GetJobs', checkId(jobId, 'jobId'), options);
  return (await pollerOf(client).waitAll([jobId], options))[0]!;
}

/**
 * Waits for many jobs with one request per interval.
 *
 * @param client - a client made by `createLabelingClient`
 * @param jobIds - a non-empty list of ids
 * @param options - as for {@link waitForJob}, applied to each job
 * @returns the outcomes in the order asked
 */
export async function waitForJobs(client: Requester, jobIds: string[], options?: WaitOptions): Promise<JobOutcome[]> {
  assertValid('GetJobs', checkJobIds(jobIds), options);
  // One group: one abort listener for all ids; one failure ends every wait of the group.
  return pollerOf(client).waitAll(jobIds, options);
}

/**
 * Like {@link waitForJob}, but resolves only with a delivered job.
 *
 * @param client - a client made by `createLabelingClient`
 * @param jobId - the job's id
 * @param options - as for waitForJob
 * @returns the delivered job
 * @throws {@link JobFailedError}, {@link JobTimeoutError} or {@link JobNotFoundError}
 */
export async function waitForJobOrThrow(client: Requester, jobId: string, options?: WaitOptions): Promise<Job> {
  const result = await waitForJob(client, jobId, options);
  if (result.outcome === 'delivered') return result.job;
  if (result.outcome === 'failed') throw new JobFailedError(result.job);
  if (result.outcome === 'not-found') throw new JobNotFoundError(jobId);
  throw new JobTimeoutError(jobId, result.job, options?.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS);
}
