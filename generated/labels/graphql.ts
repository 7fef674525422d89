/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '../../src/client/typedDocument.js';
/** Labels added at the top of an existing label set, keeping the labels it has. */
export type AppendLabelSetTagItemsInput = {
  /** The labels to add. */
  labelItems: Array<AppendTagItemInput>;
  /** The label set to add to. */
  labelSetId: string;
  /** The set's `signature` as last read, to say which version of the set the change is for. */
  labelSetSignature?: string | null | undefined;
};

/** A label added at the top of an existing set (`appendLabelSetTagItems`): it has no parent. */
export type AppendTagItemInput = {
  /** The label's colour, a `#rrggbb` string; null for none. */
  color?: string | null | undefined;
  /** A free-text description of the label. */
  desc?: string | null | undefined;
  /** The label's id; the service generates one when absent. */
  id?: string | null | undefined;
  /** The label's name; names compare case-insensitively. */
  labelName: string;
};

/** How an auto-labeling job calls the model. */
export type AutoLabelProjectOptionsInput = {
  /**
   * Lines sent to the model per request: 0 sends all lines of a document in one request,
   * N > 0 sends N lines per request.
   */
  numberOfFilesPerRequest: number;
  /** Who provides the predictions; only `CUSTOM` is supported. */
  serviceProvider?: GqlAutoLabelServiceProvider | null | undefined;
};

/** What to auto-label, as whom, and with which model. */
export type AutoLabelTokenBasedProjectInput = {
  /** The e-mail address of the labeler whose copies receive the predictions. */
  labelerEmail: string;
  /** How the model is called. */
  options: AutoLabelProjectOptionsInput;
  /** The id of the token-based (span) project to label. */
  projectId: string;
  /** The role whose cabinet receives the predictions; the service's default when absent. */
  role?: Role | null | undefined;
  /** The model endpoint and its secret. */
  targetAPI: TargetApiInput;
};

/** Where a cabinet's work stands. */
export type CabinetStatus =
  /** The copy's work is finished. */
  | 'COMPLETE'
  /** The copy's work goes on. */
  | 'IN_PROGRESS';

/** A new label set of a project. */
export type CreateLabelSetInput = {
  /** Whether every arrow must carry a label; false when absent. */
  arrowLabelRequired?: boolean | null | undefined;
  /** The set's zero-based position in its project, 0 to 4 (a project has at most five sets). */
  index?: number | null | undefined;
  /** The labels of the new set, flat; `parentId` links them into a hierarchy. */
  labelItems: Array<TagItemInput>;
  /** The set's name. */
  name?: string | null | undefined;
};

/** Which page of a document's lines to read: `page` for the first, then `cursor` until it is null. */
export type GetCellsPaginatedInput = {
  /** Where to go on from: a `nextCursor` or `prevCursor` of an earlier page. */
  cursor?: string | null | undefined;
  /** The page by offset (for the first page). */
  page?: OffsetPageInput | null | undefined;
};

/**
 * Which page of a document's labels to read: `page` for the first, then `cursor` (the last page's
 * `pageInfo.nextCursor`) until it is null.
 */
export type GetLabelsPaginatedInput = {
  /** Where to go on from: a `nextCursor` or `prevCursor` of an earlier page. */
  cursor?: string | null | undefined;
  /** The page by offset (for the first page). */
  page?: OffsetPageInput | null | undefined;
};

/**
 * Who provides the predictions of an auto-labeling job. This API supports only a
 * customer's own model, so labelkit knows only `CUSTOM`.
 */
export type GqlAutoLabelServiceProvider =
  /** The customer's own model, reached at `TargetApiInput.endpoint`. */
  | 'CUSTOM';

/** The life cycle of an asynchronous job. */
export type JobStatus =
  /** The job finished and its results were stored. */
  | 'DELIVERED'
  /** The job stopped with errors; see `Job.errors`. */
  | 'FAILED'
  /** The job is running; `Job.progress` moves from 0 to 100. */
  | 'IN_PROGRESS'
  /** The service knows no state for the job (yet). */
  | 'NONE'
  /** The job was accepted and waits for a worker. */
  | 'QUEUED';

/** A page by offset: skip this many nodes, then take this many. */
export type OffsetPageInput = {
  /** How many nodes to skip. */
  skip: number;
  /** How many nodes to answer at most. */
  take: number;
};

/** Which cabinet of a project to open: the labeler's working copy or the reviewer's. */
export type Role =
  /** The labeler's cabinet: the documents a labeler annotates. */
  | 'LABELER'
  /** The reviewer's cabinet: the documents a reviewer checks. */
  | 'REVIEWER';

/** A label of a label set as a write gives it (`createLabelSet`, `updateProjectLabelSet`). */
export type TagItemInput = {
  /** The label's colour, a `#rrggbb` string; null for none. */
  color?: string | null | undefined;
  /** A free-text description of the label. */
  desc?: string | null | undefined;
  /** The label's id, unique within its set; keep it to keep the labels applied with it. */
  id: string;
  /** The label's name; names compare case-insensitively. */
  labelName: string;
  /** The id of the parent label in the same set, or null for a top-level label. */
  parentId?: string | null | undefined;
};

