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

/**
 * The rooms above the client (every room but client, model and shared) reach the client package
 * only by its published names, `labelkit`, `labelkit/documents`, `labelkit/documents/labels`,
 * `labelkit/labels` and `labelkit/model`, never by a relative path into src/client, src/labels,
 * src/model or generated/: in the
 * checkout those names mean the sources (tsconfig `paths`, vitest aliases), in labelkit-tools'
 * build they stay imports of the labelkit package. Exception: the emulator's resolver types,
 * generated/<generation>/resolvers.ts, are the emulator's own (not part of labelkit), types only.
 */
const throughPublicNames = (room) => ({
  // Only paths that climb out (`../`): `./commands/model/` inside the CLI is not src/model.
  regex: `^(?:\\.\\./)+(?:src/)?(?:client|labels|model)(?:/|$)|^(?:\\.\\./)+generated/${room === 'emulator' ? '(?!(?:tags|labels)/resolvers(?:\\.js)?$)' : ''}`,
  message: `src/${room} imports the client package by its published names only: labelkit, labelkit/documents, labelkit/documents/labels, labelkit/labels, labelkit/model (docs/ARCHITECTURE.md)`,
});

/** A no-restricted-imports pattern that refuses a bare import of one of labelkit's own packages. */
const noPackage = (names, why) => ({ regex: `^(?:${names.join('|')})(?:/|$)`, message: `${why} (docs/ARCHITECTURE.md)` });

