import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { StoredCabinet as StoredCabinetModel, StoredLabelSet as StoredLabelSetModel, StoredLabel as StoredLabelModel, StoredJob as StoredJobModel, StoredJobError as StoredJobErrorModel } from '../../src/emulator/types.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /**
   * A line of a document as JSON (production's `Cell`: `line`, `index`, `content`, `tokens`, …).
   * Production does not publish its shape: read it as unknown JSON and check each field before use.
   */
  CellScalar: { input: unknown; output: unknown; }
  /** The arguments of a job error, as a JSON object. Production types it as a custom scalar. */
  JobErrorArgs: { input: Record<string, unknown>; output: Record<string, unknown>; }
  /**
   * A label applied in a document copy, as JSON with the fields of `TextLabel`. Production does not
   * publish its shape: read it as unknown JSON and check each field before use.
   */
  TextLabelScalar: { input: unknown; output: unknown; }
};

/** Labels added at the top of an existing label set, keeping the labels it has. */
export type AppendLabelSetTagItemsInput = {
  /** The labels to add. */
  labelItems: Array<AppendTagItemInput>;
  /** The label set to add to. */
  labelSetId: Scalars['ID']['input'];
  /** The set's `signature` as last read, to say which version of the set the change is for. */
  labelSetSignature?: InputMaybe<Scalars['String']['input']>;
};

/** A label added at the top of an existing set (`appendLabelSetTagItems`): it has no parent. */
export type AppendTagItemInput = {
  /** The label's colour, a `#rrggbb` string; null for none. */
  color?: InputMaybe<Scalars['String']['input']>;
  /** A free-text description of the label. */
  desc?: InputMaybe<Scalars['String']['input']>;
  /** The label's id; the service generates one when absent. */
  id?: InputMaybe<Scalars['ID']['input']>;
  /** The label's name; names compare case-insensitively. */
  labelName: Scalars['String']['input'];
};

/** How an auto-labeling job calls the model. */
export type AutoLabelProjectOptionsInput = {
  /**
   * Lines sent to the model per request: 0 sends all lines of a document in one request,
   * N > 0 sends N lines per request.
   */
  numberOfFilesPerRequest: Scalars['Int']['input'];
  /** Who provides the predictions; only `CUSTOM` is supported. */
  serviceProvider?: InputMaybe<GqlAutoLabelServiceProvider>;
};

/** What to auto-label, as whom, and with which model. */
export type AutoLabelTokenBasedProjectInput = {
  /** The e-mail address of the labeler whose copies receive the predictions. */
  labelerEmail: Scalars['String']['input'];
  /** How the model is called. */
  options: AutoLabelProjectOptionsInput;
  /** The id of the token-based (span) project to label. */
  projectId: Scalars['ID']['input'];
  /** The role whose cabinet receives the predictions; the service's default when absent. */
  role?: InputMaybe<Role>;
  /** The model endpoint and its secret. */
  targetAPI: TargetApiInput;
};

/**
 * A copy of a project for one role: a labeler's copy of the documents, or the project's one
 * reviewer copy. It names no owner: `getProjectsFinalReport` tells whose copy a cabinet is.
 */
export type Cabinet = {
  __typename?: 'Cabinet';
  /** The copy's documents; each has an id of its own and the id of the project's document it copies. */
  documents: Array<TextDocument>;
  /** The cabinet's id, the key to its label sets. */
  id: Scalars['ID']['output'];
  /** Whether the copy is a labeler's or the reviewer's. */
  role: Role;
  /** Whether the copy's work is finished. */
  status: CabinetStatus;
};

/** Where a cabinet's work stands. */
export type CabinetStatus =
  /** The copy's work is finished. */
  | 'COMPLETE'
  /** The copy's work goes on. */
  | 'IN_PROGRESS';

/**
 * A line of a document: the published shape of a `CellScalar` node. No field returns it; it
 * documents the JSON of `getCells`' nodes.
 */
export type Cell = {
  __typename?: 'Cell';
  /** The line's text. */
  content: Scalars['String']['output'];
  /** The zero-based column number of the cell within its line (0 for a text document). */
  index: Scalars['Int']['output'];
  /** The zero-based line number. */
  line: Scalars['Int']['output'];
  /** Whether the line is shown, hidden or deleted. */
  status: CellStatus;
  /** The line's tokens, in order; `TextCursor.tokenId` counts them. */
  tokens: Array<Scalars['String']['output']>;
};

/** Whether a line is shown. */
export type CellStatus =
  /** The line was deleted. */
  | 'DELETED'
  /** The line is shown. */
  | 'DISPLAYED'
  /** The line is hidden. */
  | 'HIDDEN';

