// A vitest reporter (vitest.config.ts): at the end of every run, the five test files that cost the
// most CPU, with their CPU seconds, and the run's total, so that growth shows in every run. The
// figures are measured in each file's worker by test/support/fileCpu.ts (the worker's own CPU plus
// that of the child processes it started and reaped; see there for what is not counted).
import { spawnSync } from 'node:child_process';
import type { Reporter, TestModule } from 'vitest/node';
import type { FileCpu } from './fileCpu.js';

/**
 * How many files the report names: five, or as many as LABELKIT_CPU_SHOWN says (a number, or `all`
 * for every file: what to read when deciding where a run's CPU goes).
 */
function shownFiles(setting = process.env.LABELKIT_CPU_SHOWN): number {
  if (setting === 'all') return Number.POSITIVE_INFINITY;
  const wanted = Number(setting);
  return setting && Number.isInteger(wanted) && wanted > 0 ? wanted : 5;
}

/** Clock ticks per second, for /proc's children's CPU (getconf CLK_TCK; 100 on Linux). */
function ticksPerSecond(): number {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(answer.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
}

/** One file's CPU seconds, or undefined when the file did not run to its end (no figure). */
export function cpuSeconds(cpu: FileCpu | undefined, ticks: number): { seconds: number; children: boolean } | undefined {
  if (!cpu || cpu.selfMicros === 0) return undefined;
  return { seconds: cpu.selfMicros / 1e6 + (cpu.childTicks ?? 0) / ticks, children: cpu.childTicks !== null };
}

export default class CpuReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const ticks = ticksPerSecond();
    const rows = modules
      .map((module) => ({ file: module.relativeModuleId, cpu: cpuSeconds(module.meta().cpu, ticks) }))
      .filter((row): row is { file: string; cpu: { seconds: number; children: boolean } } => row.cpu !== undefined)
      .sort((a, b) => b.cpu.seconds - a.cpu.seconds);
    if (rows.length === 0) return;
    const main = process.cpuUsage();
    const total = rows.reduce((sum, row) => sum + row.cpu.seconds, 0);
    const withChildren = rows.every((row) => row.cpu.children);
    const shown = Math.min(shownFiles(), rows.length);
    const lines = [
      '',
      `CPU by test file (the ${shown} most of ${rows.length}; ${total.toFixed(1)} CPU-s in all; each file's worker, user + system${withChildren ? ', with the child processes it reaped' : ', without child processes (no /proc)'}):`,
      ...rows.slice(0, shown).map((row) => `  ${row.cpu.seconds.toFixed(1).padStart(6)} s  ${row.file}`),
      // Vitest's own process (transforms, collection, reporters) is not any file's: shown apart.
      `  and ${((main.user + main.system) / 1e6).toFixed(1)} CPU-s in vitest's main process (transforms, reports)`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  }
}
