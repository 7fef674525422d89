/**
 * labelkit: a typed client of the labeling service's GraphQL API.
 *
 * @remarks The entry exports the client (its heart is `client.request`, which runs any typed
 * document), the helpers, each a function that takes the client first (`getProjectLabelSets`,
 * `startAutoLabel`, `waitForJob`, …: an app ships only those it imports), the credential
 * factories (`clientCredentials`, `refreshingToken`: only they bring the token refresh), and
 * what its users need to call them and read their answers. Errors are told apart by
 * `code`: {@link AnyLabelkitError} is their union, narrowed by `code` to each kind's fields. The typed
 * documents alone are `labelkit/documents` (today's schema) and `labelkit/documents/labels` (the
 * renamed one); the model kit is `labelkit/model`. The CLI, the emulator and many-project runs
 * are in the `labelkit-tools` package.
 *
 * @packageDocumentation
 */
export { createLabelingClient } from './client.js';
export type { LabelingClient, LabelingClientOptions, RequestArguments } from './client.js';
export type { AuthContext, AuthSource, CallOptions, ExecutorOptions, RequestOptions, RetryOptions } from './options.js';
export type { HelperOptions } from './perClient.js';
export { clientCredentials, refreshingToken } from './auth.js';
export type { ClientCredentials, TokenTimeoutOptions } from './auth.js';
export { appendLabelItems, createLabelSet, deleteLabelSet, getCabinet, getLabelSets, getProjectLabelSets, updateLabelSet } from './labelSets.js';
export { getJob, getJobs, startAutoLabel, waitForJob, waitForJobOrThrow, waitForJobs } from './jobs.js';
export type { DocumentShape, TypedDocumentNode } from './typedDocument.js';
export type { PollOptions, WaitOptions } from './jobPoller.js';
export { AuthError, GraphQLRequestError, isLabelkitError, JobFailedError, JobNotFoundError, JobTimeoutError, LabelkitError, LabelHierarchyError, NetworkError, ProtocolError, ValidationError } from './errors.js';
export type { AnyLabelkitError, ErrorCode, ErrorDetails, GraphQLErrorEntry } from './errors.js';
export { validateAutoLabelInput } from './validation.js';
export type { AutoLabelValidationOptions, ValidationProblem } from './validation.js';
export type { Problem } from '../shared/problem.js';
export type { SchemaChangeEvent, SchemaGeneration } from './renameSwitch.js';
export type { AutoLabelInput, Cabinet, Job, JobErrorEntry, JobOutcome, JobSnapshot, JobStatus, LabelItem, LabelItemInput, LabelItemsAppendInput, LabelSet, LabelSetCreateInput, LabelSetUpdateInput, NewLabelItemInput, Role } from './types.js';
export { VERSION } from './version.js';