/** Who put a label where it is, or how a disagreement about it was settled. */
export type ConflictTextLabelResolutionStrategy =
  /** Accepted without a reviewer's decision, e.g. by the labelers' consensus. */
  | 'AUTO'
  /** Labelers disagree and nobody has settled it: not accepted. */
  | 'CONFLICT'
  /** Put by an outside source. */
  | 'EXTERNAL'
  /** Put by a labeler. */
  | 'LABELER'
  /** Present before labeling began. */
  | 'PRELABELED'
  /** Put or accepted by the reviewer. */
  | 'REVIEWER';

/** A new label set of a project. */
export type CreateLabelSetInput = {
  /** Whether every arrow must carry a label; false when absent. */
  arrowLabelRequired?: InputMaybe<Scalars['Boolean']['input']>;
  /** The set's zero-based position in its project, 0 to 4 (a project has at most five sets). */
  index?: InputMaybe<Scalars['Int']['input']>;
  /** The labels of the new set, flat; `parentId` links them into a hierarchy. */
  labelItems: Array<TagItemInput>;
  /** The set's name. */
  name?: InputMaybe<Scalars['String']['input']>;
};

/** The final report of one copy (one cabinet) of one document. */
export type DocumentFinalReport = {
  __typename?: 'DocumentFinalReport';
  /** The copy's cabinet: its id and role. */
  cabinet: Cabinet;
  /** The document copy. */
  document: TextDocument;
  /** The figures. */
  finalReport: FinalReport;
  /** Whose copy it is: the labeler, with their e-mail. */
  teamMember?: Maybe<TeamMember>;
};

/** The service's own figures for one copy of one document, against the reviewer copy. */
export type FinalReport = {
  __typename?: 'FinalReport';
  /** The share of the copy's applied labels that the reviewer accepted, 0 to 1. */
  precision: Scalars['Float']['output'];
  /** The share of the reviewer copy's labels that the copy has, 0 to 1. */
  recall: Scalars['Float']['output'];
  /** How many of them the reviewer accepted. */
  totalAcceptedLabels: Scalars['Int']['output'];
  /** How many labels the copy applied. */
  totalAppliedLabels: Scalars['Int']['output'];
  /** How many of them the reviewer rejected. */
  totalRejectedLabels: Scalars['Int']['output'];
  /** How many of them were settled, accepted or rejected. */
  totalResolvedLabels: Scalars['Int']['output'];
};

/** Which page of a document's lines to read: `page` for the first, then `cursor` until it is null. */
export type GetCellsPaginatedInput = {
  /** Where to go on from: a `nextCursor` or `prevCursor` of an earlier page. */
  cursor?: InputMaybe<Scalars['String']['input']>;
  /** The page by offset (for the first page). */
  page?: InputMaybe<OffsetPageInput>;
};

/** A page of a document's lines. */
export type GetCellsPaginatedResponse = PaginatedResponse & {
  __typename?: 'GetCellsPaginatedResponse';
  /** The page's lines, as JSON with the fields of `Cell`. */
  nodes: Array<Scalars['CellScalar']['output']>;
  /** Where the next and previous pages start. */
  pageInfo: PageInfo;
  /** How many lines the document has. */
  totalCount: Scalars['Int']['output'];
};

/**
 * Which page of a document's labels to read: `page` for the first, then `cursor` (the last page's
 * `pageInfo.nextCursor`) until it is null.
 */
export type GetLabelsPaginatedInput = {
  /** Where to go on from: a `nextCursor` or `prevCursor` of an earlier page. */
  cursor?: InputMaybe<Scalars['String']['input']>;
  /** The page by offset (for the first page). */
  page?: InputMaybe<OffsetPageInput>;
};

/** A page of a document copy's labels. */
export type GetLabelsPaginatedResponse = PaginatedResponse & {
  __typename?: 'GetLabelsPaginatedResponse';
  /** The page's labels, as JSON with the fields of `TextLabel`. */
  nodes: Array<Scalars['TextLabelScalar']['output']>;
  /** Where the next and previous pages start. */
  pageInfo: PageInfo;
  /** How many labels the document copy holds. */
  totalCount: Scalars['Int']['output'];
};

/**
 * Who provides the predictions of an auto-labeling job. This API supports only a
 * customer's own model, so labelkit knows only `CUSTOM`.
 */
