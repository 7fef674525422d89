/**
 * `npm run bench` (`-- --smoke` for a short run, `-- name…` for some benchmarks): runs the
 * benchmarks one after another in this process, prints a table and writes bench/results.json
 * (bench/results-smoke.json in smoke mode, which is not committed). Naming benchmarks replaces
 * only their rows; the others stay, each marked with the date of the run that measured it.
 */
import { cpus } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
const path = join(import.meta.dirname, out);
const date = new Date().toISOString();
// A run of some benchmarks replaces only their rows: the others keep the figures (and the date)
// of the run that measured them, so `npm run bench -- name` never loses the rest of the file.
let kept: Figure[] = [];
if (named.length > 0 && existsSync(path)) {
  const previous = JSON.parse(readFileSync(path, 'utf8')) as { date?: string; figures?: Figure[] };
  const ran = new Set(figures.map((f) => f.bench));
  kept = (previous.figures ?? []).filter((f) => !ran.has(f.bench)).map((f) => ({ measuredAt: previous.date, ...f }));
}
const dated = named.length > 0 ? figures.map((f) => ({ ...f, measuredAt: date })) : figures;
writeFileSync(path, JSON.stringify({ date, machine, figures: [...kept, ...dated] }, null, 2) + '\n');
console.error(`wrote bench/${out} (${machine.seconds} s${kept.length > 0 ? `; kept ${kept.length} rows of benchmarks not run` : ''})`);
