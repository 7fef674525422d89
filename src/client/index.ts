/**
 * labelkit: a typed client of the labeling service's GraphQL API.
 *
 * @packageDocumentation
 */
export { createLabelingClient } from './client.js';
export type { LabelingClient, LabelingClientOptions } from './client.js';
export type { CallOptions, RetryOptions } from './executor.js';
export type { AuthOptions, ClientCredentials } from './auth.js';
export type { PollOptions, WaitOptions } from './jobPoller.js';
export {
  AuthError,
  GraphQLRequestError,
  isLabelkitError,
  JobFailedError,
  JobNotFoundError,
  JobTimeoutError,
  LabelkitError,
  LabelSetError,
  NetworkError,
  ProtocolError,
  ValidationError,
} from './errors.js';
export type { ErrorCode, ErrorDetails, GraphQLErrorEntry } from './errors.js';
export { validateAutoLabelInput } from './validation.js';
export type { AutoLabelValidationOptions, ValidationProblem } from './validation.js';
export { buildLabelTree } from './labelTree.js';
export { autoLabelMany } from './autoLabelMany.js';
export type { AutoLabelManyOptions, AutoLabelManyResult, ManyEvent, ManyOutcomeKind, ProjectOutcome } from './autoLabelMany.js';
export { checkJournalRecord, createMemoryJournal, replayJournal } from './journal.js';
export type { Journal, JournalContents, JournalProjectConfig, JournalProjectState, JournalRecord } from './journal.js';
export type { PlannedProject, RerunRules } from './manyPlan.js';
export type { SchemaChangeEvent, SchemaGeneration } from './labelSetDocuments.js';
export type { LabelNode, LabelTree } from './labelTree.js';
export type {
  AutoLabelInput,
  Cabinet,
  Job,
  JobErrorEntry,
  JobOutcome,
  JobSnapshot,
  JobStatus,
  LabelItem,
  LabelSet,
  Role,
} from './types.js';
export { VERSION } from './version.js';
// The typed documents, for use with any GraphQL client that understands TypedDocumentNode.
export {
  AutoLabelTokenBasedProjectMutationDocument,
  GetCabinetDocument,
  GetCabinetLabelSetsByIdDocument,
  GetJobDocument,
  GetJobsDocument,
  JobFieldsFragmentDoc,
} from '../../generated/graphql.js';
export type {
  AutoLabelTokenBasedProjectMutation,
  AutoLabelTokenBasedProjectMutationVariables,
  GetCabinetLabelSetsByIdQuery,
  GetCabinetLabelSetsByIdQueryVariables,
  GetCabinetQuery,
  GetCabinetQueryVariables,
  GetJobQuery,
  GetJobQueryVariables,
  GetJobsQuery,
  GetJobsQueryVariables,
  JobFieldsFragment,
} from '../../generated/graphql.js';
