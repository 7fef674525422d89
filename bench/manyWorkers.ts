import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileJournal, openPostgresJournal } from '../src/bulk/index.js';
import type { Journal } from '../src/bulk/index.js';
import { demoProjectId } from '../src/emulator/index.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { runToEnd } from './support/childProcess.js';
import { seedRun } from './support/seedRun.js';
import { treeCpuMs } from './support/procCpu.js';
import { workersSetUp } from './support/workersSetUp.js';
import type { SeededRun } from './support/seedRun.js';
import { smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-workers-secret';
/** The service's latency per GraphQL call (the emulator's `latencyMs`): a service that is not on this machine. */
const LATENCY_MS = 20;
const CONCURRENCY = 4;
const root = join(import.meta.dirname, '..');
const bin = join(root, 'packages', 'labelkit-tools', 'bin', 'labelkit.js');

/** The service's latency for the figures of scale (CPU, round trips): as issue 39 measured them. */
const SCALE_LATENCY_MS = 5;
/** Each worker process prints its CPU time and peak RSS at exit. */
const measuring = ['cpuAtExit.mjs', 'reportRss.mjs'].flatMap((f) => ['--import', pathToFileURL(join(import.meta.dirname, 'support', f)).href]);

/** What one run of the workers cost. */
interface WorkersRun {
  wallMs: number;
  twice: number;
  withoutJob: number;
  codes: (number | null)[];
  /** The workers' CPU (user + system), all of them together. */
  workerCpuMs: number;
  /** The largest peak RSS of a worker. */
  peakRssMiB: number;
  /** The run's name, service and model (for a dry run over it). */
  name: string;
  serviceUrl: string;
  modelUrl: string;
}

/** The database's side: its server's CPU, its committed statements (round trips) and the journal's size. */
async function databaseProbe(url: string) {
  const { default: driver } = await import('pg');
  const ask = async <R extends Record<string, unknown>>(sql: string): Promise<R> => {
    const c = new driver.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query<R>(sql)).rows[0]!;
    } finally {
      await c.end();
    }
  };
  // The postmaster: the parent of a backend, read while that backend is still connected.
  const c = new driver.Client({ connectionString: url });
  await c.connect();
  const { pid } = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
  const postmaster = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  await c.end();
  return async () => {
    // The stats of backends that just ended are flushed as they exit: a moment for them.
    await new Promise((r) => setTimeout(r, 1500));
    const db = await ask<{ commits: string; bytes: string | null }>(
      `SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS commits,
              (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'labelkit_journal' AND c.relkind = 'r') AS bytes`,
    );
    return { cpuMs: treeCpuMs(postmaster), commits: Number(db.commits), bytes: Number(db.bytes ?? 0) };
  };
}

/** Runs `workers` CLI processes on one PostgreSQL run over `n` fresh demo projects; wall time to the last exit. */
async function runWorkers(url: string, n: number, workers: number, latencyMs = LATENCY_MS): Promise<WorkersRun> {
  const { emu, model, dir, projects, close } = await workersSetUp(n, latencyMs, SECRET, 'labelkit-bench-workers-');
  const name = `bench-${n}-${workers}-${Date.now()}`;
  const args = [
    ...measuring, bin, 'auto-label', '--projects', projects, '--journal', url, '--journal-name', name,
    '--labeler-email', 'bench@example.com', '--endpoint', model.url, '--files-per-request', '0',
    '--concurrency', String(CONCURRENCY), '--wait', '--interval', '100ms', '--json',
    // The 3-worker run reuses the 1-worker run's project ids on a fresh emulator, in the same
    // journal database under another run name: on purpose, so the refusal of a second run over
    // projects another run started (issue 39) is overridden.
    '--force',
  ];
  const env = { PATH: process.env.PATH ?? '', LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SECRET };
  const t = performance.now();
  let workerCpuMs = 0;
  let peakRssMiB = 0;
  const codes = await Promise.all(
    Array.from({ length: workers }, () => new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, args, { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
      child.on('close', (code) => {
        if (code !== 0) console.error(`manyWorkers: a worker exited ${code}: ${stderr}`);
        workerCpuMs += Number(/cpu-ms ([\d.]+)/.exec(stderr)?.[1] ?? Number.NaN);
        peakRssMiB = Math.max(peakRssMiB, Number(/BENCH_MAX_RSS_KIB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN) / 1024);
        resolve(code);
      });
    })),
  );
  const wallMs = performance.now() - t;
  const jobs = new Map<string, number>();
  for (const job of emu.emulator.store.jobs.values()) {
    const p = emu.emulator.store.jobSource(job.id)?.projectId ?? '?';
    jobs.set(p, (jobs.get(p) ?? 0) + 1);
  }
  await close();
  const ids = Array.from({ length: n }, (_, i) => demoProjectId(i + 1));
  return { wallMs, codes, workerCpuMs, peakRssMiB, name, serviceUrl: emu.url, modelUrl: model.url, twice: ids.filter((p) => (jobs.get(p) ?? 0) > 1).length, withoutJob: ids.filter((p) => !jobs.has(p)).length };
}