/** Which room may not import which: the arrows of docs/ARCHITECTURE.md, as lint rules. */
const rooms = [
  {
    files: ['src/shared/**/*.ts'],
    patterns: [
      { regex: '^\\.\\./', message: 'src/shared imports no other room: every room may import it (docs/ARCHITECTURE.md)' },
      noPackage(['labelkit', 'labelkit-tools'], 'src/shared imports no other room: every room may import it'),
    ],
  },
  {
    files: ['src/client/**/*.ts'],
    patterns: [
      noImportOf(['emulator', 'model', 'cli', 'demo', 'bulk', 'labelSets', 'eval', 'export'], 'the client (the published package, also for browsers) imports only src/shared and generated/'),
      noPackage(['labelkit', 'labelkit-tools'], 'the client imports its own files relatively, and nothing of labelkit-tools'),
      // labelkit/labels reads through the client, never the other way round (generated/labels/ is the documents' own).
      { regex: '^(?:\\.\\./)+labels(?:/|$)', message: 'the client imports nothing of src/labels, which sits on it (docs/ARCHITECTURE.md)' },
      { regex: '^node:|(?:^|/)serveFetchHandler(?:\\.js)?$', message: 'the client runs in browsers too: no Node built-ins, no server adapter (docs/ARCHITECTURE.md)' },
      // schemaGeneration rewrites documents with the graphql package: its types only.
      { regex: '(?:^|/)schemaGeneration(?:\\.js)?$', allowTypeImports: true, message: 'the client may take only types from schemaGeneration, which loads the graphql package (docs/ARCHITECTURE.md)' },
    ],
    // The browser build must stay free of the graphql package; types are erased, so they may come from it.
    paths: [{ name: 'graphql', allowTypeImports: true, message: 'the client must not load the graphql package at run time: it would join the browser bundle (docs/ARCHITECTURE.md)' }],
  },
  {
    // Reading a project back (labelkit/labels, shipped in the labelkit package, also for browsers):
    // over the client's public names only, and src/shared.
    files: ['src/labels/**/*.ts'],
    patterns: [
      throughPublicNames('labels'),
      noImportOf(['emulator', 'model', 'cli', 'demo', 'bulk', 'labelSets', 'eval', 'export'], 'reading a project back sits on the client: it may import labelkit, labelkit/documents (public) and src/shared'),
      noPackage(['labelkit/model', 'labelkit/labels', 'labelkit-tools'], 'reading a project back sits on the client: it may import labelkit, labelkit/documents (public) and src/shared, its own files relatively'),
      { regex: '^node:|(?:^|/)(?:serveFetchHandler|schemaGeneration)(?:\\.js)?$', message: 'labelkit/labels runs in browsers too: no Node built-ins, no server adapter, no graphql (docs/ARCHITECTURE.md)' },
    ],
    paths: [{ name: 'graphql', message: 'labelkit/labels must not load the graphql package: it would join the browser bundle (docs/ARCHITECTURE.md)' }],
  },
  {
    files: ['src/model/**/*.ts'],
    patterns: [
      noImportOf(['client', 'emulator', 'cli', 'demo', 'bulk', 'labelSets', 'eval', 'export', 'generated'], 'the model kit (labelkit/model) is for model authors: it imports only src/shared'),
      { regex: '^(?:\\.\\./)+labels(?:/|$)', message: 'the model kit (labelkit/model) is for model authors: it imports only src/shared (docs/ARCHITECTURE.md)' },
      // Zero dependencies: a model author installs labelkit for it without urql mattering.
      { regex: '^(?!node:)[^./]', message: 'the model kit has no dependencies: Node built-ins and src/shared only (docs/ARCHITECTURE.md)' },
    ],
  },
  {
    files: ['src/emulator/**/*.ts'],
    patterns: [
      throughPublicNames('emulator'),
      { regex: '^(?:\\.\\./)+generated/', allowTypeImports: true, message: 'the emulator takes only types from its generated resolver types (docs/ARCHITECTURE.md)' },
      noImportOf(['cli', 'demo', 'bulk', 'labelSets', 'export'], 'the emulator stands in for the service: it may import labelkit/model, labelkit/documents and src/shared, not the CLI'),
      // The results page scores the job's copy against gold with the pure scoring of src/eval (no client).
      { regex: '^\\.{1,2}/(?:.*/)?eval/(?!(?:scoreLabels|matchSpans|maxMatching|schemes|types|prCurve)(?:\\.js)?$)', message: 'the emulator may import only the pure scoring of src/eval (scoreLabels, matchSpans, maxMatching, schemes, types, prCurve), not what reads through the client (docs/ARCHITECTURE.md)' },
      { regex: '^labelkit(?:/labels)?$|^labelkit-tools(?:/|$)', message: 'the emulator stands in for the service: it does not use the client (docs/ARCHITECTURE.md)' },
    ],
  },
  {
    files: ['src/bulk/**/*.ts'],
    patterns: [
      throughPublicNames('bulk'),
      noImportOf(['emulator', 'cli', 'demo', 'labelSets', 'eval', 'export'], 'many-project runs sit above the client: they may import labelkit (public) and src/shared'),
      noPackage(['labelkit/model', 'labelkit-tools'], 'many-project runs sit above the client: they may import labelkit (public) and src/shared'),
    ],
  },
  {
    files: ['src/labelSets/**/*.ts'],
    patterns: [
      throughPublicNames('labelSets'),
      noImportOf(['emulator', 'cli', 'demo', 'bulk', 'eval', 'export'], 'label-set plans sit above the client: they may import labelkit (public) and src/shared'),
      noPackage(['labelkit/model', 'labelkit-tools'], 'label-set plans sit above the client: they may import labelkit (public) and src/shared'),
    ],
  },
  {
    files: ['src/eval/**/*.ts'],
    patterns: [
      throughPublicNames('eval'),
      noImportOf(['emulator', 'cli', 'demo', 'bulk', 'labelSets', 'export'], 'scoring a model sits above the client: it may import labelkit (public) and src/shared'),
      noPackage(['labelkit/model', 'labelkit-tools'], 'scoring a model sits above the client: it may import labelkit (public) and src/shared'),
    ],
  },
  {
    files: ['src/export/**/*.ts'],
    patterns: [
      throughPublicNames('export'),
      // It reads copies through labelkit/labels (projectCopy, readCells, readAllLabels, notGold), as eval does: not through eval.
      noImportOf(['emulator', 'cli', 'demo', 'bulk', 'labelSets', 'eval'], 'the export sits above the client: it may import labelkit, labelkit/labels (public) and src/shared'),
      noPackage(['labelkit/model', 'labelkit-tools'], 'the export sits above the client: it may import labelkit, labelkit/labels (public) and src/shared'),
    ],
  },
  {
    // The pure scoring, which the emulator's results page imports too: nothing but itself.
    files: ['src/eval/scoreLabels.ts', 'src/eval/matchSpans.ts', 'src/eval/maxMatching.ts', 'src/eval/schemes.ts', 'src/eval/types.ts', 'src/eval/prCurve.ts'],
    patterns: [
      { regex: '^(?!\\./(?:scoreLabels|matchSpans|maxMatching|schemes|types|prCurve)\\.js$)', message: 'the scoring (scoreLabels, matchSpans, maxMatching, schemes, types, prCurve) is pure: the emulator imports it, so it imports nothing but itself (docs/ARCHITECTURE.md)' },
    ],
  },
  {
    files: ['src/demo/**/*.ts'],
    patterns: [
      throughPublicNames('demo'),
      noImportOf(['cli', 'bulk', 'labelSets', 'eval', 'export'], 'the demo uses the public parts (client, emulator, model, shared), not the CLI'),
      noPackage(['labelkit-tools'], 'the demo is part of labelkit-tools and imports its rooms relatively'),
    ],
  },
  {
    files: ['src/cli/**/*.ts'],
    patterns: [
      throughPublicNames('cli'),
      noPackage(['labelkit-tools'], 'the CLI is part of labelkit-tools and imports its rooms relatively'),
    ],
  },
  {
    // A command never imports another command: what two commands share (projectFlags, progress,
    // jobWait, jobLines, checks/) lives at the CLI's level, beside runAction and connection.
    files: ['src/cli/commands/**/*.ts'],
    patterns: [
      throughPublicNames('cli'),
      noPackage(['labelkit-tools'], 'the CLI is part of labelkit-tools and imports its rooms relatively'),
      {
        regex: '^\\.\\./(?!\\.\\./)[^/]+/|^(?:\\.\\./){2,}(?:cli/)?commands/',
        message: 'a command imports no other command: move what they share to src/cli (projectFlags, progress, jobWait, jobLines, checks/) (docs/ARCHITECTURE.md)',
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/', '**/dist/', 'dist-types/', 'generated/', 'node_modules/', 'coverage/', 'docs/api/', 'test/fixtures/'] },
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