export type GqlAutoLabelServiceProvider =
  | 'ASSISTED_LABELING'
  | 'CORENLP_NER'
  | 'CORENLP_POS'
  /** The customer's own model, reached at `TargetApiInput.endpoint`. */
  | 'CUSTOM'
  | 'DISTILBERT_OPIEC'
  | 'HUGGINGFACE'
  | 'NLTK'
  | 'SENTIMENT_ANALYSIS'
  | 'SPACY'
  | 'SPARKNLP_NER'
  | 'SPARKNLP_POS';

/** An asynchronous piece of work started by a mutation, read back with `getJob` or `getJobs`. */
export type Job = {
  __typename?: 'Job';
  /** When the job was created, as an ISO-8601 timestamp. */
  createdAt: Scalars['String']['output'];
  /** The errors the job met; empty while all goes well. */
  errors: Array<JobError>;
  /** The job's id. */
  id: Scalars['String']['output'];
  /** How much of the job is done, from 0 to 100. */
  progress: Scalars['Int']['output'];
  /** The id of the job's result, once there is one. */
  resultId?: Maybe<Scalars['String']['output']>;
  /** Where the job is in its life cycle. */
  status: JobStatus;
  /** When the job last changed, as an ISO-8601 timestamp. */
  updatedAt: Scalars['String']['output'];
};

/** One error that a job met, with the arguments of the step that failed. */
export type JobError = {
  __typename?: 'JobError';
  /** The arguments of the failed step, as JSON; never holds a secret. */
  args?: Maybe<Scalars['JobErrorArgs']['output']>;
  /** The error's id within the job. */
  id: Scalars['String']['output'];
  /** What went wrong, as text. */
  stack: Scalars['String']['output'];
};

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

/** Which kinds of annotation a label may be used for. */
export type LabelClassType =
  /** The label may mark spans and arrows. */
  | 'ALL'
  /** The label may only mark arrows (relations between spans). */
  | 'ARROW'
  /** The label may only mark spans of text. */
  | 'SPAN';

/** A named list of labels. A project has at most five, ordered by `index`. */
export type LabelSet = {
  __typename?: 'LabelSet';
  /** Whether every arrow must carry a label. */
  arrowLabelRequired: Scalars['Boolean']['output'];
  /** The label set's id. */
  id: Scalars['ID']['output'];
  /** The zero-based position of the set within its project. */
  index: Scalars['Int']['output'];
  /** The labels of the set, flat; `parentId` links them into a hierarchy. */
  labelItems: Array<TagItem>;
  /** The set's name. */
  name: Scalars['String']['output'];
  /** A hex digest of the set's items; absent on some sets. */
  signature?: Maybe<Scalars['String']['output']>;
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Adds labels at the top of a label set; answers the new labels only, with their ids. */
  appendLabelSetLabelItems?: Maybe<Array<TagItem>>;
  /**
   * Starts ML-assisted labeling of a token-based project with the customer's model.
   * Returns the job at once; the labeling goes on afterwards.
   */
  autoLabelTokenBasedProject: Job;
  /** Creates a label set in a project; it appears in `getCabinetLabelSetsById`. */
  createLabelSet: LabelSet;
  /** Deletes a label set; the labels applied with its labels are removed. */
  deleteLabelSet: Array<Scalars['ID']['output']>;
  /** Renames a project's label set or replaces all of its labels. */
  updateProjectLabelSet: LabelSet;
};


export type MutationAppendLabelSetLabelItemsArgs = {
  input: AppendLabelSetTagItemsInput;
};


export type MutationAutoLabelTokenBasedProjectArgs = {
  input: AutoLabelTokenBasedProjectInput;
};


export type MutationCreateLabelSetArgs = {
  input: CreateLabelSetInput;
  projectId?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationDeleteLabelSetArgs = {
  id: Scalars['ID']['input'];
};


export type MutationUpdateProjectLabelSetArgs = {
  input: UpdateProjectLabelSetInput;
};

/** A page by offset: skip this many nodes, then take this many. */
export type OffsetPageInput = {
  /** How many nodes to skip. */
  skip: Scalars['Int']['input'];
  /** How many nodes to answer at most. */
  take: Scalars['Int']['input'];
};

/** Where the next and previous pages of a paginated read start. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** Pass it as `input.cursor` to read the next page; null after the last page. */
  nextCursor?: Maybe<Scalars['String']['output']>;
  /** Pass it as `input.cursor` to read the previous page; null on the first page. */
  prevCursor?: Maybe<Scalars['String']['output']>;
};

/** A page of a paginated read. */
export type PaginatedResponse = {
  /** Where the next and previous pages start. */
  pageInfo: PageInfo;
  /** How many nodes all pages hold together. */
  totalCount: Scalars['Int']['output'];
};

