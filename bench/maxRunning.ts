/**
 * `npm run bench -- maxRunning` (issue 39): `--max-running 5` with 3 CLI workers × `--concurrency 4`
 * on one PostgreSQL journal over 200 projects, against the emulator and the sample model (each
 * answer 250 ms late, one line per request; a job's lines go to the model at once, so a job runs
 * about 0.3 s, not a second). Figures: the peak of jobs in flight by the emulator's own count (goal
 * ≤ 5), and the run's wall time against the ideal 5-bounded schedule: the emulator's own job
 * durations summed and divided by 5 (the time 5 slots busy without a gap would take; goal ≤ 1.15×.
 * A lower bound no run can reach: a start may follow an end only once a worker has seen it, one
 * poll and one mutation's round trip at least), and how long a freed slot stays empty before the
 * next start (median and mean). `LABELKIT_BENCH_BEFORE_BIN=…/labelkit.js` runs that CLI side
 * by side, before, after, after, before (each run a run name of its own over the same projects:
 * `--force`), each side the mean of its two runs. Beside
 * manyWorkers (whose file the scale work owns), in a file of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoProjectId, startEmulator } from '../src/emulator/index.js';
import { createSampleModel, startModelServer } from '../src/model/index.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-max-running-secret';
const MAX_RUNNING = 5;
const WORKERS = 3;
const CONCURRENCY = 4;
const MODEL_LATENCY_MS = 250;
const bin = join(import.meta.dirname, '..', 'packages', 'labelkit-tools', 'bin', 'labelkit.js');

/** What one run of the workers measured (the emulator's clock). */
interface RunFigures {
  ok: boolean;
  peak: number;
  runMs: number;
  idealMs: number;
  /** Over the starts after the first K: from the end that freed a slot to the start that took it, median and mean (the mean is what the run's time adds up from). */
  slotGapMs: number;
  slotGapMeanMs: number;
  wallMs: number;
  load: [number, number];
}

/**
 * Runs the benchmark: this labelkit's CLI, and side by side (before it, in the same process, on
 * the same PostgreSQL, each on a fresh emulator) the CLI of `LABELKIT_BENCH_BEFORE_BIN` when given
 * (a `labelkit.js` built from an earlier commit).
 *
 * @returns the peak in flight, the wall time, the ideal and their ratio, with the load average
 */
export async function maxRunning(): Promise<Figure[]> {
  const n = smoke ? 30 : 200;
  const pg = await startTestPostgres({ durable: true });
  if (pg.skip !== undefined) return [{ bench: 'max running', name: `skipped: ${pg.skip}`, value: 0, unit: '' }];
  const sample = createSampleModel();
  const model = await startModelServer({ secretKey: SECRET, predict: async (r) => (await new Promise((done) => setTimeout(done, MODEL_LATENCY_MS)), sample(r)) });
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-max-running-'));
  const before = process.env.LABELKIT_BENCH_BEFORE_BIN;
  try {
    const projects = join(dir, 'projects.txt');
    writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
    const figures: Figure[] = [];
    const label = `--max-running ${MAX_RUNNING}, ${WORKERS} workers × c${CONCURRENCY}, ${n} projects`;
    // Side by side in the order before, after, after, before: the first run of a bench process is
    // the slower (a cold emulator and model), and the load drifts; each side's figures are the mean
    // of its two runs, with their range.
    const order = before ? ([['before', before], ['after', bin], ['after', bin], ['before', before]] as const) : ([['', bin]] as const);
    const runs = new Map<string, RunFigures[]>();
    for (const [which, cli] of order) {
      const r = await runWorkers(cli, n, projects, pg.url, model.url, dir);
      runs.set(which, [...(runs.get(which) ?? []), r]);
    }
    for (const [which, rs] of runs) {
      const name = (what: string) => `${label}${which && ` (${which})`}: ${what}`;
      const load: [number, number] = [rs[0]!.load[0], rs.at(-1)!.load[1]];
      const ok = rs.every((r) => r.ok);
      const row = (what: string, of: (r: RunFigures) => number, unit: string, more: Partial<Figure> = {}): Figure => {
        const values = rs.map(of);
        const value = values.reduce((a, b) => a + b, 0) / values.length;
        return { bench: 'max running', name: name(what), value, unit, load, ...(values.length > 1 && { range: [Math.min(...values), Math.max(...values)] as [number, number], runs: values.length }), ...more };
      };
      const peak = Math.max(...rs.map((r) => r.peak));
      const ratio = (r: RunFigures) => r.runMs / r.idealMs;
      const worst = Math.max(...rs.map(ratio));
      figures.push(
        { ...row("peak jobs in flight (the emulator's count, the most of the runs)", (r) => r.peak, 'jobs'), value: peak, goal: `≤ ${MAX_RUNNING}`, met: ok && peak <= MAX_RUNNING },
        row("first start to last end (the emulator's clock)", (r) => r.runMs, 'ms'),
        row(`ideal ${MAX_RUNNING}-bounded schedule (job durations summed / ${MAX_RUNNING})`, (r) => r.idealMs, 'ms'),
        row('wall / ideal', ratio, '×', { goal: '≤ 1.15', ...(!smoke && { met: ok && worst <= 1.15 }) }),
        row('a freed slot empty until the next start (median)', (r) => r.slotGapMs, 'ms'),
        row('a freed slot empty until the next start (mean)', (r) => r.slotGapMeanMs, 'ms'),
        row("workers' wall time (start to last exit)", (r) => r.wallMs, 'ms'),
      );
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await model.close();
    await pg.close();
  }
}

/** One run: 3 workers of the CLI `cli` over `n` fresh demo projects on a fresh emulator, a run name of its own. */
async function runWorkers(cli: string, n: number, projects: string, journal: string, modelUrl: string, dir: string): Promise<RunFigures> {
  const emu = await startEmulator({ demoProject: false, demoProjects: n, latencyMs: 5, model: { concurrency: 64, retries: 0 } });
  try {
    const args = [
      cli, 'auto-label', '--projects', projects, '--journal', journal, '--journal-name', `bench-max-running-${Date.now()}`,
      '--labeler-email', 'bench@example.com', '--endpoint', modelUrl, '--files-per-request', '1',
      // --force: a second run over the same projects (another run name, on purpose).
      '--concurrency', String(CONCURRENCY), '--max-running', String(MAX_RUNNING), '--wait', '--interval', '50ms', '--json', '--force',
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
    // The i-th start (in time) needs a free slot: the (i − K)-th end. What lies between is a slot left empty.
    const starts = spans.map(([a]) => a).sort((x, y) => x - y);
    const ends = spans.map(([, b]) => b).sort((x, y) => x - y);
    const gaps = starts.slice(MAX_RUNNING).map((s, i) => s - ends[i]!);
    const ok = codes.every((c) => c === 0) && jobs.length === n && jobs.every((j) => j.status === 'DELIVERED');
    if (!ok) console.error(`maxRunning: exits ${codes.join(', ')}, ${jobs.length} jobs of ${n}`);
    return { ok, peak: emu.emulator.jobsInFlight().peak, runMs: last - first, idealMs: busyMs / MAX_RUNNING, slotGapMs: median(gaps), slotGapMeanMs: gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length), wallMs, load };
  } finally {
    await emu.close();
  }
}
