import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { StoredCabinet as StoredCabinetModel, StoredLabelSet as StoredLabelSetModel, StoredLabel as StoredLabelModel, StoredJob as StoredJobModel, StoredJobError as StoredJobErrorModel } from '../../src/emulator/types.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** The arguments of a job error, as a JSON object. Production types it as a custom scalar. */
  JobErrorArgs: { input: Record<string, unknown>; output: Record<string, unknown>; }
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

/** One person's view of a project for one role, holding that role's copies of the documents. */
export type Cabinet = {
  __typename?: 'Cabinet';
  /** The cabinet's id, the key to its label sets. */
  id: Scalars['ID']['output'];
};

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

/** Emulator-only (not part of the labeling service): how many applied labels use one label. */
export type EmulatorAppliedLabelCount = {
  __typename?: 'EmulatorAppliedLabelCount';
  /** The labels applied with it, over every labeler's and reviewer's copy of the project. */
  appliedLabels: Scalars['Int']['output'];
  /** The label's id within its set. */
  labelItemId: Scalars['String']['output'];
  /** The label set that holds the label. */
  labelSetId: Scalars['ID']['output'];
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

export type Query = {
  __typename?: 'Query';
  /**
   * Emulator-only (not part of the labeling service): one entry per label of every label set of a
   * project, 0 for a label never applied.
   */
  emulatorAppliedLabelCounts: Array<EmulatorAppliedLabelCount>;
  /** The cabinet of a project for one role. */
  getCabinet: Cabinet;
  /** The label sets of a cabinet's project. */
  getCabinetLabelSetsById: Array<LabelSet>;
  /** One job by id, or null when the service knows no such job. */
  getJob?: Maybe<Job>;
  /** Many jobs by id, in the order asked; null where a job is unknown. */
  getJobs: Array<Maybe<Job>>;
};


export type QueryEmulatorAppliedLabelCountsArgs = {
  projectId: Scalars['ID']['input'];
};


export type QueryGetCabinetArgs = {
  projectId: Scalars['ID']['input'];
  role: Role;
};


export type QueryGetCabinetLabelSetsByIdArgs = {
  cabinetId: Scalars['ID']['input'];
};


export type QueryGetJobArgs = {
  jobId: Scalars['String']['input'];
};


export type QueryGetJobsArgs = {
  jobIds: Array<Scalars['String']['input']>;
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





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AppendLabelSetTagItemsInput: AppendLabelSetTagItemsInput;
  AppendTagItemInput: AppendTagItemInput;
  AutoLabelProjectOptionsInput: AutoLabelProjectOptionsInput;
  AutoLabelTokenBasedProjectInput: AutoLabelTokenBasedProjectInput;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Cabinet: ResolverTypeWrapper<StoredCabinetModel>;
  CreateLabelSetInput: CreateLabelSetInput;
  EmulatorAppliedLabelCount: ResolverTypeWrapper<EmulatorAppliedLabelCount>;
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
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Role: Role;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  TagItem: ResolverTypeWrapper<StoredLabelModel>;
  TagItemInput: TagItemInput;
  TargetApiInput: TargetApiInput;
  UpdateProjectLabelSetInput: UpdateProjectLabelSetInput;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AppendLabelSetTagItemsInput: AppendLabelSetTagItemsInput;
  AppendTagItemInput: AppendTagItemInput;
  AutoLabelProjectOptionsInput: AutoLabelProjectOptionsInput;
  AutoLabelTokenBasedProjectInput: AutoLabelTokenBasedProjectInput;
  Boolean: Scalars['Boolean']['output'];
  Cabinet: StoredCabinetModel;
  CreateLabelSetInput: CreateLabelSetInput;
  EmulatorAppliedLabelCount: EmulatorAppliedLabelCount;
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  Job: StoredJobModel;
  JobError: StoredJobErrorModel;
  JobErrorArgs: Scalars['JobErrorArgs']['output'];
  LabelSet: StoredLabelSetModel;
  Mutation: Record<PropertyKey, never>;
  Query: Record<PropertyKey, never>;
  String: Scalars['String']['output'];
  TagItem: StoredLabelModel;
  TagItemInput: TagItemInput;
  TargetApiInput: TargetApiInput;
  UpdateProjectLabelSetInput: UpdateProjectLabelSetInput;
};

export type CabinetResolvers<ContextType = any, ParentType extends ResolversParentTypes['Cabinet'] = ResolversParentTypes['Cabinet']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type EmulatorAppliedLabelCountResolvers<ContextType = any, ParentType extends ResolversParentTypes['EmulatorAppliedLabelCount'] = ResolversParentTypes['EmulatorAppliedLabelCount']> = {
  appliedLabels?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  labelItemId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  labelSetId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
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

export type QueryResolvers<ContextType = any, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  emulatorAppliedLabelCounts?: Resolver<Array<ResolversTypes['EmulatorAppliedLabelCount']>, ParentType, ContextType, RequireFields<QueryEmulatorAppliedLabelCountsArgs, 'projectId'>>;
  getCabinet?: Resolver<ResolversTypes['Cabinet'], ParentType, ContextType, RequireFields<QueryGetCabinetArgs, 'projectId' | 'role'>>;
  getCabinetLabelSetsById?: Resolver<Array<ResolversTypes['LabelSet']>, ParentType, ContextType, RequireFields<QueryGetCabinetLabelSetsByIdArgs, 'cabinetId'>>;
  getJob?: Resolver<Maybe<ResolversTypes['Job']>, ParentType, ContextType, RequireFields<QueryGetJobArgs, 'jobId'>>;
  getJobs?: Resolver<Array<Maybe<ResolversTypes['Job']>>, ParentType, ContextType, RequireFields<QueryGetJobsArgs, 'jobIds'>>;
};

export type TagItemResolvers<ContextType = any, ParentType extends ResolversParentTypes['TagItem'] = ResolversParentTypes['TagItem']> = {
  color?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  desc?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  labelName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  parentId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['LabelClassType'], ParentType, ContextType>;
};

export type Resolvers<ContextType = any> = {
  Cabinet?: CabinetResolvers<ContextType>;
  EmulatorAppliedLabelCount?: EmulatorAppliedLabelCountResolvers<ContextType>;
  Job?: JobResolvers<ContextType>;
  JobError?: JobErrorResolvers<ContextType>;
  JobErrorArgs?: GraphQLScalarType;
  LabelSet?: LabelSetResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  TagItem?: TagItemResolvers<ContextType>;
};