/** A project, as a report names it. */
export type Project = {
  __typename?: 'Project';
  /** The project's id. */
  id: Scalars['ID']['output'];
  /** The project's name. */
  name: Scalars['String']['output'];
};

/** The final reports of one project. */
export type ProjectFinalReport = {
  __typename?: 'ProjectFinalReport';
  /** One report per copy and document. */
  documentFinalReports: Array<DocumentFinalReport>;
  /** The project. */
  project: Project;
};

export type Query = {
  __typename?: 'Query';
  /** The cabinet of a project for one role. */
  getCabinet: Cabinet;
  /** The label sets of a cabinet's project. */
  getCabinetLabelSetsById: Array<LabelSet>;
  /** A page of the lines of one document copy, with their tokens. */
  getCells: GetCellsPaginatedResponse;
  /** One job by id, or null when the service knows no such job. */
  getJob?: Maybe<Job>;
  /** Many jobs by id, in the order asked; null where a job is unknown. */
  getJobs: Array<Maybe<Job>>;
  /**
   * A page of the labels of one document copy (a `TextDocument.id` of a cabinet). `signature` is the
   * document's signature as last read; optional.
   */
  getLabelsPaginated: GetLabelsPaginatedResponse;
  /** Every cabinet of a project: one per labeler and the reviewer's. */
  getProjectCabinets: Array<Cabinet>;
  /** The service's precision and recall per copy and document, with the labeler behind each copy. */
  getProjectsFinalReport: Array<ProjectFinalReport>;
};


export type QueryGetCabinetArgs = {
  projectId: Scalars['ID']['input'];
  role: Role;
};


export type QueryGetCabinetLabelSetsByIdArgs = {
  cabinetId: Scalars['ID']['input'];
};


export type QueryGetCellsArgs = {
  documentId: Scalars['ID']['input'];
  input: GetCellsPaginatedInput;
  signature?: InputMaybe<Scalars['String']['input']>;
};


export type QueryGetJobArgs = {
  jobId: Scalars['String']['input'];
};


export type QueryGetJobsArgs = {
  jobIds: Array<Scalars['String']['input']>;
};


export type QueryGetLabelsPaginatedArgs = {
  documentId: Scalars['ID']['input'];
  input: GetLabelsPaginatedInput;
  signature?: InputMaybe<Scalars['String']['input']>;
};


export type QueryGetProjectCabinetsArgs = {
  projectId: Scalars['ID']['input'];
};


export type QueryGetProjectsFinalReportArgs = {
  projectIds: Array<Scalars['ID']['input']>;
};

/** Which cabinet of a project to open: the labeler's working copy or the reviewer's. */
export type Role =
  /** The labeler's cabinet: the documents a labeler annotates. */
  | 'LABELER'
  /** The reviewer's cabinet: the documents a reviewer checks. */
  | 'REVIEWER';

/** A label of a label set. The service still calls labels tags. */
export type TagItem = {
  __typename?: 'TagItem';
  /** The label's colour, usually a `#rrggbb` string; null when none is set. */
  color?: Maybe<Scalars['String']['output']>;
  /** A free-text description of the label. */
  desc?: Maybe<Scalars['String']['output']>;
  /** The label's id, unique within its label set. */
  id: Scalars['String']['output'];
  /** The label's name as people see it; names compare case-insensitively. */
  labelName: Scalars['String']['output'];
  /** The id of the parent label in a hierarchy, or null for a top-level label. */
  parentId?: Maybe<Scalars['ID']['output']>;
  /** Whether the label marks spans, arrows or both. */
  type: LabelClassType;
};

/** A label of a label set as a write gives it (`createLabelSet`, `updateProjectLabelSet`). */
export type TagItemInput = {
  /** The label's colour, a `#rrggbb` string; null for none. */
  color?: InputMaybe<Scalars['String']['input']>;
  /** A free-text description of the label. */
  desc?: InputMaybe<Scalars['String']['input']>;
  /** The label's id, unique within its set; keep it to keep the labels applied with it. */
  id: Scalars['String']['input'];
  /** The label's name; names compare case-insensitively. */
  labelName: Scalars['String']['input'];
  /** The id of the parent label in the same set, or null for a top-level label. */
  parentId?: InputMaybe<Scalars['ID']['input']>;
};

/** Where the customer's model listens and the secret it expects. */
export type TargetApiInput = {
  /** The absolute URL of the model's prediction endpoint. */
  endpoint: Scalars['String']['input'];
  /** The secret the service presents to the model; never echoed back. */
  secretKey: Scalars['String']['input'];
};

