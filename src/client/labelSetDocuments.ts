import type { TypedDocumentNode } from '@urql/core';
import type {
  AppendLabelSetLabelItemsMutation,
  CreateLabelSetMutation,
  DeleteLabelSetMutation,
  GetCabinetLabelSetsByIdQuery,
  GetCabinetLabelSetsByIdQueryVariables,
  UpdateProjectLabelSetMutation,
} from '../../generated/graphql.js';
import {
  AppendLabelSetLabelItemsDocument as LabelsAppend,
  CreateLabelSetDocument as LabelsCreate,
  DeleteLabelSetDocument as LabelsDelete,
  GetCabinetLabelSetsByIdDocument as LabelsDocument,
  UpdateProjectLabelSetDocument as LabelsUpdate,
} from '../../generated/labels/graphql.js';
import type * as Labels from '../../generated/labels/graphql.js';
import {
  AppendLabelSetLabelItemsDocument as TagsAppend,
  CreateLabelSetDocument as TagsCreate,
  DeleteLabelSetDocument as TagsDelete,
  GetCabinetLabelSetsByIdDocument as TagsDocument,
  UpdateProjectLabelSetDocument as TagsUpdate,
} from '../../generated/tags/graphql.js';
import type { SchemaGeneration } from '../shared/constants.js';
import { isLabelkitError } from './errors.js';

export type { SchemaGeneration } from '../shared/constants.js';

/** The label-set query, typed once for both generations (the aliases keep the result keys). */
type LabelSetsDocument = TypedDocumentNode<GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables>;

/** The label-set document of each schema generation; both have the same result type. */
const DOCUMENTS: Record<SchemaGeneration, LabelSetsDocument> = { tags: TagsDocument, labels: LabelsDocument };

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

/** A validation message naming a field of today's schema as unknown: the service has renamed it. */
const RENAMED_FIELD = /\b(?:cannot query|unknown) field\W+(?:tagItems|tagName)\b/i;

/**
 * The same for the label-set writes: their root field, or an input field of their variables
 * (graphql-js: `Field "tagItems" is not defined by type "CreateLabelSetInput". Did you mean "labelItems"?`).
 */
const RENAMED_WRITE_FIELD = /\b(?:cannot query|unknown) field\W+(?:tagItems|tagName|appendLabelSetTagItems)\b|\bfield\W+(?:tagItems|tagName)\W+is not defined by type\b/i;

/**
 * Whether an error is the service refusing today's field names (`tagItems`, `tagName`).
 *
 * @param error - what a call rejected with
 * @returns the validation message that names the field, or undefined for any other error
 * @remarks Matches graphql-js's validation message
 * (`Cannot query field "tagItems" on type "LabelSet".`), which the service and the emulator
 * answer, and the wording `Unknown field`.
 * @example
 * ```ts
 * renamedFieldMessage(new GraphQLRequestError([{ message: 'Cannot query field "tagItems" on type "LabelSet".' }])); // that message
 * ```
 */
export function renamedFieldMessage(error: unknown): string | undefined {
  if (!isLabelkitError(error) || error.code !== 'GRAPHQL') return undefined;
  const entries = (error as { graphQLErrors?: { message: string }[] }).graphQLErrors ?? [];
  return entries.find((e) => RENAMED_FIELD.test(e.message))?.message;
}

/**
 * Whether a label-set write was refused, unexecuted, because the service no longer knows today's
 * names (`appendLabelSetTagItems`, or `tagItems`/`tagName` in its variables).
 *
 * @param error - what a write rejected with
 * @returns the service's message, or undefined for any other error
 * @remarks Only a request error counts: one without a `path`, which graphql-js and the GraphQL
 * specification give to validation and variable coercion, both done before any of the request
 * runs. An error raised while the write ran has a `path` and never matches, whatever its text.
 * @example
 * ```ts
 * renamedWriteMessage(new GraphQLRequestError([{ message: 'Cannot query field "appendLabelSetTagItems" on type "Mutation".' }])); // that message
 * ```
 */
export function renamedWriteMessage(error: unknown): string | undefined {
  if (!isLabelkitError(error) || error.code !== 'GRAPHQL') return undefined;
  const entries = (error as { graphQLErrors?: { message: string; path?: unknown }[] }).graphQLErrors ?? [];
  return entries.find((e) => (e.path === undefined || e.path === null) && RENAMED_WRITE_FIELD.test(e.message))?.message;
}

/**
 * Each label-set write: its answer, and its variables in the renamed words (`labelItems`,
 * `labelName`), which are labelkit's public words too. {@link LabelSetDocuments.write} sends them
 * in the words of the generation in use.
 */
export interface LabelSetWrites {
  CreateLabelSet: { data: CreateLabelSetMutation; variables: Labels.CreateLabelSetMutationVariables };
  UpdateProjectLabelSet: { data: UpdateProjectLabelSetMutation; variables: Labels.UpdateProjectLabelSetMutationVariables };
  AppendLabelSetLabelItems: { data: AppendLabelSetLabelItemsMutation; variables: Labels.AppendLabelSetLabelItemsMutationVariables };
  DeleteLabelSet: { data: DeleteLabelSetMutation; variables: Labels.DeleteLabelSetMutationVariables };
}

