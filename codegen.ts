import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodegenConfig } from '@graphql-codegen/cli';
import type { Types } from '@graphql-codegen/plugin-helpers';
import { emulatorSchemaSource } from './src/emulator/schemaSource.js';
import { operationsInGeneration, SCHEMA_GENERATIONS, schemaInGeneration } from './src/shared/schemaGeneration.js';

/**
 * Inputs: the hand-written SDL (schema.graphql) and one document per file under operations/,
 * both written in either schema generation (`tags` today, `labels` after the service's rename);
 * operations/ may keep the `labelItems: tagItems` aliases after schema.graphql is renamed.
 *
 * Outputs (committed; `npm run codegen:check`, part of `npm test`, fails when one is stale):
 * - generated/<generation>/graphql.ts: the typed documents, rewritten for each generation, with the
 *   same result types: `labelkit/documents` (tags) and `labelkit/documents/labels`; the client
 *   sends one or the other (src/client/client.ts, switched once by src/client/labelSetDocuments.ts).
 * - generated/<generation>/schema.graphql: schema.graphql in each generation, shipped in the labelkit
 *   package (`labelkit/schema.graphql`, `labelkit/schema.labels.graphql`) for an app's own codegen.
 * - generated/<generation>/resolvers.ts: the emulator's resolver types for the schema it serves in
 *   each generation, with the store's types as mappers: a field the store does not have must get a
 *   resolver (src/emulator/resolvers.ts), so a rename is a compile error.
 *
 * The generation outputs are the same whichever generation schema.graphql and operations/ are
 * written in, so after the rename `npm run codegen` is the only step (docs/rename.md).
 *
 * The documents are plain DocumentNode objects (no `graphql` import at run time), so the browser
 * build of the client stays free of the `graphql` package; their type is the client's
 * TypedDocumentNode, which needs no `graphql` either.
 */

/** How documents become typed documents; shared by every document target. */
const documentPlugins: Types.ConfiguredOutput = {
  plugins: ['typescript-operations', 'typed-document-node'],
  // typescript-operations 6 emits only the types the operations reach, and enums as
  // string-literal unions (its `enumType` default): no runtime enums, no option needed.
  config: {
    useTypeImports: true,
    skipTypename: true,
    dedupeOperationSuffix: true,
    strictScalars: true,
    scalars: {
      ID: { input: 'string', output: 'string' },
      JobErrorArgs: { input: 'Record<string, unknown>', output: 'Record<string, unknown>' },
      // Unpublished JSON (the shapes of TextLabel and Cell, not promised): checked at run time.
      TextLabelScalar: { input: 'unknown', output: 'unknown' },
      CellScalar: { input: 'unknown', output: 'unknown' },
    },
    // The client's own type (src/client/typedDocument.ts, exported as labelkit's TypedDocumentNode):
    // graphql's DocumentNode where an app has graphql, a structural document where it has not, so
    // the variables and the result stay typed in an app that installs labelkit alone. urql's type
    // falls back to `any` there, and @graphql-typed-document-node/core's has a required peer
    // dependency on graphql, which npm would install into every app (3 MB, never loaded).
    documentNodeImport: '../../src/client/typedDocument.js#TypedDocumentNode',
  },
};

/** The emulator's resolver types: the store's types stand for the schema's object types. */
const resolverPlugins: Types.ConfiguredOutput = {
  plugins: ['typescript', 'typescript-resolvers'],
  config: {
    useTypeImports: true,
    enumsAsTypes: true,
    strictScalars: true,
    scalars: {
      ID: { input: 'string', output: 'string' },
      JobErrorArgs: { input: 'Record<string, unknown>', output: 'Record<string, unknown>' },
      TextLabelScalar: { input: 'unknown', output: 'unknown' },
      CellScalar: { input: 'unknown', output: 'unknown' },
    },
    mapperTypeSuffix: 'Model',
    mappers: {
      Cabinet: '../../src/emulator/types.js#StoredCabinet',
      LabelSet: '../../src/emulator/types.js#StoredLabelSet',
      TagItem: '../../src/emulator/types.js#StoredLabel',
      Job: '../../src/emulator/types.js#StoredJob',
      JobError: '../../src/emulator/types.js#StoredJobError',
    },
  },
};

/**
 * The codegen configuration of a checkout.
 *
 * @param root - the folder holding schema.graphql and operations/ (tests pass a renamed copy)
 * @returns the configuration; output paths are relative to `root`
 */
export function codegenConfig(root = '.'): CodegenConfig {
  const schemaSdl = readFileSync(join(root, 'schema.graphql'), 'utf8');
  const operations = readdirSync(join(root, 'operations'))
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(root, 'operations', f), 'utf8'))
    .join('\n');
  const generationTargets = Object.fromEntries(
    SCHEMA_GENERATIONS.flatMap((generation): [string, Types.ConfiguredOutput][] => [
      [
        `generated/${generation}/graphql.ts`,
        { ...documentPlugins, schema: schemaInGeneration(schemaSdl, generation), documents: operationsInGeneration(operations, generation) },
      ],
      [`generated/${generation}/resolvers.ts`, { ...resolverPlugins, schema: emulatorSchemaSource(schemaSdl, generation) }],
      // The SDL an app's own codegen generates its documents against (`labelkit/schema.graphql`,
      // `labelkit/schema.labels.graphql`): the service's schema as labelkit knows it, in each generation.
      [`generated/${generation}/schema.graphql`, { plugins: ['schema-ast'], schema: schemaInGeneration(schemaSdl, generation) }],
    ]),
  );
  return { emitLegacyCommonJSImports: false, generates: generationTargets };
}

export default codegenConfig();
