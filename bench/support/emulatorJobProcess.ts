/**
 * One side of one run of the emulator-throughput benchmark, in a process of its own
 * (bench/emulatorThroughput.ts starts it with startBenchChild). Each answer is one JSON line on stdout.
 *
 * `emulator`: `tsx --expose-gc bench/support/emulatorJobProcess.ts emulator`. Starts the emulator
 * (from `dist/`, as users run it) alone in this process (no client: the benchmark's client runs in
 * the parent process, so that this process's CPU time and memory are the emulator's own, serving
 * the job and its polls) and prints `{ url, token }`. Then reads commands on stdin: `load <docs> <linesPerDoc>` replaces the project
 * `bench` (flat lines, see benchProject.ts; replacing it drops the previous one's documents and
 * labels), collects garbage and prints `{ rssMiB }`, and from then counts CPU time; `measure`
 * prints `{ cpuMs, rssMiB, peakRssMiB }`: CPU time (user + system) since the last `load`, RSS after
 * a full collection, and the peak RSS over the process's life (`process.resourceUsage().maxRSS`,
 * the kernel's high-water mark, not a sample). Closing stdin closes the emulator.
 *
 * `raw`: `… raw <linesPerRequest> <docs> <linesPerDoc> <modelUrl> <secret> <warmDocs> <warmLinesPerDoc>`.
 * Sends a warm-up project's batches with the raw caller (rawModelCaller.ts), collects garbage, then
 * times the project's, and prints `{ ms, cpuMs, loadedRssMiB, afterRssMiB, peakRssMiB }`. This
 * process never loads the client, the emulator or graphql.
 */
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { BENCH_LABEL_SETS, BENCH_MODEL_CONCURRENCY as CONCURRENCY, benchProject } from './benchProject.js';
import { rawModelCaller } from './rawModelCaller.js';
import { collectGarbage } from './stats.js';
import type * as EmulatorEntry from '../../src/emulator/index.js';

/** What a `raw` run prints. */
export interface RawRunResult {
  ms: number;
  cpuMs: number;
  loadedRssMiB: number;
  afterRssMiB: number;
  peakRssMiB: number;
}

/** What the `emulator` side prints for `measure`. */
export interface EmulatorMeasure {
  cpuMs: number;
  rssMiB: number;
  peakRssMiB: number;
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const rss = () => {
  collectGarbage();
  return mib(process.memoryUsage().rss);
};
// maxRSS is in KiB on Linux and macOS.
const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
const reply = (answer: object) => process.stdout.write(`${JSON.stringify(answer)}\n`);
const usage = () => {
  console.error('usage: emulatorJobProcess.ts emulator | raw <linesPerRequest> <docs> <linesPerDoc> <modelUrl> <secret> <warmDocs> <warmLinesPerDoc>');
  process.exit(2);
};

const [side, ...args] = process.argv.slice(2);
if (side === 'raw') {
  const [modelUrl, secret] = [args[3], args[4]];
  const [perRequest, docs, linesPerDoc, warmDocs, warmLines] = [args[0], args[1], args[2], args[5], args[6]].map(Number) as number[];
  if (!modelUrl || !secret || ![perRequest, docs, linesPerDoc, warmDocs, warmLines].every(Number.isInteger)) usage();
  await rawModelCaller(benchProject('bench', warmDocs!, warmLines!), perRequest!, modelUrl!, secret!, CONCURRENCY);
  const project = benchProject('bench', docs!, linesPerDoc!);
  const loadedRssMiB = rss();
  const cpu = process.cpuUsage();
  const { ms } = await rawModelCaller(project, perRequest!, modelUrl!, secret!, CONCURRENCY);
  const used = cpuMs(cpu);
  const answer: RawRunResult = { ms, cpuMs: used, loadedRssMiB, afterRssMiB: rss(), peakRssMiB: peakRss() };
  reply(answer);
} else if (side === 'emulator') {
  // The emulator as users run it: the build (`npm run bench` builds first), not the sources through
  // tsx, whose transform names every function it creates (esbuild's keepNames: one
  // Object.defineProperty per closure made per model call, about 3 % of the job's time in a profile).
  const built = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'src', 'emulator', 'index.js')).href;
  const { startEmulator } = (await import(built)) as typeof EmulatorEntry;
  const emu = await startEmulator({ demoProject: false, model: { concurrency: CONCURRENCY } });
  reply({ url: emu.url, token: emu.token });
  let cpu = process.cpuUsage();
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, ...rest] = line.split(' ');
    if (command === 'load') {
      const [docs, linesPerDoc] = rest.map(Number) as [number, number];
      emu.emulator.store.addProject({ ...benchProject('bench', docs, linesPerDoc), labelSets: BENCH_LABEL_SETS });
      reply({ rssMiB: rss() });
      cpu = process.cpuUsage();
    } else if (command === 'measure') {
      const answer: EmulatorMeasure = { cpuMs: cpuMs(cpu), rssMiB: rss(), peakRssMiB: peakRss() };
      reply(answer);
    } else {
      console.error(`emulatorJobProcess: unknown command ${JSON.stringify(line)}`);
      process.exitCode = 2;
      break;
    }
  }
  await emu.close();
} else usage();