/** Where the customer's model listens and the secret it expects. */
export type TargetApiInput = {
  /** The absolute URL of the model's prediction endpoint. */
  endpoint: string;
  /** The secret the service presents to the model; never echoed back. */
  secretKey: string;
};

/** A change to a project's label set: its name, or all of its labels at once. */
export type UpdateProjectLabelSetInput = {
  /** The label set to change. */
  id: string;
  /**
   * The set's new labels, replacing every label it has; unchanged when absent. Labels applied
   * with a label whose id is no longer in the list are removed.
   */
  labelItems?: Array<TagItemInput> | null | undefined;
  /** The set's `signature` as last read, to say which version of the set the change is for. */
  labelSetSignature?: string | null | undefined;
  /** The set's new name; unchanged when absent. */
  name?: string | null | undefined;
  /** The project the set belongs to. */
  projectId: string;
};

export type AppendLabelSetLabelItemsMutationVariables = Exact<{
  input: AppendLabelSetTagItemsInput;
}>;


export type AppendLabelSetLabelItemsMutation = { appendLabelSetLabelItems: Array<{ id: string, parentId: string | null, labelName: string, color: string | null, desc: string | null }> | null };

export type AutoLabelTokenBasedProjectMutationVariables = Exact<{
  input: AutoLabelTokenBasedProjectInput;
}>;


export type AutoLabelTokenBasedProjectMutation = { result: { id: string, status: JobStatus, progress: number } };

export type CreateLabelSetMutationVariables = Exact<{
  projectId: string;
  input: CreateLabelSetInput;
}>;


export type CreateLabelSetMutation = { createLabelSet: { id: string, index: number, name: string, signature: string | null, labelItems: Array<{ id: string, parentId: string | null, labelName: string, color: string | null, desc: string | null }> } };

export type DeleteLabelSetMutationVariables = Exact<{
  id: string;
}>;


export type DeleteLabelSetMutation = { deleteLabelSet: Array<string> };

export type GetCabinetQueryVariables = Exact<{
  projectId: string;
  role: Role;
}>;


export type GetCabinetQuery = { getCabinet: { id: string } };

export type GetCabinetLabelSetsByIdQueryVariables = Exact<{
  cabinetId: string;
}>;


export type GetCabinetLabelSetsByIdQuery = { getCabinetLabelSetsById: Array<{ id: string, index: number, name: string, signature: string | null, labelItems: Array<{ id: string, parentId: string | null, labelName: string, color: string | null, desc: string | null }> }> };

export type GetCellsQueryVariables = Exact<{
  documentId: string;
  input: GetCellsPaginatedInput;
  signature?: string | null | undefined;
}>;


export type GetCellsQuery = { getCells: { nodes: Array<unknown>, totalCount: number, pageInfo: { nextCursor: string | null } } };

export type GetJobQueryVariables = Exact<{
  jobId: string;
}>;


export type GetJobQuery = { getJob: { id: string, status: JobStatus, progress: number, resultId: string | null, createdAt: string, updatedAt: string, errors: Array<{ id: string, stack: string, args: Record<string, unknown> | null }> } | null };

export type GetJobsQueryVariables = Exact<{
  jobIds: Array<string> | string;
}>;


export type GetJobsQuery = { getJobs: Array<{ id: string, status: JobStatus, progress: number, resultId: string | null, createdAt: string, updatedAt: string, errors: Array<{ id: string, stack: string, args: Record<string, unknown> | null }> } | null> };

export type GetLabelsPaginatedQueryVariables = Exact<{
  documentId: string;
  input: GetLabelsPaginatedInput;
  signature?: string | null | undefined;
}>;


export type GetLabelsPaginatedQuery = { getLabelsPaginated: { nodes: Array<unknown>, totalCount: number, pageInfo: { nextCursor: string | null } } };

export type GetProjectCabinetsQueryVariables = Exact<{
  projectId: string;
}>;


export type GetProjectCabinetsQuery = { getProjectCabinets: Array<{ id: string, role: Role, status: CabinetStatus, documents: Array<{ id: string, originId: string | null, fileName: string, isCompleted: boolean }> }> };

export type GetProjectsFinalReportQueryVariables = Exact<{
  projectIds: Array<string> | string;
}>;


export type GetProjectsFinalReportQuery = { getProjectsFinalReport: Array<{ project: { id: string, name: string }, documentFinalReports: Array<{ cabinet: { id: string, role: Role }, document: { id: string, originId: string | null, fileName: string }, teamMember: { user: { email: string } | null } | null, finalReport: { precision: number, recall: number, totalAppliedLabels: number, totalAcceptedLabels: number, totalRejectedLabels: number, totalResolvedLabels: number } }> }> };

export type JobFieldsFragment = { id: string, status: JobStatus, progress: number, resultId: string | null, createdAt: string, updatedAt: string, errors: Array<{ id: string, stack: string, args: Record<string, unknown> | null }> };

export type UpdateProjectLabelSetMutationVariables = Exact<{
  input: UpdateProjectLabelSetInput;
}>;