/** A member of a project's team. */
export type TeamMember = {
  __typename?: 'TeamMember';
  /** The member's id. */
  id: Scalars['ID']['output'];
  /** The person behind the membership; null for an invitation not yet accepted. */
  user?: Maybe<User>;
};

/** A position in a document: a character of a token of a sentence (a line). */
export type TextCursor = {
  __typename?: 'TextCursor';
  /** The zero-based character number counted from the token's start. */
  charId: Scalars['Int']['output'];
  /** The zero-based line number. */
  sentenceId: Scalars['Int']['output'];
  /** The zero-based token number within the line. */
  tokenId: Scalars['Int']['output'];
};

/** One copy of a project's document in a cabinet. */
export type TextDocument = {
  __typename?: 'TextDocument';
  /** The document's file name. */
  fileName: Scalars['String']['output'];
  /** The id of this copy: what `getLabelsPaginated` and `getCells` take. */
  id: Scalars['ID']['output'];
  /** Whether the copy's owner (the reviewer, in the reviewer copy) marked the document complete. */
  isCompleted: Scalars['Boolean']['output'];
  /** The id of the project's document this copies; the same in every cabinet. */
  originId?: Maybe<Scalars['ID']['output']>;
};

/**
 * A label applied to a span of tokens: the published shape of a `TextLabelScalar` node. No field
 * returns it; it documents the JSON of `getLabelsPaginated`'s nodes.
 */
export type TextLabel = {
  __typename?: 'TextLabel';
  /** The model's confidence, from 0 to 1, when a model put the label. */
  confidenceScore?: Maybe<Scalars['Float']['output']>;
  /** Whether the label was deleted. */
  deleted?: Maybe<Scalars['Boolean']['output']>;
  /** The id of the document copy the label is in. */
  documentId?: Maybe<Scalars['String']['output']>;
  /** The span's last character (inclusive). */
  end: TextCursor;
  /** A digest of the label. */
  hashCode: Scalars['String']['output'];
  /** The label's id, unique within its document. */
  id: Scalars['String']['output'];
  /** The id of the label item applied (`TagItem.id`), within the label set of `layer`. */
  l: Scalars['String']['output'];
  /** Who put the label, or how a disagreement about it was settled. */
  labeledBy?: Maybe<ConflictTextLabelResolutionStrategy>;
  /** The index of the label set the label item belongs to. */
  layer: Scalars['Int']['output'];
  /** The span's first character. */
  start: TextCursor;
};

/** A change to a project's label set: its name, or all of its labels at once. */
export type UpdateProjectLabelSetInput = {
  /** The label set to change. */
  id: Scalars['ID']['input'];
  /**
   * The set's new labels, replacing every label it has; unchanged when absent. Labels applied
   * with a label whose id is no longer in the list are removed.
   */
  labelItems?: InputMaybe<Array<TagItemInput>>;
  /** The set's `signature` as last read, to say which version of the set the change is for. */
  labelSetSignature?: InputMaybe<Scalars['String']['input']>;
  /** The set's new name; unchanged when absent. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** The project the set belongs to. */
  projectId: Scalars['ID']['input'];
};

/** A person with an account on the service. */
export type User = {
  __typename?: 'User';
  /** The person's e-mail address. */
  email: Scalars['String']['output'];
};



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;




