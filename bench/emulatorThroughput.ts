import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createLabelingClient, startAutoLabel, waitForJob } from '../src/client/index.js';
import type { LabelingClient } from '../src/client/index.js';
import { startBenchChild } from './support/childProcess.js';
import type { RawRunResult } from './support/rawCallerProcess.js';
import { startModelProcess } from './support/rawModelCaller.js';
import { smoke, spread } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-secret';
const EMULATOR_PROCESS = join(import.meta.dirname, 'support', 'emulatorProcess.mjs');
const RAW_PROCESS = join(import.meta.dirname, 'support', 'rawCallerProcess.ts');
/** The client polls every 200 ms: each poll is a request the emulator serves on the event loop that runs the job. */
const POLL_MS = 200;

/** One job size: lines per request, documents, lines per document. */
interface Size {
  n: number;
  docs: number;
  lines: number;
}

/** One run of one side: wall time of the job, CPU time of its process, memory of its process. */
interface Run {
  ms: number;
  cpuMs: number;
  /** CPU time of the model's process over the run (warm-up included), where `/proc` tells it. */
  modelCpuMs?: number;
  /** RSS after a full collection: at start (emulator only), with the project loaded, after the job. */
  startRssMiB?: number;
  loadedRssMiB: number;
  afterRssMiB: number;
  peakRssMiB: number;
}

/**
 * The warm-up before each timed job, in the same process at the same lines per request: a job of
 * the timed job's own size, up to 200,000 lines. With a smaller one (first 20,000, then 50,000
 * lines), a perf profile (CPU-time sampling) of the timed job still showed V8's optimising
 * compiler at 22-25 % of either process's CPU time and much of node:http running in baseline
 * code: the figure measured warm-up more than the emulator.
 */
function warmupOf(size: Size): Size {
  if (smoke) return { n: size.n, docs: 1, lines: Math.min(100, size.lines) };
  const lines = Math.min(200_000, size.docs * size.lines);
  return { n: size.n, docs: Math.ceil(lines / size.lines), lines: Math.min(lines, size.lines) };
}

async function runJob(client: LabelingClient, n: number, modelUrl: string): Promise<number> {
  const job = await startAutoLabel(client, {
    projectId: 'bench',
    labelerEmail: 'bench@example.com',
    options: { numberOfFilesPerRequest: n },
    targetAPI: { endpoint: modelUrl, secretKey: SECRET },
  });
  const outcome = await waitForJob(client, job.id, { timeoutMs: 1_800_000 });
  if (outcome.outcome !== 'delivered') throw new Error(`the job at ${n} lines per request ended ${outcome.outcome}`);
  return Date.parse(outcome.job.updatedAt) - Date.parse(outcome.job.createdAt);
}

/** The emulator alone in a fresh process; this process's client starts and polls its jobs. */
async function emulatorRun(size: Size, modelUrl: string): Promise<Run> {
  // Plain node: the emulator's process carries neither tsx nor the client.
  const child = startBenchChild(EMULATOR_PROCESS, [], ['--expose-gc']);
  let client: LabelingClient | undefined;
  try {
    const { url, token, rssMiB: startRssMiB } = await child.next<{ url: string; token: string; rssMiB: number }>();
    client = createLabelingClient({ url, token, poll: { intervalMs: POLL_MS, maxIntervalMs: POLL_MS } });
    const warm = warmupOf(size);
    child.send(`load ${warm.docs} ${warm.lines}`);
    await child.next();
    await runJob(client, size.n, modelUrl);
    child.send(`load ${size.docs} ${size.lines}`);
    const { rssMiB: loadedRssMiB } = await child.next<{ rssMiB: number }>();
    const ms = await runJob(client, size.n, modelUrl);
    child.send('measure');
    const measured = await child.next<{ cpuMs: number; rssMiB: number; peakRssMiB: number }>();
    return { ms, cpuMs: measured.cpuMs, startRssMiB, loadedRssMiB, afterRssMiB: measured.rssMiB, peakRssMiB: measured.peakRssMiB };
  } finally {
    client?.close();
    await child.close();
  }
}

/** The raw caller alone in a fresh process. */
async function rawRun(size: Size, modelUrl: string): Promise<Run> {
  const warm = warmupOf(size);
  const child = startBenchChild(RAW_PROCESS, [...[size.n, size.docs, size.lines].map(String), modelUrl, SECRET, String(warm.docs), String(warm.lines)]);
  try {
    return await child.next<RawRunResult>();
  } finally {
    await child.close();
  }
}