export type UpdateProjectLabelSetMutation = { updateProjectLabelSet: { id: string, index: number, name: string, signature: string | null, labelItems: Array<{ id: string, parentId: string | null, labelName: string, color: string | null, desc: string | null }> } };

export const JobFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"stack"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"Field","name":{"kind":"Name","value":"resultId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<JobFieldsFragment, unknown>;
export const AppendLabelSetLabelItemsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppendLabelSetLabelItems"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AppendLabelSetTagItemsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendLabelSetLabelItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"labelName"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"desc"}}]}}]}}]} as unknown as DocumentNode<AppendLabelSetLabelItemsMutation, AppendLabelSetLabelItemsMutationVariables>;
export const AutoLabelTokenBasedProjectMutationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AutoLabelTokenBasedProjectMutation"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AutoLabelTokenBasedProjectInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"result"},"name":{"kind":"Name","value":"autoLabelTokenBasedProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}}]}}]}}]} as unknown as DocumentNode<AutoLabelTokenBasedProjectMutation, AutoLabelTokenBasedProjectMutationVariables>;
export const CreateLabelSetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateLabelSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateLabelSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createLabelSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"signature"}},{"kind":"Field","name":{"kind":"Name","value":"labelItems"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"labelName"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"desc"}}]}}]}}]}}]} as unknown as DocumentNode<CreateLabelSetMutation, CreateLabelSetMutationVariables>;
export const DeleteLabelSetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteLabelSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteLabelSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<DeleteLabelSetMutation, DeleteLabelSetMutationVariables>;
export const GetCabinetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetCabinet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"role"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Role"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getCabinet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}},{"kind":"Argument","name":{"kind":"Name","value":"role"},"value":{"kind":"Variable","name":{"kind":"Name","value":"role"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<GetCabinetQuery, GetCabinetQueryVariables>;
export const GetCabinetLabelSetsByIdDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"getCabinetLabelSetsById"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cabinetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getCabinetLabelSetsById"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"cabinetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cabinetId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"signature"}},{"kind":"Field","name":{"kind":"Name","value":"labelItems"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"labelName"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"desc"}}]}}]}}]}}]} as unknown as DocumentNode<GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables>;
export const GetCellsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetCells"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"documentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GetCellsPaginatedInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"signature"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getCells"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"documentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"documentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"signature"},"value":{"kind":"Variable","name":{"kind":"Name","value":"signature"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nextCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<GetCellsQuery, GetCellsQueryVariables>;
export const GetJobDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetJob"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"jobId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getJob"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"jobId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"jobId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"stack"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"Field","name":{"kind":"Name","value":"resultId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<GetJobQuery, GetJobQueryVariables>;
export const GetJobsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetJobs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"jobIds"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getJobs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"jobIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"jobIds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"JobFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"JobFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Job"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"stack"}},{"kind":"Field","name":{"kind":"Name","value":"args"}}]}},{"kind":"Field","name":{"kind":"Name","value":"resultId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<GetJobsQuery, GetJobsQueryVariables>;
export const GetLabelsPaginatedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetLabelsPaginated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"documentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GetLabelsPaginatedInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"signature"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getLabelsPaginated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"documentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"documentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"signature"},"value":{"kind":"Variable","name":{"kind":"Name","value":"signature"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nextCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<GetLabelsPaginatedQuery, GetLabelsPaginatedQueryVariables>;
export const GetProjectCabinetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetProjectCabinets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getProjectCabinets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"documents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"originId"}},{"kind":"Field","name":{"kind":"Name","value":"fileName"}},{"kind":"Field","name":{"kind":"Name","value":"isCompleted"}}]}}]}}]}}]} as unknown as DocumentNode<GetProjectCabinetsQuery, GetProjectCabinetsQueryVariables>;
export const GetProjectsFinalReportDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GetProjectsFinalReport"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"projectIds"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getProjectsFinalReport"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"projectIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"projectIds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"documentFinalReports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cabinet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"document"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"originId"}},{"kind":"Field","name":{"kind":"Name","value":"fileName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"teamMember"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"email"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"finalReport"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"precision"}},{"kind":"Field","name":{"kind":"Name","value":"recall"}},{"kind":"Field","name":{"kind":"Name","value":"totalAppliedLabels"}},{"kind":"Field","name":{"kind":"Name","value":"totalAcceptedLabels"}},{"kind":"Field","name":{"kind":"Name","value":"totalRejectedLabels"}},{"kind":"Field","name":{"kind":"Name","value":"totalResolvedLabels"}}]}}]}}]}}]}}]} as unknown as DocumentNode<GetProjectsFinalReportQuery, GetProjectsFinalReportQueryVariables>;
export const UpdateProjectLabelSetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateProjectLabelSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProjectLabelSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProjectLabelSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"signature"}},{"kind":"Field","name":{"kind":"Name","value":"labelItems"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}},{"kind":"Field","name":{"kind":"Name","value":"labelName"}},{"kind":"Field","name":{"kind":"Name","value":"color"}},{"kind":"Field","name":{"kind":"Name","value":"desc"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateProjectLabelSetMutation, UpdateProjectLabelSetMutationVariables>;