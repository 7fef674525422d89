import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoProjectId } from '../../src/emulator/index.js';
import { openPostgresJournal } from '../../src/bulk/index.js';
import { useManyRun } from '../support/manyRun.js';
import { startCli } from '../support/spawnCli.js';
import type { CliProcess, CliRun } from '../support/spawnCli.js';
import { useTempDirs } from '../support/tempDirs.js';
import { within } from '../support/testEnvironment.js';

// SIGTERM and Ctrl-C end a many-project run of the built `labelkit` within a second (exit 130,
// the rerun hint), whatever the worker is doing: inside the PostgreSQL journal's retry loop with
// the database stopped, while a start waits for a slow service, while it registers its waits.
// Each run prints how long it took after the signal (well under a second on a quiet machine); the
// assertion allows a machine at load 20 (STOP_BOUND_MS, scaled by LABELKIT_TEST_TIME_FACTOR), far
// below what the run took before: --journal-retry (10 minutes here), the service's 20 s answer,
// the joining worker's re-reads of the whole run (19.6 s after SIGTERM at 60,000 jobs).
const STOP_BOUND_MS = 5_000;
const SECRET = 'SENTINEL-stop-model-secret-3d';
const many = await useManyRun({ secret: SECRET, own: true, service: { demoProject: false, demoProjects: 120, model: { concurrency: 16, retries: 0 } } });
const { pg, env } = many;
const dir = useTempDirs()('labelkit-stop-');
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => demoProjectId(from + k));
const args = (name: string, projects: string[], ...more: string[]) => {
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, projects.join('\n') + '\n');
  return [
    'auto-label', '--projects', file, '--journal', pg.url!, '--journal-name', name, '--journal-retry', '10m', '--heartbeat', '200ms',
    '--labeler-email', 'stop@example.com', '--endpoint', many.model.url, '--files-per-request', '0', '--concurrency', '2', '--wait', '--interval', '50ms',
    '--outbox', join(dir, `${name}.outbox.ndjson`), ...more,
  ];
};

/** Sends the signal, and resolves with the run and how long after the signal it ended. */
async function stop(worker: CliProcess, signal: NodeJS.Signals): Promise<CliRun & { afterMs: number }> {
  const sent = Date.now();
  worker.child.kill(signal);
  const run = await worker.exited;
  return { ...run, afterMs: Date.now() - sent };
}

const rerunHint = /hint: rerun with the same --journal postgres:\/\/\S+ --journal-name \S+ \(and --wait\) to continue/;

