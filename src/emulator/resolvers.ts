import { GraphQLError } from 'graphql';
import { validateAutoLabelInput } from '../client/validation.js';
import type { AutoLabelTokenBasedProjectInput } from '../../generated/graphql.js';
import type { JobRunner } from './runner.js';
import { labelSetSignature } from './store.js';
import type { EmulatorStore } from './store.js';

const userError = (message: string, extra: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', ...extra } });

/**
 * The resolvers of every field of schema.graphql, over the emulator's store.
 *
 * @param store - the data
 * @param runner - runs the jobs that autoLabelTokenBasedProject starts
 * @returns resolvers for graphql-yoga's createSchema
 */
export function createResolvers(store: EmulatorStore, runner: JobRunner) {
  return {
    Query: {
      getCabinet: (_: unknown, args: { projectId: string; role: string }) => {
        if (!store.projects.has(args.projectId)) throw userError(`unknown project ${args.projectId}`, { field: 'projectId' });
        return { id: store.cabinetId(args.projectId, args.role) };
      },
      getCabinetLabelSetsById: (_: unknown, args: { cabinetId: string }) => {
        const project = store.projectOfCabinet(args.cabinetId);
        if (!project) throw userError(`unknown cabinet ${args.cabinetId}`, { field: 'cabinetId' });
        return project.labelSets.map((set) => ({ ...set, signature: labelSetSignature(set.tagItems) }));
      },
      getJob: (_: unknown, args: { jobId: string }) => store.jobs.get(args.jobId) ?? null,
      getJobs: (_: unknown, args: { jobIds: string[] }) => args.jobIds.map((id) => store.jobs.get(id) ?? null),
    },
    Mutation: {
      autoLabelTokenBasedProject: (_: unknown, args: { input: AutoLabelTokenBasedProjectInput }) => {
        const { input } = args;
        // The same rules the client checks, plus what only the service knows (the project).
        // The emulator accepts plain http to any host: it is a local test server.
        const problems = validateAutoLabelInput(input, { allowInsecureEndpoint: true });
        const project = store.projects.get(input.projectId);
        if (input.projectId && !project) problems.push({ path: 'input.projectId', message: `unknown project ${input.projectId}` });
        if (problems.length > 0) {
          throw userError(`invalid input: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`, { problems });
        }
        const job = store.createJob();
        const answer = { ...job }; // the job as created (QUEUED), before the runner moves it
        runner.start(job, {
          project: project!,
          labelerEmail: input.labelerEmail,
          numberOfFilesPerRequest: input.options.numberOfFilesPerRequest,
          endpoint: input.targetAPI.endpoint,
          secretKey: input.targetAPI.secretKey,
        });
        return answer;
      },
    },
  };
}
