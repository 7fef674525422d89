// Lint: the habits a type checker does not keep, and the import direction between the rooms of
// src/ (docs/ARCHITECTURE.md). `npm test` runs it as `npm run lint`.
import js from '@eslint/js';
import tsdoc from 'eslint-plugin-tsdoc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * A no-restricted-imports pattern that refuses relative imports reaching into other rooms of src/
 * (at any depth, also through `../../src/<room>/`).
 */
const noImportOf = (rooms, why) => ({
  regex: `^\\.{1,2}/(?:.*/)?(?:${rooms.join('|')})(?:/|$)`,
  message: `${why} (docs/ARCHITECTURE.md)`,
});

/** Which room may not import which: the arrows of docs/ARCHITECTURE.md, as lint rules. */
const rooms = [
  {
    files: ['src/shared/**/*.ts'],
    patterns: [{ regex: '^\\.\\./', message: 'src/shared imports no other room: every room may import it (docs/ARCHITECTURE.md)' }],
  },
  {
    files: ['src/client/**/*.ts'],
    patterns: [
      noImportOf(['emulator', 'model', 'cli', 'demo', 'journal', 'labelSets'], 'the client (the published package, also for browsers) imports only src/shared and generated/'),
      { regex: '^node:|(?:^|/)serveFetchHandler(?:\\.js)?$', message: 'the client runs in browsers too: no Node built-ins, no server adapter (docs/ARCHITECTURE.md)' },
      // schemaGeneration rewrites documents with the graphql package: its types only.
      { regex: '(?:^|/)schemaGeneration(?:\\.js)?$', allowTypeImports: true, message: 'the client may take only types from schemaGeneration, which loads the graphql package (docs/ARCHITECTURE.md)' },
    ],
    // The browser build must stay free of the graphql package; types are erased, so they may come from it.
    paths: [{ name: 'graphql', allowTypeImports: true, message: 'the client must not load the graphql package at run time: it would join the browser bundle (docs/ARCHITECTURE.md)' }],
  },
  {
    files: ['src/model/**/*.ts'],
    patterns: [noImportOf(['emulator', 'cli', 'demo', 'journal', 'labelSets'], 'the model kit is for model authors: it may import src/client and src/shared, never the emulator or the CLI')],
  },
  {
    files: ['src/emulator/**/*.ts'],
    patterns: [noImportOf(['client', 'cli', 'demo', 'journal', 'labelSets'], 'the emulator stands in for the service: it may import src/model and src/shared, not the client or the CLI')],
  },
  {
    files: ['src/journal/**/*.ts'],
    patterns: [noImportOf(['emulator', 'model', 'cli', 'demo', 'labelSets'], 'the journal (Node only) records what the client sent: it may import src/client and src/shared')],
  },
  {
    files: ['src/demo/**/*.ts'],
    patterns: [noImportOf(['cli', 'journal', 'labelSets'], 'the demo uses the public parts (client, emulator, model, shared), not the CLI')],
  },
  {
    files: ['src/labelSets/**/*.ts'],
    patterns: [
      noImportOf(['emulator', 'model', 'cli', 'demo', 'journal', 'generated'], 'label sets as code is a workflow above the client: it may import src/client (its entry only) and src/shared'),
      // The client is being rewritten behind its entry, which becomes the bare specifier `labelkit`.
      { regex: '^\\.\\./client/(?!index\\.js$)', message: 'the labelSets room imports the client only through its entry, src/client/index.ts (later `labelkit`) (docs/ARCHITECTURE.md)' },
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'generated/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { tsdoc },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      'tsdoc/syntax': 'error',
      // tsc's noUnusedLocals and noUnusedParameters already check this, and unlike this rule they
      // count an import used only in a TSDoc {@link}.
      '@typescript-eslint/no-unused-vars': 'off',
      // A subscription read by a callback declared before it is assigned must stay `let`: a
      // `const` there would be in its temporal dead zone if the callback ran synchronously.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  ...rooms.map(({ files, patterns, paths = [] }) => ({ files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } })),
  {
    files: ['**/*.js', '**/*.mjs'],
    // bin/, scripts/ and bench helpers run on Node.
    languageOptions: { globals: globals.node },
  },
);
