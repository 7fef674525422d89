import { GraphQLError } from 'graphql';
import type * as Labels from '../../generated/labels/resolvers.js';
import type * as Tags from '../../generated/tags/resolvers.js';
import type { SchemaGeneration } from '../shared/constants.js';
import { checkAutoLabelInput } from './checkAutoLabelInput.js';
import { PageInputError } from './labelReads.js';
import { LabelSetWriteRefusedError } from './labelSetWrites.js';
import type { LabelWriteInput, NewLabelWriteInput, WritePath } from './labelSetWrites.js';
import type { JobRunner } from './jobRunner.js';
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
type EmulatorResolvers = TagsResolvers | LabelsResolvers;

const throwError = (error: GraphQLError): never => {
  throw error;
};

/** Runs a paginated read of the store and turns a refused input into the BAD_USER_INPUT error listing every problem. */
function pageRead<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof PageInputError)) throw error;
    throw new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT', problems: error.problems } });
  }
}
const notFound = (message: string, field: string) => new GraphQLError(message, { extensions: { code: 'NOT_FOUND', field } });

/** A label of a write as either generation sends it, its name already read from `tagName` or `labelName`. */
interface WireItem {
  id?: string | null;
  parentId?: string | null;
  color?: string | null;
  desc?: string | null;
}

const toLabel = (item: WireItem & { id: string }, name: string): LabelWriteInput => ({
  id: item.id,
  parentId: item.parentId ?? null,
  name,
  color: item.color ?? null,
  desc: item.desc ?? null,
});
const toNewLabel = (item: WireItem, name: string): NewLabelWriteInput => ({ id: item.id ?? null, name, color: item.color ?? null, desc: item.desc ?? null });

/**
 * Runs one label-set write of the store and turns its refusal into the GraphQL error the emulator
 * answers, with the fields named as the generation sends them (`input.tagItems[2].tagName` or
 * `input.labelItems[2].labelName`).
 */
function labelSetWrite<T>(generation: SchemaGeneration, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (!(error instanceof LabelSetWriteRefusedError)) throw error;
    const items = generation === 'tags' ? 'tagItems' : 'labelItems';
    const name = generation === 'tags' ? 'tagName' : 'labelName';
    const field = (path: WritePath) =>
      path
        .map((k, i) => (typeof k === 'number' ? `[${k}]` : `.${k === 'labels' ? items : k === 'name' && i > 0 ? name : k}`))
        .join('')
        .replace(/^/, 'input');
    if (error.code === 'STALE_SIGNATURE') {
      throw new GraphQLError(error.message, { extensions: { code: 'STALE_SIGNATURE', field: 'input.labelSetSignature' } });
    }
    if (error.code === 'NOT_FOUND') throw new GraphQLError(error.message, { extensions: { code: 'NOT_FOUND' } });
    const problems = error.problems.map((p) => ({ field: field(p.path), message: p.message }));
    const list = problems.map((p) => `${p.field} ${p.message}`).join('; ');
    const message = problems.length > 0 ? `Invalid input (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${list}` : error.message;
    throw new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', problems } });
  }
}