/** The documents of each write in each generation; the answers have the same type in both. */
const WRITE_DOCUMENTS: { [K in keyof LabelSetWrites]: Record<SchemaGeneration, TypedDocumentNode<LabelSetWrites[K]['data'], never>> } = {
  CreateLabelSet: { tags: TagsCreate, labels: LabelsCreate },
  UpdateProjectLabelSet: { tags: TagsUpdate, labels: LabelsUpdate },
  AppendLabelSetLabelItems: { tags: TagsAppend, labels: LabelsAppend },
  DeleteLabelSet: { tags: TagsDelete, labels: LabelsDelete },
};

/** Today's input names for the renamed ones: the writes' variables are sent in these to a `tags` service. */
const TAG_WORDS: Readonly<Record<string, string>> = { labelItems: 'tagItems', labelName: 'tagName' };

/** A copy of JSON-like variables with the renamed keys in today's words (`labelItems` → `tagItems`, `labelName` → `tagName`). */
function inTagWords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inTagWords);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [TAG_WORDS[k] ?? k, inTagWords(v)]));
}

/** Sends one document with its variables; the client passes its executor, bound to the call. */
export type SendDocument = <Data>(document: TypedDocumentNode<Data, never>, variables: Record<string, unknown>) => Promise<Data>;

/**
 * The label-set documents of one client, and the one switch across the service's rename.
 *
 * @remarks A client starts with the documents of its `schemaGeneration` (`tags` by default, today's
 * production). When a query sent with the `tags` document is refused because the service no longer
 * knows `tagItems`/`tagName`, {@link LabelSetDocuments.send} switches to the `labels` document for
 * the rest of the client's life, reports it once through `onSchemaChange`, and re-sends the query
 * (a query is safe to repeat). Calls in flight at the switch re-send too, without a second report.
 * It never switches back: an error of the `labels` document is returned as it is.
 * @example
 * ```ts
 * const documents = new LabelSetDocuments('tags', (e) => console.error(`switched to ${e.to}`));
 * const data = await documents.send((document) => execute(document, { cabinetId }, call));
 * ```
 */
export class LabelSetDocuments {
  private current: SchemaGeneration;

  /**
   * @param generation - the generation to send first
   * @param onSchemaChange - called once when the client switches from `tags` to `labels`
   */
  constructor(
    generation: SchemaGeneration,
    private readonly onSchemaChange?: (event: SchemaChangeEvent) => void,
  ) {
    this.current = generation;
  }

  /** The generation sent now. */
  get generation(): SchemaGeneration {
    return this.current;
  }

  /**
   * Sends the label-set query with the current document, switching once across the rename.
   *
   * @param request - sends one document and resolves with its data
   * @param operationName - named in the {@link SchemaChangeEvent}
   * @returns the data of the first answer, or of the re-sent query after a switch
   * @throws whatever `request` throws, except the rename's validation error on the `tags` document
   */
  async send<T>(request: (document: LabelSetsDocument) => Promise<T>, operationName = 'getCabinetLabelSetsById'): Promise<T> {
    const sent = this.current;
    try {
      return await request(DOCUMENTS[sent]);
    } catch (error) {
      const message = sent === 'tags' ? renamedFieldMessage(error) : undefined;
      if (message === undefined) throw error;
      this.switchToLabels(operationName, message);
      return request(DOCUMENTS.labels);
    }
  }

  /**
   * Sends one label-set write in the words of the generation in use, switching once across the rename.
   *
   * @param operationName - which write
   * @param variables - its variables in label words (`labelItems`, `labelName`)
   * @param send - sends one document (the client's executor, with `kind: 'mutation'`)
   * @returns the answer's data
   * @throws whatever `send` throws, except the rename's refusal of the `tags` document
   * @remarks A `tags` write refused because the service has renamed (see
   * {@link renamedWriteMessage}: a request error, so nothing of it ran) switches the client to
   * `labels`, reports it once through `onSchemaChange`, and sends the write once more in the new
   * words. That is not a retry of a write that may have happened: the refused one never started.
   * Any other failure is not re-sent (a lost answer stays `mutationOutcomeUnknown`).
   */
  async write<K extends keyof LabelSetWrites>(operationName: K, variables: LabelSetWrites[K]['variables'], send: SendDocument): Promise<LabelSetWrites[K]['data']> {
    const documents: Record<SchemaGeneration, TypedDocumentNode<LabelSetWrites[K]['data'], never>> = WRITE_DOCUMENTS[operationName];
    const inWords = (generation: SchemaGeneration) => (generation === 'tags' ? (inTagWords(variables) as Record<string, unknown>) : { ...variables });
    const sent = this.current;
    try {
      return await send(documents[sent], inWords(sent));
    } catch (error) {
      const message = sent === 'tags' ? renamedWriteMessage(error) : undefined;
      if (message === undefined) throw error;
      this.switchToLabels(operationName, message);
      return send(documents.labels, inWords('labels'));
    }
  }

  /**
   * Switches to the `labels` documents for the rest of the client's life and reports it once.
   *
   * @param operationName - the operation whose answer showed the rename
   * @param message - the service's validation message
   */
  switchToLabels(operationName: string, message: string): void {
    if (this.current !== 'tags') return;
    this.current = 'labels';
    this.onSchemaChange?.({ from: 'tags', to: 'labels', operationName, message });
  }
}

