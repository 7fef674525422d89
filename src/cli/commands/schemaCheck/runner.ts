import { diff } from '@graphql-inspector/core';
import { buildClientSchema, buildSchema } from 'graphql';
import * as tagsDocuments from 'labelkit/documents';
import * as labelsDocuments from 'labelkit/documents/labels';
import { loadSchemaSource } from '../../../emulator/schemaSource.js';
import { generationOfSchema, schemaInGeneration } from '../../../shared/schemaGeneration.js';
import type { SchemaGeneration } from '../../../shared/schemaGeneration.js';
import { requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import type { ActionContext } from '../../runAction.js';
import { introspect } from './introspect.js';
import { touchesUsed, usedFields } from './usedFields.js';

/** Flags of `labelkit schema check`. */
export type SchemaCheckFlags = ConnectionFlags;

/** One change between labelkit's schema and the service's that touches what labelkit uses. */
export interface SchemaChangeRow {
  level: 'BREAKING' | 'DANGEROUS';
  /** graphql-inspector's change type, e.g. `FIELD_REMOVED`. */
  type: string;
  /** The schema coordinate, e.g. `Job.progress`. */
  path: string;
  message: string;
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
  /** Changes that touch nothing labelkit uses (the service has much more than labelkit reads). */
  otherChanges: number;
}

const DOCUMENTS = {
  tags: Object.values(tagsDocuments),
  labels: Object.values(labelsDocuments),
};

/**
 * Compares the service's schema (read by introspection) with labelkit's schema.graphql.
 *
 * @param flags - the connection flags (`--url`, token or client credentials)
 * @param context - the run's io, printer and Ctrl-C signal
 * @returns the changes that touch the fields labelkit uses, and whether the rename has happened
 * @throws {@link CliUsageError} for bad flags (nothing is sent); the client's errors (auth,
 * network, GraphQL) as they come
 * @remarks The introspection query is a typed document run by `client.request` (see
 * `introspect`), with everything the client gives a call. The comparison is graphql-inspector's `diff`
 * of labelkit's schema, in the generation the service speaks, against the service's; only
 * breaking and dangerous changes that touch what labelkit's operations use are kept.
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
  const ours = buildSchema(schemaInGeneration(sdl, comparedAs));
  const used = usedFields(ours, DOCUMENTS[comparedAs]);

  const rows: SchemaChangeRow[] = [];
  let otherChanges = 0;
  for (const change of await diff(ours, service)) {
    const level = change.criticality.level;
    if ((level === 'BREAKING' || level === 'DANGEROUS') && touchesUsed(change.path, change.type, ours, used)) {
      rows.push({ level, type: change.type, path: change.path ?? '', message: change.message });
    } else otherChanges += 1;
  }
  const breaking = rows.filter((r) => r.level === 'BREAKING');
  return {
    url: connection.url,
    compatible: breaking.length === 0,
    serviceGeneration,
    renamed: serviceGeneration === undefined ? undefined : serviceGeneration === 'labels',
    breaking,
    dangerous: rows.filter((r) => r.level === 'DANGEROUS'),
    otherChanges,
  };
}
