import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoProjectId, startEmulator } from '../src/emulator/index.js';
import { createModelHandler, createSampleModel, serveFetchHandler } from '../src/model/index.js';
import { smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-many-secret';
/** The model's latency per request: long enough that jobs are still running when the last one starts. */
const MODEL_MS = 40;
const root = join(import.meta.dirname, '..');

/**
 * 6. Many projects: `labelkit auto-label --projects … --journal … --wait` (the built CLI, in a
 * child process) over N demo projects of 3 to 7 lines, against the emulator with the sample model
 * (answering after MODEL_MS, at most 4 model requests at once: the emulator's default).
 * Wall time, getJobs requests against poll intervals, the CLI's peak RSS and the journal's size.
 */
export async function manyProjects(): Promise<Figure[]> {
  const n = smoke ? 50 : 1000;
  const intervalMs = 200;
  const emu = await startEmulator({ demoProject: false, demoProjects: n });
  const sample = createSampleModel();
  const model = await serveFetchHandler(
    createModelHandler(async (req) => {
      await new Promise((r) => setTimeout(r, MODEL_MS));
      return sample(req);
    }, { secretKey: SECRET }),
    0,
    '127.0.0.1',
  );
  // A counting front: every GraphQL request the CLI sends goes through it to the emulator.
  const seen: { op: string; at: number }[] = [];
  const front = await serveFetchHandler(async (request) => {
    const body = (await request.clone().json().catch(() => ({}))) as { operationName?: string };
    seen.push({ op: body.operationName ?? '', at: performance.now() });
    return emu.emulator.handle(request);
  }, 0, '127.0.0.1');

  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-many-'));
  const projects = join(dir, 'projects.txt');
  const journal = join(dir, 'run.ndjson');
  writeFileSync(projects, Array.from({ length: n }, (_, i) => demoProjectId(i + 1)).join('\n') + '\n');
  const args = [
    '--import', join(root, 'bench', 'support', 'reportRss.mjs'), join(root, 'packages', 'labelkit-tools', 'bin', 'labelkit.js'),
    'auto-label', '--projects', projects, '--journal', journal, '--labeler-email', 'bench@example.com',
    '--endpoint', model.url, '--files-per-request', '0', '--wait', '--timeout', '10m', '--interval', `${intervalMs}ms`, '--json',
  ];
  const t = performance.now();
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '', LABELKIT_URL: new URL('/graphql', front.url).href, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SECRET },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  const wallMs = performance.now() - t;
  await front.close();
  await model.close();
  await emu.close();

  const summary = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { counts?: Record<string, number> };
  if (run.code !== 0) throw new Error(`manyProjects: the CLI exited ${run.code}: ${run.stderr.slice(-500)}`);
  const mutations = seen.filter((s) => s.op === 'AutoLabelTokenBasedProjectMutation');
  const polls = seen.filter((s) => s.op === 'GetJobs');
  const lastStart = mutations.at(-1)!.at;
  const pollsAfterStarts = polls.filter((p) => p.at > lastStart);
  const waitMs = (polls.at(-1)?.at ?? lastStart) - lastStart;
  const waitIntervals = Math.ceil(waitMs / intervalMs) + 1;
  const startMs = lastStart - mutations[0]!.at;
  const intervals = Math.ceil(wallMs / intervalMs) + 1;
  const rssKiB = Number(/BENCH_MAX_RSS_KIB=(\d+)/.exec(run.stderr)?.[1] ?? Number.NaN);
  return [
    { bench: 'many projects', name: `${n} projects delivered (CLI, one job each)`, value: summary.counts?.delivered ?? 0, unit: 'projects', goal: `${n}`, met: summary.counts?.delivered === n && mutations.length === n },
    { bench: 'many projects', name: 'wall time of the run (start, wait, journal)', value: wallMs, unit: 'ms' },
    { bench: 'many projects', name: `getJobs requests over the run (${intervalMs} ms interval)`, value: polls.length, unit: 'req', goal: `≤ 1 per interval (${intervals} intervals)`, met: polls.length <= intervals },
    { bench: 'many projects', name: `start phase: ${n} mutations, concurrency 4, journal fsynced`, value: startMs, unit: 'ms' },
    { bench: 'many projects', name: `getJobs requests during the wait (${Math.round(waitMs)} ms after the last start)`, value: pollsAfterStarts.length, unit: 'req', goal: `≤ 1 per interval (${waitIntervals} intervals)`, met: pollsAfterStarts.length <= waitIntervals },
    { bench: 'many projects', name: 'CLI peak RSS', value: rssKiB / 1024, unit: 'MiB' },
    { bench: 'many projects', name: 'journal size', value: statSync(journal).size, unit: 'bytes' },
  ];
}
