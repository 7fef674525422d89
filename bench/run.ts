/**
 * `npm run bench` (`-- --smoke` for a short run, `-- name…` for some benchmarks): runs the
 * benchmarks one after another in this process, prints a table and writes bench/results.json
 * (bench/results-smoke.json in smoke mode, which is not committed).
 */
import { cpus } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emulatorThroughput } from './emulatorThroughput.js';
import { largeLabelSets } from './largeLabelSets.js';
import { manyJobs } from './manyJobs.js';
import { manyProjects } from './manyProjects.js';
import { requestOverhead } from './requestOverhead.js';
import { sizeAndStartup } from './sizeAndStartup.js';
import { printTable, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const all: Record<string, () => Promise<Figure[]>> = { requestOverhead, largeLabelSets, manyJobs, emulatorThroughput, sizeAndStartup, manyProjects };
const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const chosen = named.length > 0 ? named : Object.keys(all);
const unknown = chosen.filter((n) => !(n in all));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(all).join(', ')}`);
  process.exit(2);
}

const started = Date.now();
const figures: Figure[] = [];
for (const name of chosen) {
  const t = Date.now();
  figures.push(...(await all[name]!()));
  console.error(`${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
printTable(figures);
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, smoke, seconds: Math.round((Date.now() - started) / 1000) };
const out = smoke ? 'results-smoke.json' : 'results.json';
writeFileSync(join(import.meta.dirname, out), JSON.stringify({ date: new Date().toISOString(), machine, figures }, null, 2) + '\n');
console.error(`wrote bench/${out} (${machine.seconds} s)`);
