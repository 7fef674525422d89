import type { SchemaGeneration } from '../shared/constants.js';
import type { AppendTagItemInput, TagItemInput } from '../../generated/tags/graphql.js';
import { isLabelkitError } from './errors.js';
import type { LabelItemInput, NewLabelItemInput } from './types.js';

export type { SchemaGeneration } from '../shared/constants.js';

/** What `onSchemaChange` receives when the client switches to the renamed documents. */
export interface SchemaChangeEvent {
  /** The generation the client sent until now. */
  from: 'tags';
  /** The generation it sends from now on. */
  to: 'labels';
  /** The operation whose answer showed the rename. */
  operationName: string;
  /** The service's validation message, e.g. `Cannot query field "tagItems" on type "LabelSet".` */
  message: string;
}

/**
 * A validation message naming a field of today's schema as unknown: the label-set query's fields
 * (`tagItems`, `tagName`), the append mutation's root field, or an input field of a write's
 * variables (graphql-js: `Field "tagItems" is not defined by type "CreateLabelSetInput".`).
 */
const RENAMED_FIELD = /\b(?:cannot query|unknown) field\W+(?:tagItems|tagName|appendLabelSetTagItems)\b|\bfield\W+(?:tagItems|tagName)\W+is not defined by type\b/i;

/**
 * Whether an error is the service refusing, unexecuted, today's names (`tagItems`, `tagName`,
 * `appendLabelSetTagItems`): it has renamed them.
 *
 * @param error - what a call rejected with
 * @returns the service's message that names the field, or undefined for any other error
 * @remarks Only a request error counts: one without a `path`, which graphql-js and the GraphQL
 * specification give to validation and variable coercion, both done before any of the request
 * runs. An error raised while an operation ran has a `path` and never matches, whatever its text.
 * Matches graphql-js's wording (`Cannot query field "tagItems" on type "LabelSet".`), which the
 * service and the emulator answer, and `Unknown field`.
 * @example
 * ```ts
 * renamedFieldMessage(new GraphQLRequestError([{ message: 'Cannot query field "tagItems" on type "LabelSet".' }])); // that message
 * ```
 */
export function renamedFieldMessage(error: unknown): string | undefined {
  if (!isLabelkitError(error) || error.code !== 'GRAPHQL') return undefined;
  return error.graphQLErrors.find((e) => (e.path === undefined || e.path === null) && RENAMED_FIELD.test(e.message))?.message;
}

/**
 * The one switch across the service's rename: sends each label-set call with the documents of
 * the generation in use.
 *
 * @param first - the generation to send first (the client's `schemaGeneration`)
 * @param onSchemaChange - called once, when the client switches from `tags` to `labels`
 * @returns a function that runs a call in the generation in use: `run(generation)` sends that
 * generation's document; a `tags` call refused by {@link renamedFieldMessage} (so nothing of it
 * ran) switches the client to `labels` for the rest of its life, reports it once, and is sent
 * once more in the new words. That is not a retry of a write that may have happened: the refused
 * one never started. Any other failure is returned as it is, and a `labels` client never switches back.
 * @example
 * ```ts
 * const inGeneration = generationSwitch('tags', (e) => console.warn(e.message));
 * const data = await inGeneration('getCabinetLabelSetsById', (g) => execute(g === 'tags' ? TagsDocument : LabelsDocument, { cabinetId }));
 * ```
 */
export function generationSwitch(first: SchemaGeneration, onSchemaChange?: (event: SchemaChangeEvent) => void) {
  let current = first;
  return async <T>(operationName: string, run: (generation: SchemaGeneration) => Promise<T>): Promise<T> => {
    const sent = current;
    try {
      return await run(sent);
    } catch (error) {
      const message = sent === 'tags' ? renamedFieldMessage(error) : undefined;
      if (message === undefined) throw error;
      if (current === 'tags') {
        current = 'labels';
        onSchemaChange?.({ from: 'tags', to: 'labels', operationName, message });
      }
      return run('labels');
    }
  };
}

/**
 * An appended label in today's words (`tagName`); an absent `id` stays absent (the service makes one).
 *
 * @param item - a label as `appendLabelItems` takes it
 * @returns the service's `AppendTagItemInput`
 */
export const newLabelItemInTags = ({ id, labelName, color, desc }: NewLabelItemInput): AppendTagItemInput =>
  ({ ...(id !== undefined && { id }), tagName: labelName, color: color ?? null, desc: desc ?? null });

/**
 * A label of a write in today's words (`tagName`), unset fields sent as null.
 *
 * @param item - a label as labelkit takes it (label words)
 * @returns the service's `TagItemInput`
 */
export const labelItemInTags = ({ parentId, ...item }: LabelItemInput): TagItemInput =>
  ({ ...newLabelItemInTags(item), id: item.id, parentId: parentId ?? null });
