import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      // The published names of the client package mean its sources in tests, as tsconfig.json's
      // `paths` do for tsc and tsx (exact matches: `labelkit` must not swallow `labelkit/model`).
      { find: /^labelkit$/, replacement: source('./src/client/index.ts') },
      { find: /^labelkit\/documents$/, replacement: source('./generated/tags/graphql.ts') },
      { find: /^labelkit\/documents\/labels$/, replacement: source('./generated/labels/graphql.ts') },
      { find: /^labelkit\/model$/, replacement: source('./src/model/index.ts') },
      // One copy of graphql: @graphql-tools and graphql-yoga require() its CommonJS build, so
      // tests must not load the ESM build beside it ("Cannot use GraphQLSchema from another realm").
      { find: 'graphql', replacement: require.resolve('graphql') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (*.test-d.ts) pin the public types; see test/types/.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    // Servers in tests listen on 127.0.0.1 and are closed by each file; a slow 2-core
    // machine running several files at once needs room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The JSON report is what .ci/run counts ("tests: N passed, N failed").
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});
