import { AppendLabelSetLabelItemsDocument as TagsAppend, CreateLabelSetDocument as TagsCreate, DeleteLabelSetDocument, GetCabinetDocument, GetCabinetLabelSetsByIdDocument as TagsLabelSets, UpdateProjectLabelSetDocument as TagsUpdate } from '../../generated/tags/graphql.js';
import { AppendLabelSetLabelItemsDocument as LabelsAppend, CreateLabelSetDocument as LabelsCreate, GetCabinetLabelSetsByIdDocument as LabelsLabelSets, UpdateProjectLabelSetDocument as LabelsUpdate } from '../../generated/labels/graphql.js';
import { checkId } from '../shared/problem.js';
import type { Requester } from './client.js';
import { perClient } from './perClient.js';
import type { CallOptions, RequestOptions } from './options.js';
import { generationSwitch, labelItemInTags, newLabelItemInTags } from './renameSwitch.js';
import type { Cabinet, LabelItem, LabelItemsAppendInput, LabelSet, LabelSetCreateInput, LabelSetUpdateInput, Role } from './types.js';
import { assertValid, checkAppendLabelItems, checkCreateLabelSet, checkUpdateLabelSet, listProblem } from './validation.js';
// For TSDoc links only.
import type { GraphQLRequestError, NetworkError } from './errors.js';


/** What a label-set write of unknown outcome tells the caller (instead of the job's hint). */
const LABEL_SET_WRITE_OUTCOME_HINT =
  '; the write may have reached the service and changed the label set although no answer arrived: read the label sets again before writing again';

/** The one switch across the tag→label rename of each client, beside it: made on its first label-set call. */
const switchOf = /* @__PURE__ */ perClient(({ schemaGeneration, onSchemaChange }, _client: Requester) => generationSwitch(schemaGeneration ?? 'tags', onSchemaChange));

/** A write's options: the caller's, the label-set hint, and an answer check if any. */
const writeOptions = <D>(options: CallOptions | undefined, check?: (data: D) => string | undefined): RequestOptions<D> => ({ ...options, outcomeHint: LABEL_SET_WRITE_OUTCOME_HINT, ...(check && { check }) });

/**
 * The cabinet of a project for one role (its `id` is the key to the label sets).
 *
 * @param client - a client made by `createLabelingClient`
 * @param projectId - the project's id
 * @param role - `LABELER` or `REVIEWER`
 * @param options - signal and time-out of this call
 * @returns the cabinet, `{ id }`
 */
export async function getCabinet(client: Requester, projectId: string, role: Role, options?: CallOptions): Promise<Cabinet> {
  return (await client.request(GetCabinetDocument, { projectId, role }, options)).getCabinet;
}

/**
 * The label sets of a cabinet, sorted by `index`; labels are called labels, not tags.
 *
 * @param client - a client made by `createLabelingClient` (its `schemaGeneration` says which
 * documents go first)
 * @param cabinetId - from {@link getCabinet}
 * @param options - signal and time-out of this call
 * @returns the sets with their label items
 * @remarks Follows the service across its tag→label rename: a `tags` client whose query the
 * service refuses for naming `tagItems`/`tagName` switches to the renamed documents once (calling
 * the client's `onSchemaChange`) and sends the query again in the new words.
 * @example
 * ```ts
 * const sets = await getLabelSets(client, cabinet.id);
 * ```
 */
export async function getLabelSets(client: Requester, cabinetId: string, options?: CallOptions): Promise<LabelSet[]> {
  const call: RequestOptions<{ getCabinetLabelSetsById: unknown }> = { ...options, check: (d) => listProblem('getCabinetLabelSetsById', d.getCabinetLabelSetsById) };
  const data = await switchOf(client)('getCabinetLabelSetsById', (generation) => client.request(generation === 'tags' ? TagsLabelSets : LabelsLabelSets, { cabinetId }, call));
  return data.getCabinetLabelSetsById.sort((a, b) => a.index - b.index);
}

/**
 * The label sets of a project for one role: {@link getCabinet}, then {@link getLabelSets}.
 *
 * @param client - a client made by `createLabelingClient`
 * @param projectId - the project's id
 * @param role - `LABELER` or `REVIEWER`
 * @param options - signal and time-out, for each of the two calls
 * @returns the sets, sorted by `index`
 * @example
 * ```ts
 * const sets = await getProjectLabelSets(client, 'PROJECT_ID', 'LABELER');
 * ```
 */
export async function getProjectLabelSets(client: Requester, projectId: string, role: Role, options?: CallOptions): Promise<LabelSet[]> {
  const cabinet = await getCabinet(client, projectId, role, options);
  return getLabelSets(client, cabinet.id, options);
}

// The writes take labelkit's input as the renamed generation's variables; today's words are one typed conversion.