/** A worker's `--dry-run` over a run of `n` projects the journal holds: wall time and peak RSS. */
async function dryRun(url: string, n: number, run: SeededRun): Promise<{ ms: number; rssMiB: number; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-dry-'));
  const projects = join(dir, 'projects.txt');
  writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
  const args = [
    ...measuring, bin, 'auto-label', '--projects', projects, '--journal', url, '--journal-name', run.name,
    '--labeler-email', 'bench@example.com', '--endpoint', run.modelUrl, '--files-per-request', '0', '--dry-run', '--json',
  ];
  // A dry run sends nothing: the service's URL (now closed) is only compared with the run's.
  const env = { PATH: process.env.PATH ?? '', LABELKIT_URL: run.serviceUrl, LABELKIT_TOKEN: 'bench', LABELKIT_MODEL_SECRET: SECRET };
  const { code, stderr, ms } = await runToEnd(args, { env, cwd: dir });
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) console.error(`manyWorkers: the dry run exited ${code}: ${stderr}`);
  return { ms, rssMiB: Number(/BENCH_MAX_RSS_KIB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN) / 1024, code };
}

/**
 * A worker joining a run of `n` projects half done, its queue loaded by the workers before it (a
 * run written by SQL: {@link seedRun}): how long from its start until it takes its first projects
 * from the queue (it is then past its set-up: beating, taking, starting, stoppable), and how long
 * it takes to end after SIGTERM then. Its service is a closed port (its starts fail at once as not
 * sent); it runs without --json, as a user's worker would (the plan of 100,000 lines is not printed).
 */