/** Mapping of interface types */
export type ResolversInterfaceTypes<_RefType extends Record<string, unknown>> = {
  PaginatedResponse:
    | ( GetCellsPaginatedResponse )
    | ( GetLabelsPaginatedResponse )
  ;
};

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AppendLabelSetTagItemsInput: AppendLabelSetTagItemsInput;
  AppendTagItemInput: AppendTagItemInput;
  AutoLabelProjectOptionsInput: AutoLabelProjectOptionsInput;
  AutoLabelTokenBasedProjectInput: AutoLabelTokenBasedProjectInput;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Cabinet: ResolverTypeWrapper<StoredCabinetModel>;
  CabinetStatus: CabinetStatus;
  Cell: ResolverTypeWrapper<Cell>;
  CellScalar: ResolverTypeWrapper<Scalars['CellScalar']['output']>;
  CellStatus: CellStatus;
  ConflictTextLabelResolutionStrategy: ConflictTextLabelResolutionStrategy;
  CreateLabelSetInput: CreateLabelSetInput;
  DocumentFinalReport: ResolverTypeWrapper<Omit<DocumentFinalReport, 'cabinet'> & { cabinet: ResolversTypes['Cabinet'] }>;
  FinalReport: ResolverTypeWrapper<FinalReport>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  GetCellsPaginatedInput: GetCellsPaginatedInput;
  GetCellsPaginatedResponse: ResolverTypeWrapper<GetCellsPaginatedResponse>;
  GetLabelsPaginatedInput: GetLabelsPaginatedInput;
  GetLabelsPaginatedResponse: ResolverTypeWrapper<GetLabelsPaginatedResponse>;
  GqlAutoLabelServiceProvider: GqlAutoLabelServiceProvider;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Job: ResolverTypeWrapper<StoredJobModel>;
  JobError: ResolverTypeWrapper<StoredJobErrorModel>;
  JobErrorArgs: ResolverTypeWrapper<Scalars['JobErrorArgs']['output']>;
  JobStatus: JobStatus;
  LabelClassType: LabelClassType;
  LabelSet: ResolverTypeWrapper<StoredLabelSetModel>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  OffsetPageInput: OffsetPageInput;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  PaginatedResponse: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['PaginatedResponse']>;
  Project: ResolverTypeWrapper<Project>;
  ProjectFinalReport: ResolverTypeWrapper<Omit<ProjectFinalReport, 'documentFinalReports'> & { documentFinalReports: Array<ResolversTypes['DocumentFinalReport']> }>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Role: Role;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  TagItem: ResolverTypeWrapper<StoredLabelModel>;
  TagItemInput: TagItemInput;
  TargetApiInput: TargetApiInput;
  TeamMember: ResolverTypeWrapper<TeamMember>;
  TextCursor: ResolverTypeWrapper<TextCursor>;
  TextDocument: ResolverTypeWrapper<TextDocument>;
  TextLabel: ResolverTypeWrapper<TextLabel>;
  TextLabelScalar: ResolverTypeWrapper<Scalars['TextLabelScalar']['output']>;
  UpdateProjectLabelSetInput: UpdateProjectLabelSetInput;
  User: ResolverTypeWrapper<User>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AppendLabelSetTagItemsInput: AppendLabelSetTagItemsInput;
  AppendTagItemInput: AppendTagItemInput;
  AutoLabelProjectOptionsInput: AutoLabelProjectOptionsInput;
  AutoLabelTokenBasedProjectInput: AutoLabelTokenBasedProjectInput;
  Boolean: Scalars['Boolean']['output'];
  Cabinet: StoredCabinetModel;
  Cell: Cell;
  CellScalar: Scalars['CellScalar']['output'];
  CreateLabelSetInput: CreateLabelSetInput;
  DocumentFinalReport: Omit<DocumentFinalReport, 'cabinet'> & { cabinet: ResolversParentTypes['Cabinet'] };
  FinalReport: FinalReport;
  Float: Scalars['Float']['output'];
  GetCellsPaginatedInput: GetCellsPaginatedInput;
  GetCellsPaginatedResponse: GetCellsPaginatedResponse;
  GetLabelsPaginatedInput: GetLabelsPaginatedInput;
  GetLabelsPaginatedResponse: GetLabelsPaginatedResponse;
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  Job: StoredJobModel;
  JobError: StoredJobErrorModel;
  JobErrorArgs: Scalars['JobErrorArgs']['output'];
  LabelSet: StoredLabelSetModel;
  Mutation: Record<PropertyKey, never>;
  OffsetPageInput: OffsetPageInput;
  PageInfo: PageInfo;
  PaginatedResponse: ResolversInterfaceTypes<ResolversParentTypes>['PaginatedResponse'];
  Project: Project;
  ProjectFinalReport: Omit<ProjectFinalReport, 'documentFinalReports'> & { documentFinalReports: Array<ResolversParentTypes['DocumentFinalReport']> };
  Query: Record<PropertyKey, never>;
  String: Scalars['String']['output'];
  TagItem: StoredLabelModel;
  TagItemInput: TagItemInput;
  TargetApiInput: TargetApiInput;
  TeamMember: TeamMember;
  TextCursor: TextCursor;
  TextDocument: TextDocument;
  TextLabel: TextLabel;
  TextLabelScalar: Scalars['TextLabelScalar']['output'];
  UpdateProjectLabelSetInput: UpdateProjectLabelSetInput;
  User: User;
};

