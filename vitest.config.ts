import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { relative, sep } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';
import { fileURLToPath } from 'node:url';
import { SHARES_POSTGRES, STARTS_PROCESSES } from './test/support/tiers.js';
import { within } from './test/support/testEnvironment.js';

const require = createRequire(import.meta.url);
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Test files that need a process of their own (isolate: true), and why. Every other file runs in
 * the `shared` project, where files run one after another in the same worker process and share
 * its loaded modules (isolate: false): graphql, graphql-yoga and urql load once per worker instead
 * of once per file. A shared file must put back what it changes of the process (fake timers,
 * stubbed globals, process listeners); test/support/sharedProcessGuard.ts fails one that does not.
 */
const NEEDS_OWN_PROCESS = [
  // Fails on any unhandledRejection of the process while it runs: in a shared process, a late
  // rejection from an earlier file's leftover work would be counted against this file.
  'test/client/answerShape.test.ts',
  // Both assert that no MaxListenersExceededWarning is emitted on the process while a job or a
  // wait runs: a warning from an earlier file's leftover work would be counted here too.
  'test/client/waitFaults.test.ts',
  'test/emulator/abortListeners.test.ts',
  // graphql-codegen's generate() runs listr2, which adds a process.once('SIGINT') handler that
  // calls process.exit(127) on every run and never removes it (14 per run of this file): in a
  // shared worker they would stay, and a later file's Ctrl-C test would end the worker.
  'test/codegen/rename.test.ts',
  // Mocks node:fs/promises (a full disk for its folder): in a shared worker, the modules an earlier
  // file loaded would keep the real one.
  'test/eval/errorsFileWrite.test.ts',
];


/**
 * The slowest test files, slowest first (each takes 10-20 s on two cores; most others take well
 * under one): they start before every other file, so that the run does not end with one of them
 * still running on one worker while the other has nothing left. Vitest's own order puts the files
 * that took longest last time first, but a fresh clone has no such record, and its fallback
 * (larger files first) started renameSteps, a short file, last.
 */
const SLOWEST_FIRST = [
  // The rename steps of docs/rename.md on a copy of the repository: codegen, a vitest of its own, tsc.
  'test/codegen/renameSteps.test.ts',
  // npm pack, three npm installs, four codegen runs, three strict type checks of installed packages.
  'test/build/packInstall.test.ts',
  // Every sh block of the README and docs/, with their emulators, models, workers and PostgreSQL.
  'test/build/readmeShellBlocks.test.ts',
  // tsc over the whole project.
  'test/types/typecheck.test.ts',
];

/** Vitest's order, with {@link SLOWEST_FIRST} moved to the front. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST_FIRST.indexOf(relative(root, spec.moduleId).split(sep).join('/'));
      return at === -1 ? SLOWEST_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b)); // a stable sort
  }
}

export default defineConfig({
  resolve: {
    alias: [
      // The published names of the client package mean its sources in tests, as tsconfig.json's
      // `paths` do for tsc and tsx (exact matches: `labelkit` must not swallow `labelkit/model`).
      { find: /^labelkit$/, replacement: source('./src/client/index.ts') },
      { find: /^labelkit\/documents$/, replacement: source('./generated/tags/graphql.ts') },
      { find: /^labelkit\/documents\/labels$/, replacement: source('./generated/labels/graphql.ts') },
      { find: /^labelkit\/model$/, replacement: source('./src/model/index.ts') },
      { find: /^labelkit\/labels$/, replacement: source('./src/labels/index.ts') },
      // One copy of graphql: @graphql-tools and graphql-yoga require() its CommonJS build, so
      // tests must not load the ESM build beside it ("Cannot use GraphQLSchema from another realm").
      { find: 'graphql', replacement: require.resolve('graphql') },
    ],
  },
  test: {
    // Three workers on a two-core machine (vitest's default is one fewer than the cores: one), more
    // where there are more cores. The tests often wait on sockets, timers and child processes: a
    // third file runs meanwhile (on two cores, vitest took about 73 s instead of 78 s with two
    // workers; four were no faster than three: the two cores are then busy).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // Servers in tests listen on 127.0.0.1 and are closed by each file; a slow 2-core
    // machine running several files at once needs room (LABELKIT_TEST_TIME_FACTOR scales it).
    testTimeout: within(30_000),
    hookTimeout: within(30_000),
    sequence: { sequencer: SlowestFirst },
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache, keyed by each
    // file's content and the config), so a second run does not transform src/ and test/ again: on
    // test/cli + test/client, 77 → 59 CPU-s with the cache warm (load 15-16); a fresh clone (CI)
    // transforms as before. `npx vitest --clearCache` empties it.
    experimental: { fsModuleCache: true },
    // A temporary folder of the run's own; the run fails when a test leaves a labelkit-* entry in it.
    globalSetup: ['test/support/tempFolderCheck.ts'],
    // The JSON report is what .ci/run counts ("tests: N passed, N failed"); the CPU report names the
    // five test files that cost the most CPU, at the end of every run.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }], './test/support/cpuReporter.ts'],
    // Two tiers. `npm run test:quick` runs the projects whose name starts with `quick` (vitest
    // --project 'quick*'): every file that starts no separate process. `npm test` runs all three.
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...NEEDS_OWN_PROCESS, ...STARTS_PROCESSES],
          isolate: false,
          // Fails a file that leaves fake timers, a stubbed global or a process listener behind.
          setupFiles: ['test/support/sharedProcessGuard.ts', 'test/support/fileCpu.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'quick-own-process',
          include: NEEDS_OWN_PROCESS,
          isolate: true,
          setupFiles: ['test/support/fileCpu.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: STARTS_PROCESSES,
          exclude: [...configDefaults.exclude, ...SHARES_POSTGRES],
          isolate: false,
          setupFiles: ['test/support/sharedProcessGuard.ts', 'test/support/fileCpu.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The files of STARTS_PROCESSES that share one PostgreSQL cluster (test/support/tiers.ts):
          // started by this project's global setup, only when one of them runs.
          name: 'postgres',
          include: SHARES_POSTGRES,
          isolate: false,
          globalSetup: ['test/support/sharedPostgres.ts'],
          setupFiles: ['test/support/sharedProcessGuard.ts', 'test/support/fileCpu.ts'],
        },
      },
    ],
  },
});
