import type { TypedDocumentNode } from '@urql/core';
import type { GetCabinetLabelSetsByIdQuery, GetCabinetLabelSetsByIdQueryVariables } from '../../generated/graphql.js';
import { GetCabinetLabelSetsByIdDocument as LabelsDocument } from '../../generated/labels/graphql.js';
import { GetCabinetLabelSetsByIdDocument as TagsDocument } from '../../generated/tags/graphql.js';
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
      if (this.current === 'tags') {
        this.current = 'labels';
        this.onSchemaChange?.({ from: 'tags', to: 'labels', operationName, message });
      }
      return request(DOCUMENTS.labels);
    }
  }
}
