// Vitest global setup of the `postgres` project (vitest.config.ts): one PostgreSQL cluster for the
// test files that use a database but never stop or restart it (test/support/tiers.ts
// SHARES_POSTGRES); each file gets a database of its own in it (startTestPostgres), so files share
// the cluster's start (initdb, pg_ctl) and nothing else. Started only when one of those files runs,
// and stopped here, in vitest's own process, at the end of the run.
import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared cluster's URL, or why there is none (then the files skip, or fail under CI). */
    labelkitPostgres: { url: string } | { skip: string };
  }
}

/**
 * Starts the shared cluster (or finds none: CI then fails here) and tells the files.
 *
 * @param project - the vitest project, to provide the cluster to its files
 * @returns the teardown, which stops it
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pg = await startTestPostgres({ own: true });
  project.provide('labelkitPostgres', pg.url === undefined ? { skip: pg.skip } : { url: pg.url });
  return () => pg.close();
}
