// Runs one benchmark in this process and writes its figures as JSON to a file: bench/run.ts starts
// it once per benchmark, in a fresh process each
// (`tsx --expose-gc bench/support/runBenchmark.ts NAME OUT.json [--smoke]`), so that no benchmark
// runs on the heap, the JIT state or the leftover garbage of the ones before it.
import { writeFileSync } from 'node:fs';
import type { Figure } from './stats.js';

/** The benchmarks, in the order `npm run bench` runs them; each module is loaded only in its own process. */
export const BENCHMARKS: Record<string, () => Promise<Figure[]>> = {
  requestOverhead: async () => (await import('../requestOverhead.js')).requestOverhead(),
  largeLabelSets: async () => (await import('../largeLabelSets.js')).largeLabelSets(),
  manyJobs: async () => (await import('../manyJobs.js')).manyJobs(),
  emulatorThroughput: async () => (await import('../emulatorThroughput.js')).emulatorThroughput(),
  sizeAndStartup: async () => (await import('../sizeAndStartup.js')).sizeAndStartup(),
  manyProjects: async () => (await import('../manyProjects.js')).manyProjects(),
  manyWorkers: async () => (await import('../manyWorkers.js')).manyWorkers(),
  maxRunning: async () => (await import('../maxRunning.js')).maxRunning(),
  readLabels: async () => (await import('../readLabels.js')).readLabels(),
  exportLabels: async () => (await import('../exportLabels.js')).exportLabels(),
  release: async () => (await import('../release.js')).release(),
  evalCi: async () => (await import('../evalCi.js')).evalCi(),
};

// Run as a script (not when bench/run.ts imports the list above).
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [name, out] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const run = name ? BENCHMARKS[name] : undefined;
  if (!run || !out) {
    console.error(`usage: runBenchmark.ts <${Object.keys(BENCHMARKS).join('|')}> <out.json> [--smoke]`);
    process.exit(2);
  }
  writeFileSync(out, JSON.stringify(await run()));
}