/** `createLabelSet` without a project: production may keep such sets elsewhere; the emulator has none. */
function requireProjectId(projectId: string | null | undefined): string {
  if (typeof projectId === 'string' && projectId !== '') return projectId;
  const problems = [{ field: 'projectId', message: 'is required by the emulator: it keeps label sets in projects only' }];
  throw new GraphQLError(`Invalid input (1 problem): projectId ${problems[0]!.message}`, { extensions: { code: 'BAD_USER_INPUT', problems } });
}

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
 * (QUEUED) and the runner starts afterwards. The label-set writes (`createLabelSet`,
 * `updateProjectLabelSet`, `appendLabelSetTagItems` / `appendLabelSetLabelItems`, `deleteLabelSet`)
 * go to the store's write methods: an unknown project or set is NOT_FOUND, a stale
 * `labelSetSignature` is `extensions.code` STALE_SIGNATURE (a guess about production, see
 * `checkSignature`), bad input is one BAD_USER_INPUT error listing every problem with its wire
 * field name. The label reads (`getProjectCabinets`, `getLabelsPaginated`, `getCells`,
 * `getProjectsFinalReport`) answer from the store's copies; an unknown project or document copy is
 * NOT_FOUND, a bad page or cursor one BAD_USER_INPUT error listing every problem.
 * @example
 * ```ts
 * createSchema({ typeDefs, resolvers: createResolvers(store, runner, 'labels') });
 * ```
 */
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: 'tags'): TagsResolvers;
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: 'labels'): LabelsResolvers;
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: SchemaGeneration): EmulatorResolvers;
export function createResolvers(store: EmulatorStore, runner: JobRunner, generation: SchemaGeneration): EmulatorResolvers {
  type SharedMutation = Omit<TagsResolvers['Mutation'] & LabelsResolvers['Mutation'], 'appendLabelSetTagItems' | 'appendLabelSetLabelItems' | 'createLabelSet' | 'updateProjectLabelSet'>;
  const roots: { Query: TagsResolvers['Query'] & LabelsResolvers['Query']; Mutation: SharedMutation } = {
    Query: {
      getCabinet: (_, { projectId, role }) => {
        if (!store.projects.has(projectId)) throw notFound(`no project has the id "${projectId}"`, 'projectId');
        return store.cabinet(projectId, store.cabinetId(projectId, role));
      },
      getCabinetLabelSetsById: (_, { cabinetId }) => {
        const project = store.projectOfCabinet(cabinetId);
        if (!project) throw notFound(`no cabinet has the id "${cabinetId}"`, 'cabinetId');
        return [...project.labelSets];
      },
      getJob: (_, { jobId }) => store.jobs.get(jobId) ?? null,
      getJobs: (_, { jobIds }) => jobIds.map((id) => store.jobs.get(id) ?? null),
      getProjectCabinets: (_, { projectId }) => store.cabinets(projectId) ?? throwError(notFound(`no project has the id "${projectId}"`, 'projectId')),
      getLabelsPaginated: (_, { documentId, input }) =>
        pageRead(() => store.labelPage(documentId, input)) ?? throwError(notFound(`no cabinet has a document with the id "${documentId}"`, 'documentId')),
      getCells: (_, { documentId, input }) => pageRead(() => store.cellPage(documentId, input)) ?? throwError(notFound(`no cabinet has a document with the id "${documentId}"`, 'documentId')),
      getProjectsFinalReport: (_, { projectIds }) => {
        const unknown = projectIds.filter((id) => !store.projects.has(id));
        if (unknown.length > 0) throw notFound(`no project has the id ${unknown.map((id) => `"${id}"`).join(', ')}`, 'projectIds');
        return projectIds.map((projectId) => {
          const project = store.projects.get(projectId)!;
          return {
            project: { id: project.id, name: project.name },
            documentFinalReports: store.finalReports(projectId)!.map((r) => ({
              cabinet: r.cabinet,
              document: r.document,
              finalReport: r.figures,
              teamMember: { id: `${r.cabinet.id}:member`, user: { email: r.email } },
            })),
          };
        });
      },
    },
    Mutation: {
      autoLabelTokenBasedProject: (_, { input }) => {
        const problems = checkAutoLabelInput(input, store);
        if (problems.length > 0) {
          const list = problems.map((p) => `${p.path} ${p.message}`).join('; ');
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
      deleteLabelSet: (_, { id }) => labelSetWrite(generation, () => store.deleteLabelSet(id)),
    },
  };
  // The store's Job and JobError have the schema's shapes; a cabinet's documents are made when asked.
  const same = { Cabinet: { documents: (cabinet: StoredCabinet) => store.cabinetDocuments(cabinet) }, Job: {}, JobError: {} };
  // The label-set writes read the generation's input names; the store speaks labels either way.
  if (generation === 'tags') {
    const tags: TagsResolvers = {
      Query: roots.Query,
      Mutation: {
        ...roots.Mutation,
        createLabelSet: (_, { projectId, input }) =>
          labelSetWrite(generation, () =>
            store.createLabelSet(requireProjectId(projectId), { index: input.index, name: input.name, arrowLabelRequired: input.arrowLabelRequired, labels: input.tagItems.map((i) => toLabel(i, i.tagName)) }),
          ),
        updateProjectLabelSet: (_, { input }) =>
          labelSetWrite(generation, () =>
            store.updateLabelSet({ id: input.id, projectId: input.projectId, labelSetSignature: input.labelSetSignature, name: input.name, labels: input.tagItems?.map((i) => toLabel(i, i.tagName)) ?? null }),
          ),
        appendLabelSetTagItems: (_, { input }) =>
          labelSetWrite(generation, () => store.appendLabels({ labelSetId: input.labelSetId, labelSetSignature: input.labelSetSignature, labels: input.tagItems.map((i) => toNewLabel(i, i.tagName)) })),
      },
      ...same,
      LabelSet: { tagItems: (set) => set.labels },
      TagItem: { tagName: (label) => label.name },
    };
    return tags;
  }
  const labels: LabelsResolvers = {
    Query: roots.Query,
    Mutation: {
      ...roots.Mutation,
      createLabelSet: (_, { projectId, input }) =>
        labelSetWrite(generation, () =>
          store.createLabelSet(requireProjectId(projectId), { index: input.index, name: input.name, arrowLabelRequired: input.arrowLabelRequired, labels: input.labelItems.map((i) => toLabel(i, i.labelName)) }),
        ),
      updateProjectLabelSet: (_, { input }) =>
        labelSetWrite(generation, () =>
          store.updateLabelSet({ id: input.id, projectId: input.projectId, labelSetSignature: input.labelSetSignature, name: input.name, labels: input.labelItems?.map((i) => toLabel(i, i.labelName)) ?? null }),
        ),
      appendLabelSetLabelItems: (_, { input }) =>
        labelSetWrite(generation, () => store.appendLabels({ labelSetId: input.labelSetId, labelSetSignature: input.labelSetSignature, labels: input.labelItems.map((i) => toNewLabel(i, i.labelName)) })),
    },
    ...same,
    LabelSet: { labelItems: (set) => set.labels },
    TagItem: { labelName: (label) => label.name },
  };
  return labels;
}