describe.skipIf(pg.skip !== undefined || pg.cluster === undefined)(`stopping a many-project run${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('ends at once on SIGTERM and on Ctrl-C while the workers retry a stopped database (exit 130, the rerun hint)', async () => {
    many.service.mutationDelayMs = 150;
    const workers = [startCli(args('gone-term', ids(1, 30)), env()), startCli(args('gone-int', ids(31, 60)), env())];
    let stopped = false;
    try {
      await Promise.all(workers.map((w) => w.waitFor(/started job/, within(20_000))));
      await pg.cluster!.stop();
      stopped = true;
      // Both are inside the retry loop: they said they lost the database and keep trying (10 minutes).
      await Promise.all(workers.map((w) => w.waitFor(/trying again for up to 600s/, within(10_000))));
      await new Promise((r) => setTimeout(r, 300));
      const runs = await Promise.all([stop(workers[0]!, 'SIGTERM'), stop(workers[1]!, 'SIGINT')]);
      console.log(`stopped while retrying the database: SIGTERM ${runs[0]!.afterMs} ms, SIGINT ${runs[1]!.afterMs} ms (load ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(130);
        expect(run.stderr).toMatch(/labelkit: the run was interrupted \(Ctrl-C or SIGTERM\)/);
        expect(run.stderr).toMatch(rerunHint);
        expect(run.stderr).not.toMatch(/\[Network\]/);
        expect(run.afterMs).toBeLessThan(within(STOP_BOUND_MS));
      }
    } finally {
      many.service.mutationDelayMs = 0;
      if (stopped) await pg.cluster!.start();
    }
  }, within(60_000));

  it('ends at once on SIGTERM while a start waits for a slow service (the start stays unknown, not sent again)', async () => {
    many.service.mutationDelayMs = 20_000;
    const projects = ids(61, 64);
    const before = many.service.requests.length;
    const starts = () => many.service.requests.slice(before).filter((r) => r.operationName === 'AutoLabelTokenBasedProjectMutation').length;
    const worker = startCli(args('slow-start', projects), env());
    try {
      // Both starts of --concurrency 2 are at the many.service.
      for (let i = 0; i < 800 && starts() < 2; i++) await new Promise((r) => setTimeout(r, 25));
      expect(starts()).toBe(2);
      const run = await stop(worker, 'SIGTERM');
      console.log(`stopped during slow starts: ${run.afterMs} ms`);
      expect(run.code, run.stderr).toBe(130);
      // The two starts given up are unknown (a job may have started: a rerun does not send them again); the others were not started.
      const rows = run.stdout.split('\n').filter((l) => l.startsWith('demo-project-'));
      expect(rows.filter((r) => /^demo-project-\d+\s+-\s+outcome-unknown\s+the run was stopped before the service answered its start: a job may have started$/.test(r))).toHaveLength(2);
      expect(rows.filter((r) => /^demo-project-\d+\s+-\s+interrupted\s+not started$/.test(r))).toHaveLength(2);
      expect(run.stderr).toMatch(rerunHint);
      expect(run.afterMs).toBeLessThan(within(STOP_BOUND_MS));
    } finally {
      many.service.mutationDelayMs = 0;
    }
  }, within(60_000));

  it('ends at once on SIGTERM while a worker joining a large run registers its waits', async () => {
    // 10,000 jobs another worker started before it ended: the joining worker reads them,
    // registers a wait for each and reads the run again every heartbeat (200 ms) to take over
    // dead workers' waits; SIGTERM lands as its first poll of them goes out.
    const name = 'join-large';
    const n = 10_000;
    const setUp = openPostgresJournal({ url: pg.url!, name });
    await setUp.open(); // the tables, the run and an ended worker
    await setUp.close();
    const { default: driver } = await import('pg');
    const client = new driver.Client({ connectionString: pg.url! });
    await client.connect();
    const config = { endpoint: many.model.url, numberOfFilesPerRequest: 0, labelerEmail: 'stop@example.com', role: null };
    try {
      const at = new Date().toISOString();
      await client.query(`UPDATE labelkit_journal.runs SET url = $2 WHERE name = $1`, [name, many.service.url]);
      await client.query(
        `INSERT INTO labelkit_journal.records (run, worker, type, project_id, attempt, record)
         SELECT $1, w.worker, t.type, 'p-' || i, CASE WHEN t.type = 'intent' THEN 1 END,
                CASE WHEN t.type = 'intent' THEN jsonb_build_object('type', 'intent', 'at', $2::text, 'projectId', 'p-' || i, 'attempt', 1, 'config', $3::jsonb)
                     ELSE jsonb_build_object('type', 'started', 'at', $2::text, 'projectId', 'p-' || i, 'jobId', 'job-of-p-' || i) END
           FROM generate_series(1, $4::int) i, (VALUES (1, 'intent'), (2, 'started')) t(k, type),
                (SELECT worker FROM labelkit_journal.workers WHERE run = $1 LIMIT 1) w ORDER BY i, t.k`,
        [name, at, JSON.stringify(config), n],
      );
    } finally {
      await client.end();
    }
    const joining = args(name, Array.from({ length: n }, (_, i) => `p-${i + 1}`));
    const before = many.service.requests.length;
    const polled = () => many.service.requests.slice(before).some((r) => r.operationName === 'GetJobs');
    const worker = startCli(joining, env());
    for (let i = 0; i < 2400 && !polled() && worker.child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 25));
    expect(polled(), worker.stderr()).toBe(true);
    const run = await stop(worker, 'SIGTERM');
    console.log(`stopped while joining ${n} waits: ${run.afterMs} ms`);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain(`labelkit: the run was interrupted (Ctrl-C or SIGTERM): ${n} started jobs not waited for to the end`);
    expect(run.stderr).toMatch(rerunHint);
    expect(run.afterMs).toBeLessThan(within(STOP_BOUND_MS));
  }, within(120_000));
});
