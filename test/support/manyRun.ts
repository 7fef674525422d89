// What the many-worker tests of test/bulk (manyStop, manyWorkers, journalOutage) start alike, and
// their teardown, in one place: a PostgreSQL server, the counting service (the emulator behind a
// front that counts what reaches it) with the run's demo projects, a model, the environment a
// worker of the built CLI gets; after the file, every CLI still running killed (SIGKILL), then the
// service, the model and the server closed.
import { afterAll, beforeAll } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import { startCountingService } from './countingService.js';
import type { CountingService } from './countingService.js';
import { startTestPostgres } from './postgres.js';
import type { TestPostgres } from './postgres.js';
import { killStarted } from './spawnCli.js';

/** A model the workers call: its URL, and how to stop it. */
export interface RunModel {
  url: string;
  close(): Promise<void>;
}

/** What {@link useManyRun} started; `service` and `model` once the file's beforeAll ran (not when `pg.skip`). */
export interface ManyRun {
  pg: TestPostgres;
  service: CountingService;
  model: RunModel;
  /** The environment of a worker: the service, its token and the model's secret. */
  env(): Record<string, string>;
}

/**
 * Starts a many-worker test file's servers: the PostgreSQL server at once (a file's `describe`
 * skips on `pg.skip`), the counting service and the model in a beforeAll, and stops everything
 * in an afterAll. Call it at the file's top level.
 *
 * @param options - `secret`: the model's secret key; `service`: the emulator's options (its
 * demo projects, latency, model calls); `own`: a PostgreSQL cluster of the file's own (one it
 * stops or restarts); `model`: a model of the file's own instead of the sample model
 * @returns the servers, filled in as they start
 */
export async function useManyRun(options: { secret: string; service: EmulatorOptions; own?: boolean; model?: () => Promise<RunModel> }): Promise<ManyRun> {
  const pg = await startTestPostgres(options.own ? { own: true } : {});
  // service and model are set by the beforeAll below, before any test reads them.
  const run = { pg } as ManyRun;
  run.env = () => ({ LABELKIT_URL: run.service.url, LABELKIT_TOKEN: run.service.token, LABELKIT_MODEL_SECRET: options.secret });
  beforeAll(async () => {
    if (pg.skip) return;
    run.service = await startCountingService(options.service);
    run.model = await (options.model ?? (() => startModelServer({ secretKey: options.secret })))();
  });
  afterAll(async () => {
    killStarted();
    await run.service?.close();
    await run.model?.close();
    await pg.close();
  });
  return run;
}

/**
 * The JSON events a `--json` run printed, in order.
 *
 * @param stdout - its standard output
 */
export const jsonEvents = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