/**
 * Creates a label set in a project (`createLabelSet`).
 *
 * @param client - a client made by `createLabelingClient`
 * @param projectId - the project's id
 * @param input - `index` (0 to 4), `name`, `labelItems` (flat; `parentId` links them) and
 * `arrowLabelRequired`
 * @param options - signal and time-out of this call
 * @returns the new set, as {@link getLabelSets} reads it (with its id and signature)
 * @throws `ValidationError` before anything is sent, listing every problem (an index
 * outside 0–4, an empty name, duplicate ids, names used twice under one parent, a parent not in
 * the list, a cycle, a colour that is not `#rrggbb`); {@link GraphQLRequestError} when the
 * service refuses it (e.g. a sixth set); {@link NetworkError} with `mutationOutcomeUnknown: true`
 * when the answer was lost (read the sets again before creating it again). Never retried.
 */
export async function createLabelSet(client: Requester, projectId: string, input: LabelSetCreateInput, options?: CallOptions): Promise<LabelSet> {
  assertValid('CreateLabelSet', checkCreateLabelSet(projectId, input), options);
  const { labelItems, ...set } = input;
  const call = writeOptions(options);
  return (await switchOf(client)('CreateLabelSet', (generation) =>
    generation === 'labels' ? client.request(LabelsCreate, { projectId, input }, call) : client.request(TagsCreate, { projectId, input: { ...set, tagItems: labelItems.map(labelItemInTags) } }, call))).createLabelSet;
}

/**
 * Renames a project's label set and/or replaces all of its labels (`updateProjectLabelSet`).
 *
 * @param client - a client made by `createLabelingClient`
 * @param input - the set's `id` and `projectId`, its `labelSetSignature` as read, and a new
 * `name` and/or `labelItems` (every label of the set afterwards)
 * @param options - signal and time-out of this call
 * @returns the set afterwards
 * @remarks The service removes the applied labels of every label whose id is left out of
 * `labelItems`; a label whose id stays keeps them, renamed or not. What the service does with a
 * stale `labelSetSignature` is not documented (the emulator refuses the write): compare the
 * set's signature yourself right before writing when it matters.
 * @throws as {@link createLabelSet}
 */
export async function updateLabelSet(client: Requester, input: LabelSetUpdateInput, options?: CallOptions): Promise<LabelSet> {
  assertValid('UpdateProjectLabelSet', checkUpdateLabelSet(input), options);
  const { labelItems, ...change } = input;
  const call = writeOptions(options);
  return (await switchOf(client)('UpdateProjectLabelSet', (generation) =>
    generation === 'labels' ? client.request(LabelsUpdate, { input }, call) : client.request(TagsUpdate, { input: { ...change, ...(labelItems && { tagItems: labelItems.map(labelItemInTags) }) } }, call))).updateProjectLabelSet;
}

/**
 * Adds labels at the top of a label set, keeping every label it has (`appendLabelSetTagItems`).
 *
 * @param client - a client made by `createLabelingClient`
 * @param input - the set's id, its `labelSetSignature` as read, and the new labels (no
 * `parentId`; `id` optional)
 * @param options - signal and time-out of this call
 * @returns the new labels only, in the order sent, with the ids the service generated for
 * those sent without one
 * @throws as {@link createLabelSet}
 */
export async function appendLabelItems(client: Requester, input: LabelItemsAppendInput, options?: CallOptions): Promise<LabelItem[]> {
  assertValid('AppendLabelSetLabelItems', checkAppendLabelItems(input), options);
  const { labelItems, ...set } = input;
  const call = writeOptions(options, (d: { appendLabelSetLabelItems: unknown }) => listProblem('appendLabelSetLabelItems', d.appendLabelSetLabelItems, labelItems.length, 'label items', 'sent'));
  const data = await switchOf(client)('AppendLabelSetLabelItems', (generation) =>
    generation === 'labels' ? client.request(LabelsAppend, { input }, call) : client.request(TagsAppend, { input: { ...set, tagItems: labelItems.map(newLabelItemInTags) } }, call));
  return data.appendLabelSetLabelItems ?? []; // never null here: the check refuses a null answer
}

/**
 * Deletes a label set (`deleteLabelSet`); the service removes the labels applied with its labels.
 *
 * @param client - a client made by `createLabelingClient`
 * @param id - the set's id
 * @param options - signal and time-out of this call
 * @returns the ids the service answers (the emulator answers the set's id)
 * @throws as {@link createLabelSet}
 */
export async function deleteLabelSet(client: Requester, id: string, options?: CallOptions): Promise<string[]> {
  assertValid('DeleteLabelSet', checkId(id, 'id'), options);
  return (await client.request(DeleteLabelSetDocument, { id }, writeOptions(options))).deleteLabelSet;
}
