/**
 * A run of N projects written straight into a PostgreSQL journal by SQL (one statement per part),
 * as a worker's records would be: `run`, then per project its intent, `started` and `delivered`.
 * What a full 100,000-project run would take too long for (issue 39's notes did the same): a dry
 * run over it, a worker joining it.
 */
import { demoProjectId } from '../../src/emulator/index.js';
import { openPostgresJournal } from '../../src/bulk/index.js';

/** What a seeded run's workers were given: the service and the model, for a dry run or a join over it. */
export interface SeededRun {
  name: string;
  serviceUrl: string;
  modelUrl: string;
}

/**
 * Writes a run of `n` demo projects: `done` of them delivered, the rest never claimed (a join then
 * finds them still to start), all of them in the run's queue as a first worker would have loaded them
 * when `queued` is set (the projects not done still to take).
 *
 * @param url - the database
 * @param run - its name, service and model
 * @param n - projects
 * @param options - `done`: how many are delivered (default all); `queued`: load the queue as a first worker does
 */
export async function seedRun(url: string, run: SeededRun, n: number, options: { done?: number; queued?: boolean } = {}): Promise<void> {
  const done = options.done ?? n;
  // The tables and the run's row, as a worker makes them.
  const journal = openPostgresJournal({ url, name: run.name });
  await journal.open();
  await journal.append({ type: 'run', at: new Date().toISOString(), url: run.serviceUrl });
  if (options.queued) {
    const ids = Array.from({ length: n }, (_, i) => demoProjectId(i + 1));
    await journal.queue!.load(ids, ids.slice(done).map((projectId) => ({ projectId, attempt: 1 })));
  }
  await journal.close();
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const config = { endpoint: run.modelUrl, numberOfFilesPerRequest: 0, labelerEmail: 'bench@example.com', role: null };
    const worker = 'seed:1:000000';
    const prefix = demoProjectId(1).replace(/1$/, '');
    for (let from = 1; from <= done; from += 20_000) {
      const to = Math.min(done, from + 19_999);
      await c.query(
        `INSERT INTO labelkit_journal.records (run, worker, type, project_id, attempt, record, rid)
         SELECT $1, $2, t.type, $3 || i, CASE WHEN t.type = 'intent' THEN 1 END,
                CASE t.type
                  WHEN 'intent' THEN jsonb_build_object('type', 'intent', 'at', now(), 'projectId', $3 || i, 'attempt', 1, 'config', $4::jsonb)
                  WHEN 'started' THEN jsonb_build_object('type', 'started', 'at', now(), 'projectId', $3 || i, 'jobId', 'job-' || i)
                  ELSE jsonb_build_object('type', 'outcome', 'at', now(), 'projectId', $3 || i, 'outcome', 'delivered', 'jobId', 'job-' || i)
                END, gen_random_uuid()::text
           FROM generate_series($5::int, $6::int) AS i, (VALUES (1, 'intent'), (2, 'started'), (3, 'outcome')) AS t(k, type)
          ORDER BY t.k, i`,
        [run.name, worker, prefix, JSON.stringify(config), from, to],
      );
    }
    await c.query('ANALYZE labelkit_journal.records');
  } finally {
    await c.end();
  }
}
