import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { within } from '../support/testEnvironment.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { killStarted, runCli, runMain, startCli } from '../support/spawnCli.js';
import type { CliRun } from '../support/spawnCli.js';
import { startCountingService } from '../support/countingService.js';
import type { CountingService } from '../support/countingService.js';
import { startTestPostgres } from '../support/postgres.js';
import { autoLabelMany, openPostgresJournal } from '../../src/bulk/index.js';
import { createLabelingClient } from '../../src/client/index.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// --max-running across every worker of a run (issue 39), over real HTTP: 3 built `labelkit`
// workers × --concurrency 4 on one PostgreSQL journal against the emulator and the sample model,
// one of them killed with SIGKILL mid-run. The emulator's own count of jobs in flight is the judge.
const pg = await startTestPostgres();
const SECRET = 'SENTINEL-model-secret-7d2b';
const PROJECTS = 90;
const MAX_RUNNING = 5;
let service: CountingService;
let model: RunningModelServer;

beforeAll(async () => {
  if (pg.skip) return;
  // The sample model answering each line 60 ms late: jobs overlap, so 12 starters would run up to
  // 12 at once without the limit.
  service = await startCountingService({ demoProject: false, demoProjects: PROJECTS, latencyMs: 5, model: { concurrency: 32, retries: 0 } });
  const sample = createSampleModel();
  model = await startModelServer({ secretKey: SECRET, predict: async (request) => (await new Promise((r) => setTimeout(r, 60)), sample(request)) });
});
afterAll(async () => {
  killStarted();
  await service?.close();
  await model?.close();
  await pg.close();
});

