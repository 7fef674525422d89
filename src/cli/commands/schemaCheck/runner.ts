import { diff } from '@graphql-inspector/core';
import { buildClientSchema, buildSchema } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import * as tagsDocuments from 'labelkit/documents';
import * as labelsDocuments from 'labelkit/documents/labels';
import { loadSchemaSource } from '../../../emulator/schemaSource.js';
import { generationOfSchema, SCHEMA_GENERATIONS, schemaInGeneration } from '../../../shared/schemaGeneration.js';
import type { SchemaGeneration } from '../../../shared/schemaGeneration.js';
import { requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import type { ActionContext } from '../../runAction.js';
import { introspect } from '../../introspect.js';
import { touchesUsed, usedFields } from './usedFields.js';

/** Flags of `labelkit schema check`. */
export type SchemaCheckFlags = ConnectionFlags;

/** One change between labelkit's schema and the service's. */
export interface SchemaChangeRow {
  /** graphql-inspector's criticality: the other changes may be `NON_BREAKING` too. */
  level: 'BREAKING' | 'DANGEROUS' | 'NON_BREAKING';
  /** graphql-inspector's change type, e.g. `FIELD_REMOVED`. */
  type: string;
  /** The schema coordinate, e.g. `Job.progress`. */
  path: string;
  message: string;
}

/** The typed documents of one entry point, checked against the service's schema. */
export interface DocumentsCheck {
  /** The import path an app uses: `labelkit/documents` (today's names) or `labelkit/documents/labels`. */
  entry: 'labelkit/documents' | 'labelkit/documents/labels';
  generation: SchemaGeneration;
  /** True when no breaking change touches what these documents use: another client can send them. */
  compatible: boolean;
  /** The breaking changes that touch what these documents use. */
  breaking: SchemaChangeRow[];
}

/** What `labelkit schema check` found. */
export interface SchemaCheckResult {
  url: string;
  /** True when no breaking change touches what labelkit uses. */
  compatible: boolean;
  /** The generation the service speaks; undefined when it has neither set of names. */
  serviceGeneration: SchemaGeneration | undefined;
  /** Whether the tag→label rename has happened (undefined: cannot tell). */
  renamed: boolean | undefined;
  breaking: SchemaChangeRow[];
  dangerous: SchemaChangeRow[];
  /**
   * Each entry point of typed documents, for code that sends them through another GraphQL client
   * (plain urql, graphql-request), which does not switch generation as `createLabelingClient` does.
   */
  documents: DocumentsCheck[];
  /** The changes that touch nothing labelkit uses (the service has much more than labelkit reads). */
  otherChanges: SchemaChangeRow[];
}

const DOCUMENTS = {
  tags: Object.values(tagsDocuments),
  labels: Object.values(labelsDocuments),
};
const ENTRIES = { tags: 'labelkit/documents', labels: 'labelkit/documents/labels' } as const;

/** The changes from labelkit's schema in one generation to the service's, split by what its documents use. */
async function compare(sdl: string, generation: SchemaGeneration, service: GraphQLSchema): Promise<{ rows: SchemaChangeRow[]; others: SchemaChangeRow[] }> {
  const ours = buildSchema(schemaInGeneration(sdl, generation));
  const used = usedFields(ours, DOCUMENTS[generation]);
  const rows: SchemaChangeRow[] = [];
  const others: SchemaChangeRow[] = [];
  for (const change of await diff(ours, service)) {
    const level = change.criticality.level;
    const row = { level, type: change.type, path: change.path ?? '', message: change.message };
    if ((level === 'BREAKING' || level === 'DANGEROUS') && touchesUsed(change.path, change.type, ours, used)) rows.push(row);
    else others.push(row);
  }
  return { rows, others };
}

/**
 * Compares the service's schema (read by introspection) with labelkit's schema.graphql.
 *
 * @param flags - the connection flags (`--url`, token or client credentials)
 * @param context - the run's io, printer and Ctrl-C signal
 * @returns the changes that touch the fields labelkit uses, whether the rename has happened,
 * which entry of typed documents another client can send, and every other change
 * @throws {@link CliUsageError} for bad flags (nothing is sent); the client's errors (auth,
 * network, GraphQL) as they come
 * @remarks The introspection query is a typed document run by `client.request` (see
 * `introspect`), with everything the client gives a call. The comparison is graphql-inspector's `diff`
 * of labelkit's schema, in the generation the service speaks, against the service's; only
 * breaking and dangerous changes that touch what labelkit's operations use are kept. The
 * documents of each generation are compared the same way, for apps that send them themselves.
 * @example
 * ```ts
 * const result = await runSchemaCheck({ url: 'http://127.0.0.1:4000/graphql' }, context);
 * if (!result.compatible) console.error(result.breaking.map((b) => b.message));
 * ```
 */
export async function runSchemaCheck(flags: SchemaCheckFlags, context: ActionContext): Promise<SchemaCheckResult> {
  const connection = await requireConnection(flags, context.io, context.printer);
  const service = buildClientSchema(await introspect(connection, context.signal));
  const serviceGeneration = generationOfSchema(service);
  const sdl = loadSchemaSource();
  // A service with neither set of names is compared with today's: its missing fields show as breaking.
  const comparedAs = serviceGeneration ?? 'tags';
  const compared = {} as Record<SchemaGeneration, { rows: SchemaChangeRow[]; others: SchemaChangeRow[] }>;
  for (const generation of SCHEMA_GENERATIONS) compared[generation] = await compare(sdl, generation, service);
  const { rows, others } = compared[comparedAs];
  const breaking = rows.filter((r) => r.level === 'BREAKING');
  return {
    url: connection.url,
    compatible: breaking.length === 0,
    serviceGeneration,
    renamed: serviceGeneration === undefined ? undefined : serviceGeneration === 'labels',
    breaking,
    dangerous: rows.filter((r) => r.level === 'DANGEROUS'),
    documents: SCHEMA_GENERATIONS.map((generation) => {
      const documentsBreaking = compared[generation].rows.filter((r) => r.level === 'BREAKING');
      return { entry: ENTRIES[generation], generation, compatible: documentsBreaking.length === 0, breaking: documentsBreaking };
    }),
    otherChanges: others,
  };
}
