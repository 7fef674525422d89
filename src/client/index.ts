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
  AppliedLabelCount,
  AutoLabelInput,
  Cabinet,
  Job,
  JobErrorEntry,
  JobOutcome,
  JobSnapshot,
  JobStatus,
  LabelItem,
  LabelItemInput,
  LabelItemsAppendInput,
  LabelSet,
  LabelSetCreateInput,
  LabelSetUpdateInput,
  NewLabelItemInput,
  Role,
} from './types.js';
export { VERSION } from './version.js';
// The typed documents, for use with any GraphQL client that understands TypedDocumentNode.
export {
  AppendLabelSetLabelItemsDocument,
  AutoLabelTokenBasedProjectMutationDocument,
  CreateLabelSetDocument,
  DeleteLabelSetDocument,
  GetCabinetDocument,
  GetCabinetLabelSetsByIdDocument,
  GetJobDocument,
  GetJobsDocument,
  JobFieldsFragmentDoc,
  UpdateProjectLabelSetDocument,
} from '../../generated/graphql.js';
export type {
  AppendLabelSetLabelItemsMutation,
  AppendLabelSetLabelItemsMutationVariables,
  AutoLabelTokenBasedProjectMutation,
  AutoLabelTokenBasedProjectMutationVariables,
  CreateLabelSetMutation,
  CreateLabelSetMutationVariables,
  DeleteLabelSetMutation,
  DeleteLabelSetMutationVariables,
  GetCabinetLabelSetsByIdQuery,
  GetCabinetLabelSetsByIdQueryVariables,
  GetCabinetQuery,
  GetCabinetQueryVariables,
  GetJobQuery,
  GetJobQueryVariables,
  GetJobsQuery,
  GetJobsQueryVariables,
  JobFieldsFragment,
  UpdateProjectLabelSetMutation,
  UpdateProjectLabelSetMutationVariables,
} from '../../generated/graphql.js';
