import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * One target: the hand-written SDL plus one document per file under operations/
 * become typed documents in generated/graphql.ts. The output is committed;
 * `npm run codegen:check` (part of `npm test`) fails when it is stale.
 *
 * The documents are plain DocumentNode objects (no `graphql` import at run time),
 * so the browser build of the client stays free of the `graphql` package.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['operations/**/*.graphql'],
  emitLegacyCommonJSImports: false,
  generates: {
    'generated/graphql.ts': {
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
        },
      },
    },
  },
};

export default config;
