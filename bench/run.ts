/**
 * `npm run bench` (`-- --smoke` for a short run, `-- name…` for some benchmarks): runs the
 * benchmarks one after another, each in a fresh process of its own (bench/support/runBenchmark.ts),
 * prints a table and writes bench/results.json (bench/results-smoke.json in smoke mode, which is
 * not committed). Each figure carries the machine's 1-minute load average before and after its
 * benchmark, unless the benchmark gave it a closer one. Naming benchmarks replaces only their
 * rows; the others stay, each marked with the date of the run that measured it.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCHMARKS as all } from './support/runBenchmark.js';
import { printTable, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const chosen = named.length > 0 ? named : Object.keys(all);
const unknown = chosen.filter((n) => !(n in all));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(all).join(', ')}`);
  process.exit(2);
}

/**
 * Runs one benchmark in a fresh node process with this one's loader and flags (tsx,
 * `--expose-gc`, `--smoke`): before, each ran in this process after the others, on their heap
 * and their leftover garbage (about 120 MB of it by the time the emulator's 1,000,000-line job ran).
 */
async function runAlone(name: string, dir: string): Promise<Figure[]> {
  const out = join(dir, `${name}.json`);
  const script = join(import.meta.dirname, 'support', 'runBenchmark.ts');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, name, out, ...(smoke ? ['--smoke'] : [])], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`benchmark ${name} failed (exit code ${code})`);
  return JSON.parse(readFileSync(out, 'utf8')) as Figure[];
}

const started = Date.now();
const figures: Figure[] = [];
const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-'));
try {
  for (const name of chosen) {
    const t = Date.now();
    const before = loadavg()[0]!;
    const own = await runAlone(name, dir);
    const load: [number, number] = [before, loadavg()[0]!];
    figures.push(...own.map((f) => ({ ...f, load: f.load ?? load })));
    console.error(`${name}: ${((Date.now() - t) / 1000).toFixed(1)} s (load average ${load[0].toFixed(1)} → ${load[1].toFixed(1)})`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
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