async function joinRun(url: string, n: number): Promise<{ joinMs: number; stopMs: number; code: number | null; cpuMs: number }> {
  const run: SeededRun = { name: `bench-join-${n}-${Date.now()}`, serviceUrl: 'http://127.0.0.1:9/graphql', modelUrl: 'http://127.0.0.1:9/predict' };
  await seedRun(url, run, n, { done: Math.floor(n / 2), queued: true });
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-join-'));
  const projects = join(dir, 'projects.txt');
  writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
  const { default: driver } = await import('pg');
  const db = new driver.Client({ connectionString: url });
  await db.connect();
  const args = [
    ...measuring, bin, 'auto-label', '--projects', projects, '--journal', url, '--journal-name', run.name,
    '--labeler-email', 'bench@example.com', '--endpoint', run.modelUrl, '--files-per-request', '0', '--wait',
  ];
  const env = { PATH: process.env.PATH ?? '', LABELKIT_URL: run.serviceUrl, LABELKIT_TOKEN: 'bench', LABELKIT_MODEL_SECRET: SECRET };
  const t = performance.now();
  const child = spawn(process.execPath, args, { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  let joinMs = Number.NaN;
  try {
    // Its worker id holds its pid: the queue's rows it took say it is taking.
    while (child.exitCode === null) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM labelkit_journal.queue WHERE run = $1 AND worker LIKE $2`, [run.name, `%:${child.pid}:%`]);
      if (rows[0]!.n > 0) {
        joinMs = performance.now() - t;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await db.end();
  }
  const stopped = performance.now();
  child.kill('SIGTERM');
  const code = await closed;
  const stopMs = performance.now() - stopped;
  rmSync(dir, { recursive: true, force: true });
  if (code !== 130) console.error(`manyWorkers: the joining worker exited ${code} after SIGTERM: ${stderr}`);
  return { joinMs, stopMs, code, cpuMs: Number(/cpu-ms ([\d.]+)/.exec(stderr)?.[1] ?? Number.NaN) };
}

/** The figures of scale at `n` projects × `workers`, at 5 ms per call: per project, with the load average beside them. */
async function scaleRun(url: string, n: number, workers: number): Promise<{ figures: Figure[]; run: WorkersRun }> {
  const probe = await databaseProbe(url);
  const before = await probe();
  const load: [number, number] = [loadavg()[0]!, 0];
  const run = await runWorkers(url, n, workers, SCALE_LATENCY_MS);
  const after = await probe();
  load[1] = loadavg()[0]!;
  const label = `${n.toLocaleString('en')} × ${workers}`;
  const roundTrips = (after.commits - before.commits) / n;
  const figures: Figure[] = [
    { bench: 'many workers', name: `${label}: worker CPU per project (all workers)`, value: run.workerCpuMs / n, unit: 'ms/project', load },
    { bench: 'many workers', name: `${label}: PostgreSQL CPU per project`, value: (after.cpuMs - before.cpuMs) / n, unit: 'ms/project', load },
    { bench: 'many workers', name: `${label}: database round trips per project (committed statements)`, value: roundTrips, unit: 'per project', goal: '≤ 1.5', ...(!smoke && { met: roundTrips <= 1.5 }), load },
    { bench: 'many workers', name: `${label}: journal bytes per project (tables and indexes)`, value: (after.bytes - before.bytes) / n, unit: 'B/project', load },
    { bench: 'many workers', name: `${label}: worker peak RSS`, value: run.peakRssMiB, unit: 'MiB', load },
    { bench: 'many workers', name: `${label}: wall time`, value: run.wallMs, unit: 'ms', load },
  ];
  return { figures, run };
}

/** Claims `n` projects one after another (each an insert and a durable commit, or an fsynced line); ms per claim. */
async function claimCost(journal: Journal, n: number): Promise<number> {
  await journal.open();
  const config = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 0, labelerEmail: 'bench@example.com', role: null };
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const result = await journal.claim({ type: 'intent', at: new Date().toISOString(), projectId: `p${i}`, attempt: 1, config });
    if (!result.won) throw new Error('manyWorkers: a claim of a fresh project was lost');
  }
  const ms = (performance.now() - t) / n;
  await journal.close();
  return ms;
}

/**
 * 7. Many workers on one PostgreSQL journal: `labelkit auto-label --journal postgres://…` (the
 * built CLI) over N demo projects against the emulator with a service latency of 20 ms per call,
 * by 1 worker and by 3 workers (concurrency 4 each), side by side; and what one claim costs
 * (insert + commit on a server with fsync on, against an fsynced line of the file journal). The
 * smoke run's ratio is not judged: on 30 projects the processes' start-up is most of it.
 */
export async function manyWorkers(): Promise<Figure[]> {
  const n = smoke ? 30 : 1000;
  // LABELKIT_BENCH_WORKER_SIZES= (empty): the 1- and 3-worker pair and the claims alone.
  const sizes = smoke ? [30] : (process.env.LABELKIT_BENCH_WORKER_SIZES ?? '1000,10000').split(',').filter(Boolean).map(Number);
  // Issue 39's growth figure is 100,000 × 8 against 1,000 × 8: LABELKIT_BENCH_WORKER_COUNTS=8.
  const counts = smoke ? [1, 3] : (process.env.LABELKIT_BENCH_WORKER_COUNTS ?? '1,3').split(',').map(Number);
  const pg = await startTestPostgres({ durable: true });
  if (pg.skip !== undefined) return [{ bench: 'many workers', name: `skipped: ${pg.skip}`, value: 0, unit: '' }];
  try {
    // The load average beside each of the pair (1-minute, before → after).
    const oneLoad: [number, number] = [loadavg()[0]!, 0];
    const one = await runWorkers(pg.url, n, 1);
    oneLoad[1] = loadavg()[0]!;
    const threeLoad: [number, number] = [loadavg()[0]!, 0];
    const three = await runWorkers(pg.url, n, 3);
    threeLoad[1] = loadavg()[0]!;
    const ratio = three.wallMs / one.wallMs;
    const claims = smoke ? 100 : 1000;
    const pgClaim = await claimCost(openPostgresJournal({ url: pg.url, name: `bench-claims-${Date.now()}` }), claims);
    const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-claims-'));
    const fileClaim = await claimCost(openFileJournal(join(dir, 'run.ndjson')), claims);
    rmSync(dir, { recursive: true, force: true });
    const pairRan = [one, three].every((r) => r.codes.every((c) => c === 0));
    const pair: Figure[] = [
      { bench: 'many workers', name: `1 worker, ${n} projects, ${LATENCY_MS} ms per call, concurrency ${CONCURRENCY}`, value: one.wallMs, unit: 'ms', load: oneLoad },
      { bench: 'many workers', name: `3 workers, the same ${n} projects`, value: three.wallMs, unit: 'ms', load: threeLoad },
      { bench: 'many workers', name: '3 workers / 1 worker (wall time)', value: ratio, unit: '×', goal: '≤ 0.6×', ...(!smoke && { met: ratio <= 0.6 && pairRan }), load: [oneLoad[0], threeLoad[1]] },
      { bench: 'many workers', name: 'projects with two jobs (both runs)', value: one.twice + three.twice, unit: 'projects', goal: '0', met: one.twice + three.twice === 0 },
      { bench: 'many workers', name: 'projects without a job (both runs)', value: one.withoutJob + three.withoutJob, unit: 'projects', goal: '0', met: one.withoutJob + three.withoutJob === 0 },
      { bench: 'many workers', name: `a claim, PostgreSQL (insert + durable commit, ${claims} in a row)`, value: pgClaim, unit: 'ms/project' },
      { bench: 'many workers', name: `a claim, file journal (fsynced line, ${claims} in a row)`, value: fileClaim, unit: 'ms/project' },
    ];
    if (sizes.length === 0) {
      if (!pairRan) throw new Error(`manyWorkers: a worker did not exit 0 (exit codes ${[one, three].flatMap((r) => r.codes).join(', ')})`);
      return pair;
    }
    // The figures of scale: 1 and 3 workers at each size.
    const scale: Figure[] = [];
    const runs: WorkersRun[] = [one, three];
    let largest: WorkersRun | undefined;
    const cpuPerProject = new Map<string, number>();
    for (const size of sizes) {
      for (const workers of counts) {
        const { figures, run } = await scaleRun(pg.url, size, workers);
        scale.push(...figures);
        runs.push(run);
        cpuPerProject.set(`${size}×${workers}`, run.workerCpuMs / size);
        if (size === sizes.at(-1)) largest = run;
      }
    }
    // Growth: worker CPU per project at the largest size against the smallest, the same workers.
    if (sizes.length > 1) {
      for (const workers of counts) {
        const growth = cpuPerProject.get(`${sizes.at(-1)}×${workers}`)! / cpuPerProject.get(`${sizes[0]}×${workers}`)!;
        scale.push({ bench: 'many workers', name: `worker CPU per project, ${sizes.at(-1)!.toLocaleString('en')} × ${workers} against ${sizes[0]!.toLocaleString('en')} × ${workers}`, value: growth, unit: '×', goal: '≤ 1.3×', ...(!smoke && { met: growth <= 1.3 }) });
      }
    }
    // The dry run and the join over a run too large to run here in full: written by SQL (seedRun).
    const big = smoke ? 30 : Number(process.env.LABELKIT_BENCH_DRY_SIZE ?? 100_000);
    const seeded: SeededRun = { name: `bench-dry-${big}-${Date.now()}`, serviceUrl: largest!.serviceUrl, modelUrl: largest!.modelUrl };
    await seedRun(pg.url, seeded, big);
    const load: [number, number] = [loadavg()[0]!, 0];
    const dry = await dryRun(pg.url, big, seeded);
    load[1] = loadavg()[0]!;
    const joinLoad: [number, number] = [loadavg()[0]!, 0];
    const joined = await joinRun(pg.url, big);
    joinLoad[1] = loadavg()[0]!;
    const allRan = runs.every((r) => r.codes.every((c) => c === 0)) && dry.code === 0 && joined.code === 130;
    // A worker that did not end with 0 makes the figures meaningless: the smoke run fails on it.
    if (!allRan) throw new Error(`manyWorkers: a worker did not exit 0 (exit codes ${runs.flatMap((r) => r.codes).join(', ')}, dry run ${dry.code}, joiner after SIGTERM ${joined.code})`);
    const twice = runs.reduce((k, r) => k + r.twice, 0);
    const withoutJob = runs.reduce((k, r) => k + r.withoutJob, 0);
    return [
      ...scale,
      { bench: 'many workers', name: `--dry-run over the ${big.toLocaleString('en')}-project run: wall time`, value: dry.ms, unit: 'ms', goal: '≤ 5000 ms', ...(!smoke && { met: dry.ms <= 5000 }), load },
      { bench: 'many workers', name: `--dry-run over the ${big.toLocaleString('en')}-project run: peak RSS`, value: dry.rssMiB, unit: 'MiB', goal: '≤ 200 MiB', ...(!smoke && { met: dry.rssMiB <= 200 }), load },
      { bench: 'many workers', name: `a worker joining the ${big.toLocaleString('en')}-project run (half done): its first take from the queue`, value: joined.joinMs, unit: 'ms', goal: '≤ 10000 ms', ...(!smoke && { met: joined.joinMs <= 10_000 }), load: joinLoad },
      { bench: 'many workers', name: `a worker joining the ${big.toLocaleString('en')}-project run: its end after SIGTERM then (exit 130)`, value: joined.stopMs, unit: 'ms', load: joinLoad },
      { bench: 'many workers', name: `a worker joining the ${big.toLocaleString('en')}-project run: its CPU, set-up to end`, value: joined.cpuMs, unit: 'ms', load: joinLoad },
      { bench: 'many workers', name: 'projects with two jobs (every run of figures of scale)', value: twice, unit: 'projects', goal: '0', met: twice === 0 },
      { bench: 'many workers', name: 'projects without a job (every run of figures of scale)', value: withoutJob, unit: 'projects', goal: '0', met: withoutJob === 0 },
      ...pair,
    ];
  } finally {
    await pg.close();
  }
}
