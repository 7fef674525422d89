import { GraphQLError } from 'graphql';
import type * as Labels from '../../generated/labels/resolvers.js';
import type * as Tags from '../../generated/tags/resolvers.js';
import type { SchemaGeneration } from '../shared/constants.js';
import { checkAutoLabelInput } from './checkAutoLabelInput.js';
import type { JobRunner } from './runner.js';
import type { EmulatorStore } from './store.js';
import type { StoredCabinet, StoredJob, StoredJobError, StoredLabel, StoredLabelSet } from './types.js';

/**
 * A type's generated field resolvers, with a resolver required for every schema field that the
 * store's type does not have (the fields graphql's default resolver would answer `undefined` for).
 */
type Strict<R, Gql, Stored> = R & Required<Pick<R, Extract<Exclude<keyof Gql, keyof Stored | '__typename'>, keyof R>>>;

/**
 * The emulator's resolvers of today's schema (`tagItems`, `tagName`), typed by
 * `@graphql-codegen/typescript-resolvers` (generated/tags/resolvers.ts, the store's types as mappers).
 *
 * @remarks Every root field needs a resolver; every object type field that its store type lacks
 * needs one too. After a rename in the schema, a resolver for the old name is an excess property
 * and a missing one for the new name is a missing property: a compile error, never a runtime
 * "Unexpected error".
 */
// Type aliases, not interfaces: yoga's IResolvers has an index signature that only aliases satisfy.
export type TagsResolvers = {
  Query: Required<Tags.QueryResolvers>;
  Mutation: Required<Tags.MutationResolvers>;
  Cabinet: Strict<Tags.CabinetResolvers, Tags.Cabinet, StoredCabinet>;
  LabelSet: Strict<Tags.LabelSetResolvers, Tags.LabelSet, StoredLabelSet>;
  TagItem: Strict<Tags.TagItemResolvers, Tags.TagItem, StoredLabel>;
  Job: Strict<Tags.JobResolvers, Tags.Job, StoredJob>;
  JobError: Strict<Tags.JobErrorResolvers, Tags.JobError, StoredJobError>;
};

/** The resolvers of the renamed schema (`labelItems`, `labelName`); see {@link TagsResolvers}. */
export type LabelsResolvers = {
  Query: Required<Labels.QueryResolvers>;
  Mutation: Required<Labels.MutationResolvers>;
  Cabinet: Strict<Labels.CabinetResolvers, Labels.Cabinet, StoredCabinet>;
  LabelSet: Strict<Labels.LabelSetResolvers, Labels.LabelSet, StoredLabelSet>;
  TagItem: Strict<Labels.TagItemResolvers, Labels.TagItem, StoredLabel>;
  Job: Strict<Labels.JobResolvers, Labels.Job, StoredJob>;
  JobError: Strict<Labels.JobErrorResolvers, Labels.JobError, StoredJobError>;
};

/** The resolvers of either generation. */
export type EmulatorResolvers = TagsResolvers | LabelsResolvers;

const notFound = (message: string, field: string) => new GraphQLError(message, { extensions: { code: 'NOT_FOUND', field } });

/**
 * Builds the resolvers of one schema generation over the emulator's store and job runner.
 *
 * @param store - the data
 * @param runner - runs the jobs that `autoLabelTokenBasedProject` starts
 * @param generation - which wire names to answer: `tags` (`tagItems`, `tagName`) or `labels`
 * @returns resolvers for graphql-yoga's `createSchema`
 * @remarks The root fields are the same in both generations; only `LabelSet` and `TagItem` map the
 * store's `labels` and `name` to the generation's field names. Unknown projects and cabinets are
 * GraphQL errors (`extensions.code` NOT_FOUND); unknown jobs are `null`. Bad mutation input is one
 * GraphQL error (`extensions.code` BAD_USER_INPUT) whose message lists every problem and whose
 * `extensions.problems` holds them as `{ field, message }`. The mutation answers the job as created
 * (QUEUED) and the runner starts afterwards.
 * @example
 * ```ts
 * createSchema({ typeDefs, resolvers: createResolvers(store, runner, 'labels') });
 * ```
 */
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: 'tags'): TagsResolvers;
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: 'labels'): LabelsResolvers;
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: SchemaGeneration): EmulatorResolvers;
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: SchemaGeneration): EmulatorResolvers {
  const roots: Pick<TagsResolvers & LabelsResolvers, 'Query' | 'Mutation'> = {
    Query: {
      getCabinet: (_, { projectId, role }) => {
        if (!store.projects.has(projectId)) throw notFound(`no project has the id "${projectId}"`, 'projectId');
        return { id: store.cabinetId(projectId, role) };
      },
      getCabinetLabelSetsById: (_, { cabinetId }) => {
        const project = store.projectOfCabinet(cabinetId);
        if (!project) throw notFound(`no cabinet has the id "${cabinetId}"`, 'cabinetId');
        return [...project.labelSets];
      },
      getJob: (_, { jobId }) => store.jobs.get(jobId) ?? null,
      getJobs: (_, { jobIds }) => jobIds.map((id) => store.jobs.get(id) ?? null),
    },
    Mutation: {
      autoLabelTokenBasedProject: (_, { input }) => {
        const problems = checkAutoLabelInput(input, store);
        if (problems.length > 0) {
          const list = problems.map((p) => `${p.field} ${p.message}`).join('; ');
          throw new GraphQLError(`Invalid input (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${list}`, {
            extensions: { code: 'BAD_USER_INPUT', problems },
          });
        }
        const job = store.createJob({ projectId: input.projectId, labelerEmail: input.labelerEmail, role: input.role ?? 'LABELER' });
        const answer = { ...job, errors: [] }; // the job as created, whatever the runner does next
        runner.start(job, {
          project: store.projects.get(input.projectId)!,
          labelerEmail: input.labelerEmail,
          role: input.role ?? 'LABELER',
          numberOfFilesPerRequest: input.options.numberOfFilesPerRequest,
          endpoint: input.targetAPI.endpoint,
          secretKey: input.targetAPI.secretKey,
        });
        return answer;
      },
    },
  };
  // The store's Cabinet, Job and JobError have the schema's shapes: no field needs a resolver.
  const same = { Cabinet: {}, Job: {}, JobError: {} };
  if (generation === 'tags') {
    const tags: TagsResolvers = {
      ...roots,
      ...same,
      LabelSet: { tagItems: (set) => set.labels },
      TagItem: { tagName: (label) => label.name },
    };
    return tags;
  }
  const labels: LabelsResolvers = {
    ...roots,
    ...same,
    LabelSet: { labelItems: (set) => set.labels },
    TagItem: { labelName: (label) => label.name },
  };
  return labels;
}