/**
 * 4. Emulator throughput: an auto-labeling job of the emulator against a raw caller that sends the
 * same batches to the same model with the same concurrency (bench/support/rawModelCaller.ts), at 1,
 * 50 and 500 lines per request, then a job of 1,000,000 lines (1,000 documents × 1,000 lines) at
 * 50 lines per request with the peak RSS of the emulator's process.
 *
 * @remarks Every run is a fresh process: the emulator alone in one, on plain node from `packages/labelkit-tools/dist/`
 * (bench/support/emulatorProcess.mjs; this process runs the client that starts the job and polls
 * it every 200 ms), the raw caller alone in another (bench/support/rawCallerProcess.ts), both
 * building the project's lines as flat strings (bench/support/benchProject.mjs),
 * each warming up on a small project at the same lines per request before the timed job. The
 * sample model runs in a third process, as a user's model does, shared by all runs. Rounds
 * alternate which side runs first; each figure is the median of the rounds (5; 1 in smoke mode)
 * with its range, and the ratio is the median of each round's emulator / raw caller (the two runs
 * of a round ran side by side under the same load). The job's wall time is the emulator's own:
 * from the job's `createdAt` to its `updatedAt` when DELIVERED. Every figure carries the 1-minute
 * load average before and after its case.
 */
export async function emulatorThroughput(): Promise<Figure[]> {
  const model = await startModelProcess(SECRET);
  const figures: Figure[] = [];
  const rounds = Number(process.env.BENCH_EMULATOR_ROUNDS ?? (smoke ? 1 : 5));
  const only = process.env.BENCH_EMULATOR_CASES?.split(',').map(Number);
  const cases: Array<Size & { big?: boolean }> = smoke
    ? [{ n: 1, docs: 1, lines: 100 }, { n: 50, docs: 10, lines: 100, big: true }, { n: 500, docs: 2, lines: 1_000 }]
    : [{ n: 1, docs: 5, lines: 1_000 }, { n: 50, docs: 100, lines: 1_000 }, { n: 500, docs: 200, lines: 1_000 }, { n: 50, docs: 1_000, lines: 1_000, big: true }];
  try {
    for (const size of cases.filter((_, i) => !only || only.includes(i))) {
      const load: [number, number] = [loadavg()[0]!, 0];
      const ours: Run[] = [];
      const raw: Run[] = [];
      const measured = async (run: (size: Size, url: string) => Promise<Run>): Promise<Run> => {
        const before = model.cpuMs();
        const result = await run(size, model.url);
        const after = model.cpuMs();
        return { ...result, ...(before !== undefined && after !== undefined && { modelCpuMs: after - before }) };
      };
      for (let r = 0; r < rounds; r++) {
        if (r % 2 === 0) {
          ours.push(await measured(emulatorRun));
          raw.push(await measured(rawRun));
        } else {
          raw.push(await measured(rawRun));
          ours.push(await measured(emulatorRun));
        }
      }
      load[1] = loadavg()[0]!;
      const at = `${size.docs * size.lines} lines, ${size.n}/request`;
      const row = (name: string, values: number[], unit: string, goal?: { text: string; max: number }): Figure => {
        const { median, range } = spread(values);
        return { bench: 'emulator throughput', name: `${at}: ${name}`, value: median, unit, range, runs: values.length, load, ...(goal && { goal: goal.text, met: median <= goal.max }) };
      };
      figures.push(
        row('emulator job wall time', ours.map((o) => o.ms), 'ms'),
        row('raw caller wall time', raw.map((o) => o.ms), 'ms'),
        row('emulator / raw caller', ours.map((o, i) => o.ms / raw[i]!.ms), '×', { text: '≤ 1.2×', max: 1.2 }),
        row("CPU time of the emulator's process during the job", ours.map((o) => o.cpuMs), 'ms'),
        row("CPU time of the raw caller's process", raw.map((o) => o.cpuMs), 'ms'),
        row('emulator / raw caller (CPU time)', ours.map((o, i) => o.cpuMs / raw[i]!.cpuMs), '×'),
      );
      if (ours.every((o) => o.modelCpuMs !== undefined) && raw.every((o) => o.modelCpuMs !== undefined)) {
        figures.push(
          row("CPU time of the model's process over an emulator run (warm-up included)", ours.map((o) => o.modelCpuMs!), 'ms'),
          row("CPU time of the model's process over a raw caller run (warm-up included)", raw.map((o) => o.modelCpuMs!), 'ms'),
        );
      }
      if (size.big) {
        figures.push(
          row("peak RSS of the emulator's process", ours.map((o) => o.peakRssMiB), 'MB', { text: '≤ 400 MB', max: 400 }),
          row("RSS of the emulator's process just started, no project (full GC)", ours.map((o) => o.startRssMiB!), 'MB'),
          row("RSS of the emulator's process with the project loaded, before the job (full GC)", ours.map((o) => o.loadedRssMiB), 'MB'),
          row("RSS of the emulator's process after the job, its labels stored (full GC)", ours.map((o) => o.afterRssMiB), 'MB'),
          row("peak RSS of the raw caller's process (the same lines, no emulator)", raw.map((o) => o.peakRssMiB), 'MB'),
        );
      }
    }
  } finally {
    await model.close();
  }
  return figures;
}
