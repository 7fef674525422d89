import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { within } from '../support/testEnvironment.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { jsonEvents as events, useManyRun } from '../support/manyRun.js';
import { queryPostgres } from '../support/postgres.js';
import { runCli, startCli } from '../support/spawnCli.js';
import type { CliProcess, CliRun } from '../support/spawnCli.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// Many workers, one PostgreSQL journal, over real HTTP: the built `labelkit` binary in 4
// processes against the emulator, two of them killed with SIGKILL mid-run and started again.
const SECRET = 'SENTINEL-model-secret-4c1e';
const DB_PASSWORD = 'SENTINEL-db-pass-9f2a';
const PROJECTS = 200;
const CONCURRENCY = 4;
// A service latency of 5 ms per call: kills land on mutations in flight, not only between them.
const many = await useManyRun({ secret: SECRET, service: { demoProject: false, demoProjects: PROJECTS, latencyMs: 5, model: { concurrency: 32, retries: 0 } } });
const { pg } = many;

describe.skipIf(pg.skip !== undefined)(`many workers on one PostgreSQL journal${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('never starts a project twice across 4 workers, two killed with SIGKILL and started again; every project without a job is reported', async () => {
    // trust authentication: the server ignores the password, but it is in the URL as a user would write it
    const url = pg.url!.replace('postgres@', `postgres:${DB_PASSWORD}@`);
    const ids = Array.from({ length: PROJECTS }, (_, i) => demoProjectId(i + 1));
    const dir = tempDir('labelkit-workers-');
    const projectsFile = join(dir, 'projects.txt');
    writeFileSync(projectsFile, ids.join('\n') + '\n');
    const env = many.env();
    const name = `e2e-workers-${Date.now()}`;
    const args = [
      'auto-label', '--projects', projectsFile, '--journal', url, '--journal-name', name, '--heartbeat', '200ms',
      '--labeler-email', 'workers@example.com', '--endpoint', many.model.url, '--files-per-request', '0',
      '--concurrency', String(CONCURRENCY), '--wait', '--interval', '50ms', '--json',
    ];

    // The starts are held until each of the four workers has claimed a project (its intent is in
    // the journal, its mutation waits at the service): on a loaded machine a worker that starts
    // seconds after the others would otherwise find the queue empty, never print "started" and not
    // be there to kill (the flake at load 6-15: no "started" within a fixed 15 s).
    let openGate = () => undefined as void;
    many.service.mutationGate = new Promise<void>((resolve) => (openGate = resolve));
    const workers: CliProcess[] = Array.from({ length: 4 }, () => startCli(args, env));
    try {
      for (;;) {
        // (No table yet before the first worker made them.)
        const [claimed] = await queryPostgres<{ n: number }>(pg.url!, `SELECT count(DISTINCT worker)::int AS n FROM labelkit_journal.records WHERE run = $1 AND type = 'intent'`, [name]).catch(() => [{ n: 0 }]);
        if (claimed!.n >= 4 || workers.some((w) => w.child.exitCode !== null)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      many.service.mutationGate = undefined;
      openGate();
    }
    // Kill the first two at a random moment once they have started jobs (each has one on its way), and start each again at once.
    let kills = 0;
    const restarted = await Promise.all(
      workers.slice(0, 2).map(async (w) => {
        await w.waitFor(/"event":"started"/, within(30_000));
        await new Promise((r) => setTimeout(r, Math.random() * 100));
        if (w.child.exitCode === null && w.child.kill('SIGKILL')) kills++;
        await w.exited;
        return startCli(args, env);
      }),
    );
    const runs: CliRun[] = await Promise.all([...workers.slice(2), ...restarted].map((w) => w.exited));
    const killedRuns: CliRun[] = await Promise.all(workers.slice(0, 2).map((w) => w.exited));
    for (const run of runs) expect([0, 5], run.stderr).toContain(run.code);
    expect(kills).toBe(2);

    // The whole run, read-only, by any worker.
    const report = await runCli([...args.filter((a) => a !== '--wait'), '--dry-run'], env);
    expect(report.code, report.stderr).toBe(0);
    const states = new Map(
      events(report.stdout)
        .filter((e) => e.event === 'plan')
        .map((e) => [e.projectId as string, { state: e.journalState as string | undefined, reason: e.reason as string }]),
    );
    expect(states.size).toBe(PROJECTS);

    // The emulator's own jobs, per project.
    const jobs = new Map<string, number>();
    for (const job of many.service.emulator.store.jobs.values()) {
      const projectId = many.service.emulator.store.jobSource(job.id)?.projectId ?? '?';
      jobs.set(projectId, (jobs.get(projectId) ?? 0) + 1);
    }
    const unknown = ids.filter((p) => ['intent', 'unknown'].includes(states.get(p)?.state ?? ''));
    const twice = ids.filter((p) => (jobs.get(p) ?? 0) > 1);
    const notExactlyOne = ids.filter((p) => !unknown.includes(p) && jobs.get(p) !== 1);
    const withoutJob = ids.filter((p) => (jobs.get(p) ?? 0) === 0);
    console.log(
      `many workers: ${PROJECTS} projects, ${many.service.emulator.store.jobs.size} jobs, ${kills} kills, ${unknown.length} unknown ` +
        `(${unknown.filter((p) => jobs.get(p) === 1).length} of them with a job), ${withoutJob.length} without a job`,
    );
    expect(twice).toEqual([]);
    expect(notExactlyOne).toEqual([]);
    expect(unknown.length).toBeLessThanOrEqual(kills * CONCURRENCY);
    for (const p of withoutJob) {
      expect(['intent', 'unknown', 'not-started']).toContain(states.get(p)!.state);
      expect(states.get(p)!.reason).toMatch(/unknown|not-started/);
    }
    // Each worker reported the projects another one claimed, and sent nothing for them.
    const outcomes = runs.map((r) => events(r.stdout).filter((e) => e.event === 'outcome'));
    expect(outcomes.map((o) => new Set(o.map((e) => e.projectId)).size)).toEqual(runs.map(() => PROJECTS));
    expect(outcomes.some((o) => o.some((e) => e.outcome === 'claimed-elsewhere' && typeof e.worker === 'string'))).toBe(true);

    // No secret anywhere: outputs (the killed workers' too) and every row of the journal.
    const { default: pgDriver } = await import('pg');
    const client = new pgDriver.Client({ connectionString: pg.url });
    await client.connect();
    const rows = await client.query<{ row: string }>(`SELECT r::text AS row FROM labelkit_journal.records r UNION ALL SELECT w::text FROM labelkit_journal.workers w`);
    await client.end();
    const everything = [...runs, ...killedRuns, report].map((r) => r.stdout + r.stderr).join('\n') + rows.rows.map((r) => r.row).join('\n');
    for (const secret of [SECRET, DB_PASSWORD, many.service.token]) expect(everything).not.toContain(secret);
    expect(report.stdout).toContain('postgres://postgres:***@127.0.0.1');
  }, within(60_000));
});
