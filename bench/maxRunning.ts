/**
 * `npm run bench -- maxRunning` (issue 39): `--max-running 5` with 3 CLI workers × `--concurrency 4`
 * on one PostgreSQL journal over 200 projects, against the emulator and the sample model (each
 * answer 250 ms late, one line per request: a job runs about a second). Figures: the peak of
 * jobs in flight by the emulator's own count (goal ≤ 5), and the run's wall time against the ideal
 * 5-bounded schedule: the emulator's own job durations summed and divided by 5 (the time 5 slots
 * busy without a gap would take; goal ≤ 1.15×). Beside manyWorkers (whose file the scale work
 * owns), in a file of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoProjectId, startEmulator } from '../src/emulator/index.js';
import { createSampleModel, startModelServer } from '../src/model/index.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-max-running-secret';
const MAX_RUNNING = 5;
const WORKERS = 3;
const CONCURRENCY = 4;
const MODEL_LATENCY_MS = 250;
const bin = join(import.meta.dirname, '..', 'packages', 'labelkit-tools', 'bin', 'labelkit.js');

/**
 * Runs the benchmark.
 *
 * @returns the peak in flight, the wall time, the ideal and their ratio, with the load average
 */
export async function maxRunning(): Promise<Figure[]> {
  const n = smoke ? 30 : 200;
  const pg = await startTestPostgres({ durable: true });
  if (pg.skip !== undefined) return [{ bench: 'max running', name: `skipped: ${pg.skip}`, value: 0, unit: '' }];
  const emu = await startEmulator({ demoProject: false, demoProjects: n, latencyMs: 5, model: { concurrency: 64, retries: 0 } });
  const sample = createSampleModel();
  const model = await startModelServer({ secretKey: SECRET, predict: async (r) => (await new Promise((done) => setTimeout(done, MODEL_LATENCY_MS)), sample(r)) });
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-max-running-'));
  try {
    const projects = join(dir, 'projects.txt');
    writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
    const args = [
      bin, 'auto-label', '--projects', projects, '--journal', pg.url, '--journal-name', `bench-max-running-${Date.now()}`,
      '--labeler-email', 'bench@example.com', '--endpoint', model.url, '--files-per-request', '1',
      '--concurrency', String(CONCURRENCY), '--max-running', String(MAX_RUNNING), '--wait', '--interval', '50ms', '--json',
    ];
    const env = { PATH: process.env.PATH ?? '', LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SECRET };
    const load: [number, number] = [loadavg()[0]!, 0];
    const t = performance.now();
    const codes = await Promise.all(
      Array.from({ length: WORKERS }, () => new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, args, { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
        child.on('close', (code) => {
          if (code !== 0) console.error(`maxRunning: a worker exited ${code}: ${stderr}`);
          resolve(code);
        });
      })),
    );
    const wallMs = performance.now() - t;
    load[1] = loadavg()[0]!;
    const jobs = Array.from(emu.emulator.store.jobs.values());
    // The emulator's own view: each job from its creation to its end, and the run from the first start to the last end.
    const spans = jobs.map((j) => [Date.parse(j.createdAt), Date.parse(j.updatedAt)] as const);
    const busyMs = spans.reduce((sum, [a, b]) => sum + (b - a), 0);
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    for (const [a, b] of spans) {
      first = Math.min(first, a);
      last = Math.max(last, b);
    }
    const idealMs = busyMs / MAX_RUNNING;
    const runMs = last - first;
    const peak = emu.emulator.jobsInFlight().peak;
    const ok = codes.every((c) => c === 0) && jobs.length === n && jobs.every((j) => j.status === 'DELIVERED');
    if (!ok) console.error(`maxRunning: exits ${codes.join(', ')}, ${jobs.length} jobs of ${n}`);
    const label = `--max-running ${MAX_RUNNING}, ${WORKERS} workers × c${CONCURRENCY}, ${n} projects`;
    const ratio = runMs / idealMs;
    return [
      { bench: 'max running', name: `${label}: peak jobs in flight (the emulator's count)`, value: peak, unit: 'jobs', goal: `≤ ${MAX_RUNNING}`, met: ok && peak <= MAX_RUNNING, load },
      { bench: 'max running', name: `${label}: first start to last end (the emulator's clock)`, value: runMs, unit: 'ms', load },
      { bench: 'max running', name: `${label}: ideal ${MAX_RUNNING}-bounded schedule (job durations summed / ${MAX_RUNNING})`, value: idealMs, unit: 'ms', load },
      { bench: 'max running', name: `${label}: wall / ideal`, value: ratio, unit: '×', goal: '≤ 1.15', ...(!smoke && { met: ok && ratio <= 1.15 }), load },
      { bench: 'max running', name: `${label}: workers' wall time (start to last exit)`, value: wallMs, unit: 'ms', load },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await model.close();
    await emu.close();
    await pg.close();
  }
}
