// The emulator's side of one run of the emulator-throughput benchmark, in a process of its own
// (bench/emulatorThroughput.ts starts it): `node --expose-gc bench/support/emulatorProcess.mjs`.
// Plain node and the built emulator (`npm run bench` builds first), as users run it: no tsx, whose
// loader adds about 40 MB of RSS and whose transform adds a naming call per function created.
// No client either: the benchmark's client runs in the parent, so that this process's CPU time
// and memory are the emulator's own, serving the job and its polls.
//
// Prints `{ url, token, rssMiB }`, then answers commands on stdin, one JSON line each:
// - `load <docs> <linesPerDoc>`: replaces the project `bench` (flat lines, benchProject.mjs;
//   replacing it drops the previous one's documents and labels), collects garbage, prints
//   `{ rssMiB }`, and counts CPU time from then on;
// - `measure`: prints `{ cpuMs, rssMiB, peakRssMiB }`: CPU time (user + system) since the last
//   `load`, RSS after a full collection, and the peak RSS over the process's life
//   (`process.resourceUsage().maxRSS`: the kernel's high-water mark, not a sample).
// Closing stdin closes the emulator.
import { createInterface } from 'node:readline';
import { startEmulator } from 'labelkit-tools/emulator'; // the built package (npm run build), through the workspace link
import { BENCH_LABEL_SETS, BENCH_MODEL_CONCURRENCY, benchProject } from './benchProject.mjs';

const rss = () => {
  globalThis.gc?.();
  return Math.round(process.memoryUsage().rss / 2 ** 20);
};
const reply = (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`);

const emu = await startEmulator({ demoProject: false, model: { concurrency: BENCH_MODEL_CONCURRENCY } });
reply({ url: emu.url, token: emu.token, rssMiB: rss() });
let cpu = process.cpuUsage();
for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...rest] = line.split(' ');
  if (command === 'load') {
    const [docs, linesPerDoc] = rest.map(Number);
    emu.emulator.store.addProject({ ...benchProject('bench', docs, linesPerDoc), labelSets: BENCH_LABEL_SETS });
    reply({ rssMiB: rss() });
    cpu = process.cpuUsage();
  } else if (command === 'measure') {
    const { user, system } = process.cpuUsage(cpu);
    // maxRSS is in KiB on Linux and macOS.
    reply({ cpuMs: (user + system) / 1000, rssMiB: rss(), peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) });
  } else {
    console.error(`emulatorProcess: unknown command ${JSON.stringify(line)}`);
    process.exitCode = 2;
    break;
  }
}
await emu.close();
