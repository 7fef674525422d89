import { GraphQLError } from 'graphql';
import type { AutoLabelTokenBasedProjectInput, Role } from '../../generated/graphql.js';
import { checkAutoLabelInput } from './checkAutoLabelInput.js';
import type { JobRunner } from './runner.js';
import type { EmulatorStore } from './store.js';
import type { StoredJob, StoredLabelSet } from './types.js';

/** A resolver of a root field: arguments in, value (or a thrown GraphQLError) out. */
type RootResolver<Args, Result> = (parent: unknown, args: Args) => Result;

/**
 * The resolvers of every root field of schema.graphql, typed by hand from generated/graphql.ts
 * and the store's types (which have the schema's shapes, so nested types need no resolvers).
 */
// A type alias, not an interface: yoga's IResolvers has an index signature that only aliases satisfy.
export type EmulatorResolvers = {
  Query: {
    getCabinet: RootResolver<{ projectId: string; role: Role }, { id: string }>;
    getCabinetLabelSetsById: RootResolver<{ cabinetId: string }, readonly StoredLabelSet[]>;
    getJob: RootResolver<{ jobId: string }, StoredJob | null>;
    getJobs: RootResolver<{ jobIds: string[] }, (StoredJob | null)[]>;
  };
  Mutation: {
    autoLabelTokenBasedProject: RootResolver<{ input: AutoLabelTokenBasedProjectInput }, StoredJob>;
  };
};

const notFound = (message: string, field: string) => new GraphQLError(message, { extensions: { code: 'NOT_FOUND', field } });

/**
 * Builds the resolvers over the emulator's store and job runner.
 *
 * @param store - the data
 * @param runner - runs the jobs that `autoLabelTokenBasedProject` starts
 * @returns resolvers for graphql-yoga's `createSchema`
 * @remarks Unknown projects and cabinets are GraphQL errors (`extensions.code` NOT_FOUND); unknown
 * jobs are `null`. Bad mutation input is one GraphQL error (`extensions.code` BAD_USER_INPUT) whose
 * message lists every problem and whose `extensions.problems` holds them as `{ field, message }`.
 * The mutation answers the job as created (QUEUED) and the runner starts afterwards.
 */
export function createResolvers(store: EmulatorStore, runner: JobRunner): EmulatorResolvers {
  return {
    Query: {
      getCabinet: (_, { projectId, role }) => {
        if (!store.projects.has(projectId)) throw notFound(`no project has the id "${projectId}"`, 'projectId');
        return { id: store.cabinetId(projectId, role) };
      },
      getCabinetLabelSetsById: (_, { cabinetId }) => {
        const project = store.projectOfCabinet(cabinetId);
        if (!project) throw notFound(`no cabinet has the id "${cabinetId}"`, 'cabinetId');
        return project.labelSets;
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
}
