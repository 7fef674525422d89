import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileJournal, openPostgresJournal } from '../src/bulk/index.js';
import type { Journal } from '../src/bulk/index.js';
import { demoProjectId, startEmulator } from '../src/emulator/index.js';
import { startModelServer } from '../src/model/index.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-workers-secret';
/** The service's latency per GraphQL call (the emulator's `latencyMs`): a service that is not on this machine. */
const LATENCY_MS = 20;
const CONCURRENCY = 4;
const root = join(import.meta.dirname, '..');
const bin = join(root, 'packages', 'labelkit-tools', 'bin', 'labelkit.js');

/** Runs `workers` CLI processes on one PostgreSQL run over `n` fresh demo projects; wall time to the last exit. */
async function runWorkers(url: string, n: number, workers: number): Promise<{ wallMs: number; twice: number; withoutJob: number; codes: (number | null)[] }> {
  const emu = await startEmulator({ demoProject: false, demoProjects: n, latencyMs: LATENCY_MS, model: { concurrency: 64, retries: 0 } });
  const model = await startModelServer({ secretKey: SECRET });
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-workers-'));
  const projects = join(dir, 'projects.txt');
  writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
  const args = [
    bin, 'auto-label', '--projects', projects, '--journal', url, '--journal-name', `bench-${workers}-${Date.now()}`,
    '--labeler-email', 'bench@example.com', '--endpoint', model.url, '--files-per-request', '0',
    '--concurrency', String(CONCURRENCY), '--wait', '--interval', '100ms', '--json',
    // The 3-worker run reuses the 1-worker run's project ids on a fresh emulator, in the same
    // journal database under another run name: on purpose, so the refusal of a second run over
    // projects another run started (issue 39) is overridden.
    '--force',
  ];
  const env = { PATH: process.env.PATH ?? '', LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SECRET };
  const t = performance.now();
  const codes = await Promise.all(
    Array.from({ length: workers }, () => new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
      child.on('close', (code) => {
        if (code !== 0) console.error(`manyWorkers: a worker exited ${code}: ${stderr}`);
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
  await model.close();
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
  const ids = Array.from({ length: n }, (_, i) => demoProjectId(i + 1));
  return { wallMs, codes, twice: ids.filter((p) => (jobs.get(p) ?? 0) > 1).length, withoutJob: ids.filter((p) => !jobs.has(p)).length };
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
  const pg = await startTestPostgres({ durable: true });
  if (pg.skip !== undefined) return [{ bench: 'many workers', name: `skipped: ${pg.skip}`, value: 0, unit: '' }];
  try {
    const one = await runWorkers(pg.url, n, 1);
    const three = await runWorkers(pg.url, n, 3);
    const ratio = three.wallMs / one.wallMs;
    const claims = smoke ? 100 : 1000;
    const pgClaim = await claimCost(openPostgresJournal({ url: pg.url, name: `bench-claims-${Date.now()}` }), claims);
    const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-claims-'));
    const fileClaim = await claimCost(openFileJournal(join(dir, 'run.ndjson')), claims);
    rmSync(dir, { recursive: true, force: true });
    const allRan = [...one.codes, ...three.codes].every((c) => c === 0);
    // A worker that did not end with 0 makes the figures meaningless: the smoke run fails on it.
    if (!allRan) throw new Error(`manyWorkers: a worker did not exit 0 (exit codes ${[...one.codes, ...three.codes].join(', ')})`);
    return [
      { bench: 'many workers', name: `1 worker, ${n} projects, ${LATENCY_MS} ms per call, concurrency ${CONCURRENCY}`, value: one.wallMs, unit: 'ms' },
      { bench: 'many workers', name: `3 workers, the same ${n} projects`, value: three.wallMs, unit: 'ms' },
      { bench: 'many workers', name: '3 workers / 1 worker (wall time)', value: ratio, unit: '×', goal: '≤ 0.6×', ...(!smoke && { met: ratio <= 0.6 && allRan }) },
      { bench: 'many workers', name: 'projects with two jobs (both runs)', value: one.twice + three.twice, unit: 'projects', goal: '0', met: one.twice + three.twice === 0 },
      { bench: 'many workers', name: 'projects without a job (both runs)', value: one.withoutJob + three.withoutJob, unit: 'projects', goal: '0', met: one.withoutJob + three.withoutJob === 0 },
      { bench: 'many workers', name: `a claim, PostgreSQL (insert + durable commit, ${claims} in a row)`, value: pgClaim, unit: 'ms/project' },
      { bench: 'many workers', name: `a claim, file journal (fsynced line, ${claims} in a row)`, value: fileClaim, unit: 'ms/project' },
    ];
  } finally {
    await pg.close();
  }
}