export type CabinetResolvers<ContextType = any, ParentType extends ResolversParentTypes['Cabinet'] = ResolversParentTypes['Cabinet']> = {
  documents?: Resolver<Array<ResolversTypes['TextDocument']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  role?: Resolver<ResolversTypes['Role'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['CabinetStatus'], ParentType, ContextType>;
};

export type CellResolvers<ContextType = any, ParentType extends ResolversParentTypes['Cell'] = ResolversParentTypes['Cell']> = {
  content?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  index?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  line?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['CellStatus'], ParentType, ContextType>;
  tokens?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export interface CellScalarScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['CellScalar'], any> {
  name: 'CellScalar';
}

export type DocumentFinalReportResolvers<ContextType = any, ParentType extends ResolversParentTypes['DocumentFinalReport'] = ResolversParentTypes['DocumentFinalReport']> = {
  cabinet?: Resolver<ResolversTypes['Cabinet'], ParentType, ContextType>;
  document?: Resolver<ResolversTypes['TextDocument'], ParentType, ContextType>;
  finalReport?: Resolver<ResolversTypes['FinalReport'], ParentType, ContextType>;
  teamMember?: Resolver<Maybe<ResolversTypes['TeamMember']>, ParentType, ContextType>;
};

export type FinalReportResolvers<ContextType = any, ParentType extends ResolversParentTypes['FinalReport'] = ResolversParentTypes['FinalReport']> = {
  precision?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  recall?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalAcceptedLabels?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalAppliedLabels?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalRejectedLabels?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalResolvedLabels?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type GetCellsPaginatedResponseResolvers<ContextType = any, ParentType extends ResolversParentTypes['GetCellsPaginatedResponse'] = ResolversParentTypes['GetCellsPaginatedResponse']> = {
  nodes?: Resolver<Array<ResolversTypes['CellScalar']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type GetLabelsPaginatedResponseResolvers<ContextType = any, ParentType extends ResolversParentTypes['GetLabelsPaginatedResponse'] = ResolversParentTypes['GetLabelsPaginatedResponse']> = {
  nodes?: Resolver<Array<ResolversTypes['TextLabelScalar']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type JobResolvers<ContextType = any, ParentType extends ResolversParentTypes['Job'] = ResolversParentTypes['Job']> = {
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  errors?: Resolver<Array<ResolversTypes['JobError']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  progress?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  resultId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['JobStatus'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type JobErrorResolvers<ContextType = any, ParentType extends ResolversParentTypes['JobError'] = ResolversParentTypes['JobError']> = {
  args?: Resolver<Maybe<ResolversTypes['JobErrorArgs']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  stack?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface JobErrorArgsScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JobErrorArgs'], any> {
  name: 'JobErrorArgs';
}

export type LabelSetResolvers<ContextType = any, ParentType extends ResolversParentTypes['LabelSet'] = ResolversParentTypes['LabelSet']> = {
  arrowLabelRequired?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  index?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  labelItems?: Resolver<Array<ResolversTypes['TagItem']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  signature?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type MutationResolvers<ContextType = any, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  appendLabelSetLabelItems?: Resolver<Maybe<Array<ResolversTypes['TagItem']>>, ParentType, ContextType, RequireFields<MutationAppendLabelSetLabelItemsArgs, 'input'>>;
  autoLabelTokenBasedProject?: Resolver<ResolversTypes['Job'], ParentType, ContextType, RequireFields<MutationAutoLabelTokenBasedProjectArgs, 'input'>>;
  createLabelSet?: Resolver<ResolversTypes['LabelSet'], ParentType, ContextType, RequireFields<MutationCreateLabelSetArgs, 'input'>>;
  deleteLabelSet?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType, RequireFields<MutationDeleteLabelSetArgs, 'id'>>;
  updateProjectLabelSet?: Resolver<ResolversTypes['LabelSet'], ParentType, ContextType, RequireFields<MutationUpdateProjectLabelSetArgs, 'input'>>;
};

export type PageInfoResolvers<ContextType = any, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  nextCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  prevCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PaginatedResponseResolvers<ContextType = any, ParentType extends ResolversParentTypes['PaginatedResponse'] = ResolversParentTypes['PaginatedResponse']> = {
  __resolveType: TypeResolveFn<'GetCellsPaginatedResponse' | 'GetLabelsPaginatedResponse', ParentType, ContextType>;
};

export type ProjectResolvers<ContextType = any, ParentType extends ResolversParentTypes['Project'] = ResolversParentTypes['Project']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ProjectFinalReportResolvers<ContextType = any, ParentType extends ResolversParentTypes['ProjectFinalReport'] = ResolversParentTypes['ProjectFinalReport']> = {
  documentFinalReports?: Resolver<Array<ResolversTypes['DocumentFinalReport']>, ParentType, ContextType>;
  project?: Resolver<ResolversTypes['Project'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = any, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  getCabinet?: Resolver<ResolversTypes['Cabinet'], ParentType, ContextType, RequireFields<QueryGetCabinetArgs, 'projectId' | 'role'>>;
  getCabinetLabelSetsById?: Resolver<Array<ResolversTypes['LabelSet']>, ParentType, ContextType, RequireFields<QueryGetCabinetLabelSetsByIdArgs, 'cabinetId'>>;
  getCells?: Resolver<ResolversTypes['GetCellsPaginatedResponse'], ParentType, ContextType, RequireFields<QueryGetCellsArgs, 'documentId' | 'input'>>;
  getJob?: Resolver<Maybe<ResolversTypes['Job']>, ParentType, ContextType, RequireFields<QueryGetJobArgs, 'jobId'>>;
  getJobs?: Resolver<Array<Maybe<ResolversTypes['Job']>>, ParentType, ContextType, RequireFields<QueryGetJobsArgs, 'jobIds'>>;
  getLabelsPaginated?: Resolver<ResolversTypes['GetLabelsPaginatedResponse'], ParentType, ContextType, RequireFields<QueryGetLabelsPaginatedArgs, 'documentId' | 'input'>>;
  getProjectCabinets?: Resolver<Array<ResolversTypes['Cabinet']>, ParentType, ContextType, RequireFields<QueryGetProjectCabinetsArgs, 'projectId'>>;
  getProjectsFinalReport?: Resolver<Array<ResolversTypes['ProjectFinalReport']>, ParentType, ContextType, RequireFields<QueryGetProjectsFinalReportArgs, 'projectIds'>>;
};

export type TagItemResolvers<ContextType = any, ParentType extends ResolversParentTypes['TagItem'] = ResolversParentTypes['TagItem']> = {
  color?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  desc?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  labelName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  parentId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['LabelClassType'], ParentType, ContextType>;
};

export type TeamMemberResolvers<ContextType = any, ParentType extends ResolversParentTypes['TeamMember'] = ResolversParentTypes['TeamMember']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  user?: Resolver<Maybe<ResolversTypes['User']>, ParentType, ContextType>;
};

export type TextCursorResolvers<ContextType = any, ParentType extends ResolversParentTypes['TextCursor'] = ResolversParentTypes['TextCursor']> = {
  charId?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sentenceId?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  tokenId?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type TextDocumentResolvers<ContextType = any, ParentType extends ResolversParentTypes['TextDocument'] = ResolversParentTypes['TextDocument']> = {
  fileName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  isCompleted?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  originId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
};

export type TextLabelResolvers<ContextType = any, ParentType extends ResolversParentTypes['TextLabel'] = ResolversParentTypes['TextLabel']> = {
  confidenceScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  deleted?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  documentId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  end?: Resolver<ResolversTypes['TextCursor'], ParentType, ContextType>;
  hashCode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  l?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  labeledBy?: Resolver<Maybe<ResolversTypes['ConflictTextLabelResolutionStrategy']>, ParentType, ContextType>;
  layer?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  start?: Resolver<ResolversTypes['TextCursor'], ParentType, ContextType>;
};

export interface TextLabelScalarScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['TextLabelScalar'], any> {
  name: 'TextLabelScalar';
}

export type UserResolvers<ContextType = any, ParentType extends ResolversParentTypes['User'] = ResolversParentTypes['User']> = {
  email?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = any> = {
  Cabinet?: CabinetResolvers<ContextType>;
  Cell?: CellResolvers<ContextType>;
  CellScalar?: GraphQLScalarType;
  DocumentFinalReport?: DocumentFinalReportResolvers<ContextType>;
  FinalReport?: FinalReportResolvers<ContextType>;
  GetCellsPaginatedResponse?: GetCellsPaginatedResponseResolvers<ContextType>;
  GetLabelsPaginatedResponse?: GetLabelsPaginatedResponseResolvers<ContextType>;
  Job?: JobResolvers<ContextType>;
  JobError?: JobErrorResolvers<ContextType>;
  JobErrorArgs?: GraphQLScalarType;
  LabelSet?: LabelSetResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  PaginatedResponse?: PaginatedResponseResolvers<ContextType>;
  Project?: ProjectResolvers<ContextType>;
  ProjectFinalReport?: ProjectFinalReportResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  TagItem?: TagItemResolvers<ContextType>;
  TeamMember?: TeamMemberResolvers<ContextType>;
  TextCursor?: TextCursorResolvers<ContextType>;
  TextDocument?: TextDocumentResolvers<ContextType>;
  TextLabel?: TextLabelResolvers<ContextType>;
  TextLabelScalar?: GraphQLScalarType;
  User?: UserResolvers<ContextType>;
};