const events = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe.skipIf(pg.skip !== undefined)(`--max-running across workers${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('keeps the jobs in flight at the emulator at most --max-running across 3 workers × concurrency 4, also across a SIGKILL of one; nothing started twice', async () => {
    const ids = Array.from({ length: PROJECTS }, (_, i) => demoProjectId(i + 1));
    const dir = tempDir('labelkit-max-running-');
    const projectsFile = join(dir, 'projects.txt');
    writeFileSync(projectsFile, ids.join('\n') + '\n');
    const env = { LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: SECRET };
    const args = [
      'auto-label', '--projects', projectsFile, '--journal', pg.url!, '--journal-name', `max-running-${Date.now()}`, '--heartbeat', '1s',
      '--labeler-email', 'limits@example.com', '--endpoint', model.url, '--files-per-request', '1',
      '--concurrency', '4', '--max-running', String(MAX_RUNNING), '--wait', '--interval', '50ms', '--json', '--outbox', join(dir, 'outbox.ndjson'),
    ];
    service.emulator.resetJobsPeak();
    const workers = Array.from({ length: 3 }, () => startCli(args, env));
    // One worker killed once it has started jobs (its leases: those without a job come back once
    // its heartbeat lapses; those with one stay held until a live worker sees the job end). A beat
    // every 1 s, not 200 ms: with 200 ms beats at load 24 the emulator once counted 6 in flight, as
    // when a live worker starved of CPU past 600 ms is taken for dead (journalOutage saw that) and
    // the lease of its start on its way comes back while the job runs.
    // The victim is the first worker to start a job (leases are not handed out in turn across
    // workers: one worker may start nothing for a while).
    const victim = await Promise.any(workers.map((w) => w.waitFor(/"event":"started"/, within(60_000)).then(() => w)));
    await new Promise((r) => setTimeout(r, 150));
    expect(victim.child.kill('SIGKILL')).toBe(true);
    await victim.exited;
    const runs: CliRun[] = await Promise.all(workers.filter((w) => w !== victim).map((w) => w.exited));
    for (const run of runs) expect([0, 5], run.stderr).toContain(run.code);

    // The emulator's own count: never more than K jobs in flight at once.
    const inFlight = service.emulator.jobsInFlight();
    // Each project started at most once (the journal's claims), and every project either has its job or is unknown.
    const jobs = new Map<string, number>();
    for (const job of service.emulator.store.jobs.values()) {
      const projectId = service.emulator.store.jobSource(job.id)?.projectId ?? '?';
      jobs.set(projectId, (jobs.get(projectId) ?? 0) + 1);
    }
    const report = await runCli([...args.filter((a) => a !== '--wait'), '--dry-run'], env);
    expect(report.code, report.stderr).toBe(0);
    const plan = events(report.stdout).filter((e) => e.event === 'plan');
    const summary = events(report.stdout).find((e) => e.event === 'summary');
    console.log(`max-running: ${PROJECTS} projects, ${service.emulator.store.jobs.size} jobs, peak in flight ${inFlight.peak} (limit ${MAX_RUNNING})`);
    expect(inFlight.peak).toBeGreaterThan(0);
    expect(inFlight.peak).toBeLessThanOrEqual(MAX_RUNNING);
    expect(ids.filter((p) => (jobs.get(p) ?? 0) > 1)).toEqual([]);
    const unknown = plan.filter((e) => ['intent', 'unknown'].includes(e.journalState as string)).map((e) => e.projectId);
    expect(unknown.length).toBeLessThanOrEqual(4);
    expect(ids.filter((p) => !unknown.includes(p) && jobs.get(p) !== 1)).toEqual([]);
    // The live count is carried: running events of the workers, and the dry run's limits (all leases back).
    expect(runs.some((r) => events(r.stdout).some((e) => e.event === 'running' && e.maxRunning === MAX_RUNNING))).toBe(true);
    for (const r of runs) for (const e of events(r.stdout)) if (e.event === 'running') expect(e.running as number).toBeLessThanOrEqual(MAX_RUNNING);
    expect(summary?.limits).toEqual({ maxRunning: MAX_RUNNING, running: 0 });
  }, within(120_000));

  it('hands the lease of a job whose end a worker saw to its next start in one statement, not a give and a take (the lease statements counted); the last one goes back; takes no more projects from the queue than it has starters', async () => {
    const name = `hand-over-${Date.now()}`;
    const journal = openPostgresJournal({ url: pg.url!, name });
    const limits = journal.limits!;
    const { take, give, handOver } = limits;
    // How many projects the worker takes from the run's queue at once.
    const queueTake = journal.queue!.take;
    const batches: number[] = [];
    journal.queue!.take = async (list, max) => (batches.push(max), queueTake(list, max));
    const calls = { taken: 0, give: 0, handOver: 0 };
    limits.take = async (projectId) => {
      const result = await take(projectId);
      if (result.taken) calls.taken++;
      return result;
    };
    limits.give = async (projectId) => (calls.give++, give(projectId));
    limits.handOver = async (from, to) => {
      const result = await handOver!(from, to);
      if (result.taken) calls.handOver++;
      return result;
    };
    const client = createLabelingClient({ url: service.url, token: service.token, poll: { intervalMs: 20, maxIntervalMs: 50 } });
    const projects = Array.from({ length: 6 }, (_, i) => demoProjectId(PROJECTS - 30 + i));
    const inputs = projects.map((projectId) => ({ projectId, labelerEmail: 'hand-over@example.com', options: { numberOfFilesPerRequest: 1 }, targetAPI: { endpoint: model.url, secretKey: SECRET } }));
    service.emulator.resetJobsPeak();
    try {
      // Three starters, one lease (over projects the first test started: force says it is on purpose).
      const result = await autoLabelMany(client, inputs, { journal, concurrency: 3, maxRunning: 1, force: true });
      expect(result.outcomes.map((o) => o.outcome)).toEqual(projects.map(() => 'delivered'));
    } finally {
      client.close();
    }
    expect(service.emulator.jobsInFlight().peak).toBe(1);
    // Before: a give and a take for each of the six jobs.
    expect(calls).toEqual({ taken: 1, handOver: 5, give: 1 });
    // No more projects than its starters (before: 12 at concurrency 3): a worker blocked on the
    // leases holds none that another worker could start meanwhile.
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((n) => n === 3)).toBe(true);
    const reader = openPostgresJournal({ url: pg.url!, name, readOnly: true });
    await reader.open();
    try {
      expect(await reader.limits!.running()).toBe(0);
    } finally {
      await reader.close();
    }
  }, within(60_000));

  // These runs go over projects the first test's run started: --force says it is on purpose.
  it('refuses a worker whose --max-running differs from the run\'s (fixed by its first worker), or that gives none, before it sends anything', async () => {
    const env = { LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: SECRET };
    const base = [
      'auto-label', '--project', demoProjectId(1), '--project', demoProjectId(2), '--journal', pg.url!, '--journal-name', `max-running-fixed-${Date.now()}`, '--force',
      '--labeler-email', 'fixed@example.com', '--endpoint', model.url, '--files-per-request', '0', '--wait', '--interval', '50ms',
    ];
    const first = await runMain([...base, '--max-running', '5'], env);
    expect(first.code, first.stderr).toBe(0);
    const requests = service.requests.length;
    for (const [flags, gives] of [[['--max-running', '3'], '3'], [[], 'none']] as const) {
      const other = await runMain([...base, ...flags], env);
      expect(other.code, other.stderr).toBe(2);
      expect(other.stderr).toContain(`--max-running: the run holds --max-running 5 (set by its first worker) and this worker gives ${gives}: give the same on every worker of the run, or use another run name`);
    }
    expect(service.requests.length).toBe(requests);
    const plan = await runMain([...base, '--max-running', '5', '--dry-run'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain("labelkit: running 0/5 across the run's workers now (--max-running 5)");
  }, within(60_000));

  it('--max-starts-per-minute paces the starts of every worker of the run by one bucket in the database: counted at the emulator, no window holds more than the bucket allows', async () => {
    const RATE = 120; // 2 a second; the bucket holds a second's worth (2)
    const projects = Array.from({ length: 16 }, (_, i) => demoProjectId(PROJECTS - 20 + i));
    const env = { LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: SECRET };
    const args = [
      'auto-label', ...projects.flatMap((p) => ['--project', p]), '--journal', pg.url!, '--journal-name', `starts-per-minute-${Date.now()}`, '--force',
      '--labeler-email', 'paced@example.com', '--endpoint', model.url, '--files-per-request', '0', '--concurrency', '4',
      '--max-starts-per-minute', String(RATE), '--wait', '--interval', '50ms',
    ];
    const jobsBefore = new Set(service.emulator.store.jobs.keys());
    // Two workers in this process (each its own journal connection and worker id).
    const runs = await Promise.all([runMain(args, env), runMain(args, env)]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const created = Array.from(service.emulator.store.jobs.values())
      .filter((job) => !jobsBefore.has(job.id))
      .map((job) => Date.parse(job.createdAt))
      .sort((a, b) => a - b);
    expect(created.length).toBe(projects.length);
    // Starts in any window of W seconds: at most the bucket (2) plus W × RATE / 60, and one more for a
    // start whose request took longer on its way than the one after it (the bucket is judged when the token is taken).
    const W = 2;
    let most = 0;
    for (let i = 0; i < created.length; i++) most = Math.max(most, created.filter((t) => t >= created[i]! && t < created[i]! + W * 1000).length);
    console.log(`max-starts-per-minute ${RATE}: ${created.length} starts over ${((created.at(-1)! - created[0]!) / 1000).toFixed(1)} s, at most ${most} in ${W} s`);
    expect(most).toBeLessThanOrEqual(2 + (W * RATE) / 60 + 1);
    const plan = await runMain([...args, '--dry-run'], env);
    expect(plan.stderr).toContain(`at most ${RATE} starts a minute across the run's workers (--max-starts-per-minute)`);
  }, within(90_000));
});
