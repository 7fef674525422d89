/**
 * The raw caller's side of one run of the emulator-throughput benchmark, in a process of its own
 * (bench/emulatorThroughput.ts starts it):
 * `tsx --expose-gc bench/support/rawCallerProcess.ts <linesPerRequest> <docs> <linesPerDoc> <modelUrl> <secret> <warmDocs> <warmLinesPerDoc>`.
 * Sends a warm-up project's batches with the raw caller (rawModelCaller.ts), collects garbage,
 * then times the project's (flat lines, see benchProject.mjs), and prints one JSON line:
 * `{ ms, cpuMs, loadedRssMiB, afterRssMiB, peakRssMiB }`. This process never loads the client,
 * the emulator or graphql.
 */
import { BENCH_MODEL_CONCURRENCY, benchProject } from './benchProject.mjs';
import { rawModelCaller } from './rawModelCaller.js';
import { collectGarbage } from './stats.js';

/** What a run prints: wall time, CPU time (user + system) of the timed part, RSS after a full GC with the project held and after the run, and the peak RSS over the process's life. */
export interface RawRunResult {
  ms: number;
  cpuMs: number;
  loadedRssMiB: number;
  afterRssMiB: number;
  peakRssMiB: number;
}

const rss = () => {
  collectGarbage();
  return Math.round(process.memoryUsage().rss / 2 ** 20);
};

const [modelUrl, secret] = [process.argv[5], process.argv[6]];
const [perRequest, docs, linesPerDoc, warmDocs, warmLines] = [2, 3, 4, 7, 8].map((i) => Number(process.argv[i]));
if (!modelUrl || !secret || ![perRequest, docs, linesPerDoc, warmDocs, warmLines].every(Number.isInteger)) {
  console.error('usage: rawCallerProcess.ts <linesPerRequest> <docs> <linesPerDoc> <modelUrl> <secret> <warmDocs> <warmLinesPerDoc>');
  process.exit(2);
}
await rawModelCaller(benchProject('bench', warmDocs!, warmLines!), perRequest!, modelUrl, secret, BENCH_MODEL_CONCURRENCY);
const project = benchProject('bench', docs!, linesPerDoc!);
const loadedRssMiB = rss();
const cpu = process.cpuUsage();
const { ms } = await rawModelCaller(project, perRequest!, modelUrl, secret, BENCH_MODEL_CONCURRENCY);
const { user, system } = process.cpuUsage(cpu);
// maxRSS is in KiB on Linux and macOS.
const answer: RawRunResult = { ms, cpuMs: (user + system) / 1000, loadedRssMiB, afterRssMiB: rss(), peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) };
process.stdout.write(`${JSON.stringify(answer)}\n`);
