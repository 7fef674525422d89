// The tiers of the suite, for vitest.config.ts and test/build/testTiers.test.ts.

/**
 * The test files of `npm test` that `npm run test:quick` leaves out: each starts a separate process
 * (the built CLI, tsc, npm, node, esbuild's service), a browser, a database, a package install or a
 * copy of the repository. Every other file is the quick tier: in-process only (test/lint/tiers.test.ts
 * fails a file that starts one of these and is not listed here, or is listed and starts none).
 */
export const STARTS_PROCESSES = [
  'test/browser/browser.test.ts', // Chromium, an esbuild bundle
  'test/browser/evalResults.test.ts', // Chromium
  'test/build/browserBundle.test.ts', // esbuild's service process
  'test/build/docsStartBlocks.test.ts', // bash running the docs' start lines, the built CLI
  'test/build/buildIfStale.test.ts', // node scripts/buildIfStale.mjs, npm run demo in a copy
  'test/build/importerApp.test.ts', // bash, the built CLI, codegen, tsc and the fixture app
  'test/build/packInstall.test.ts', // npm pack, npm install, tsc, the apps
  'test/build/packageExports.test.ts', // node importing the built packages
  'test/build/readmeShellBlocks.test.ts', // bash, the CLI, PostgreSQL
  'test/build/typedDocuments.test.ts', // node running the samples
  'test/bulk/fileJournal.test.ts', // a node process that ends, for a dead lock holder
  'test/bulk/journalContract.test.ts', // PostgreSQL
  'test/bulk/journalLostAnswer.test.ts', // PostgreSQL
  'test/bulk/journalOutage.test.ts', // PostgreSQL, stopped and started
  'test/bulk/journalUpkeep.test.ts', // PostgreSQL; the journal commands' CLI
  'test/bulk/manyStop.test.ts', // PostgreSQL, stopped; CLI workers, signalled
  'test/bulk/manyTotals.test.ts', // PostgreSQL
  'test/bulk/maxRunning.test.ts', // PostgreSQL, CLI workers (one killed)
  'test/bulk/manyWorkers.test.ts', // PostgreSQL, CLI workers
  'test/bulk/pgJournalPrepared.test.ts', // PostgreSQL
  'test/bulk/pgJournalQueue.test.ts', // PostgreSQL
  'test/bulk/pgJournalRead.test.ts', // PostgreSQL
  'test/bulk/postgresJournal.test.ts', // PostgreSQL
  'test/cli/autoLabelMany.test.ts', // the built CLI
  'test/cli/binary.test.ts', // the built CLI
  'test/cli/processWarnings.test.ts', // the built CLI
  'test/cli/serverExit.test.ts', // the built CLI
  'test/cli/usage.test.ts', // the built CLI's shim
  'test/codegen/renameSteps.test.ts', // a copy of the repository, sed, codegen, tsc
  'test/eval/ciRecipe.test.ts', // bash running the docs' CI steps, the built CLI
  'test/export/killResume.test.ts', // the built CLI, killed
  'test/export/oneWriter.test.ts', // node processes: a live and a dead lock holder
  'test/export/releaseCommand.test.ts', // a node process that ends, for a dead lock holder
  'test/shared/fileWrites.test.ts', // node processes (tsx) racing for one dead lock
  'test/types/typecheck.test.ts', // tsc
];

/**
 * The files of STARTS_PROCESSES that use PostgreSQL but never stop or restart it: they share one
 * cluster, started once for the run (the `postgres` project, test/support/sharedPostgres.ts), each
 * with a database of its own. A file that stops or restarts the server (journalOutage) starts a
 * cluster of its own.
 */
export const SHARES_POSTGRES = [
  'test/build/readmeShellBlocks.test.ts',
  'test/bulk/journalContract.test.ts',
  'test/bulk/journalLostAnswer.test.ts',
  'test/bulk/journalUpkeep.test.ts',
  'test/bulk/manyTotals.test.ts',
  'test/bulk/manyWorkers.test.ts',
  'test/bulk/maxRunning.test.ts',
  'test/bulk/pgJournalPrepared.test.ts',
  'test/bulk/pgJournalQueue.test.ts',
  'test/bulk/pgJournalRead.test.ts',
  'test/bulk/postgresJournal.test.ts',
];
