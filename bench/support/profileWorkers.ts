/**
 * Where the wall time of bench/manyWorkers.ts's pair goes: `npx tsx bench/support/profileWorkers.ts [projects] [workers…]`
 * (default 1000 projects, 1 then 3 workers) runs the built CLI as the pair does (`npm run build`
 * first), on a PostgreSQL cluster of its own with fsync on, the emulator 20 ms late per call and the
 * sample model, and prints per run: the phases (spawn → first intent → last job created → last job
 * ended → last exit), the starts per second, per project the time from its intent's commit to its
 * job's creation at the emulator and from there to its `started` record, and the wait events of
 * the journal's backends sampled every 25 ms. The load average is printed beside each run.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startTestPostgres } from '../../test/support/postgres.js';
import { treeCpuMs } from './procCpu.js';
import { workersSetUp } from './workersSetUp.js';

const n = Number(process.argv[2] ?? 1000);
const sizes = process.argv.length > 3 ? process.argv.slice(3).map(Number) : [1, 3];
const SECRET = 'profile-workers-secret';
const builtBin = join(import.meta.dirname, '..', '..', 'packages', 'labelkit-tools', 'bin', 'labelkit.js');
/** CLIs to compare, side by side (`LABELKIT_PROFILE_BINS=label=path,label=path`): each runs every size. */
const bins = (process.env.LABELKIT_PROFILE_BINS ?? `built=${builtBin}`).split(',').map((b) => b.split('=') as [string, string]);
const cpuAtExit = ['--import', pathToFileURL(join(import.meta.dirname, 'cpuAtExit.mjs')).href];
const quantiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
  return `p10 ${q(0.1).toFixed(1)} p50 ${q(0.5).toFixed(1)} p90 ${q(0.9).toFixed(1)} max ${q(1).toFixed(1)}`;
};

/** The machine's CPU time so far (/proc/stat): busy and all, in ticks. */
function machineTicks(): { busy: number; all: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const all = f.reduce((a, b) => a + b, 0);
  return { busy: all - f[3]! - f[4]!, all };
}

const pg = await startTestPostgres({ durable: true });
if (pg.skip !== undefined) throw new Error(pg.skip);
const { default: driver } = await import('pg');
const db = new driver.Client({ connectionString: pg.url });
await db.connect();
// Statements slower than 20 ms go to the server's log (the cluster's folder holds it beside its data).
await db.query(`ALTER SYSTEM SET log_min_duration_statement = 20`);
await db.query(`SELECT pg_reload_conf()`);
const logFile = join((await db.query<{ data_directory: string }>(`SHOW data_directory`)).rows[0]!.data_directory, '..', 'log');
const slowStatements = (from: number) => {
  const text = readFileSync(logFile, 'utf8').slice(from);
  const kinds = new Map<string, number[]>();
  for (const m of text.matchAll(/duration: ([\d.]+) ms\s+(?:statement|execute [^:]*): (.{0,60})/g)) {
    const key = m[2]!.replace(/\s+/g, ' ').slice(0, 50);
    kinds.set(key, [...(kinds.get(key) ?? []), Number(m[1])]);
  }
  return { kinds, end: from + text.length };
};
let logAt = readFileSync(logFile, 'utf8').length;
const backend = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
const postmaster = Number(readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
try {
  for (const workers of sizes) for (const [label, bin] of bins) {
    const { emu, model, dir, projects, close } = await workersSetUp(n, 20, SECRET, 'labelkit-profile-workers-');
    const name = `profile-${n}-${workers}-${Date.now()}`;
    const args = [
      // Node's own flags for each worker (`LABELKIT_PROFILE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`).
      ...(process.env.LABELKIT_PROFILE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...cpuAtExit, bin, 'auto-label', '--projects', projects, '--journal', pg.url, '--journal-name', name,
      '--labeler-email', 'bench@example.com', '--endpoint', model.url, '--files-per-request', '0',
      '--concurrency', '4', '--wait', '--interval', '100ms', '--json', '--force',
    ];
    const env = { PATH: process.env.PATH ?? '', LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SECRET };
    const load0 = loadavg()[0]!;
    const serverCpu0 = treeCpuMs(postmaster);
    const ownCpu0 = process.cpuUsage();
    const machine0 = machineTicks();
    const t0 = Date.now();
    const waits = new Map<string, number>();
    let samples = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.query<{ w: string }>(
          `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') || ' ' || state AS w FROM pg_stat_activity
            WHERE application_name = 'labelkit journal' AND state <> 'idle'`,
        );
        samples++;
        for (const r of rows) waits.set(r.w, (waits.get(r.w) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const exits: number[] = [];
    const cpu: number[] = [];
    /** Each worker's CPU (user + system, ms) as it went: [ms from spawn, CPU ms], every 50 ms, by pid. */
    const cpuSeries = new Map<number, [number, number][]>();
    const cpuOf = (pid: number) => {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    };
    await Promise.all(
      Array.from({ length: workers }, () => new Promise<void>((resolve) => {
        const child = spawn(process.execPath, args, { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
        const series: [number, number][] = [];
        cpuSeries.set(child.pid!, series);
        const tick = setInterval(() => {
          try {
            series.push([Date.now() - t0, cpuOf(child.pid!)]);
          } catch {
            // ended
          }
        }, 50);
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
        child.on('close', (code) => {
          clearInterval(tick);
          exits.push(Date.now() - t0);
          cpu.push(Number(/cpu-ms ([\d.]+)/.exec(stderr)?.[1]));
          if (code !== 0) console.error(`a worker exited ${code}: ${stderr}`);
          resolve();
        });
      })),
    );
    sampling = false;
    await sampler;
    loop.disable();
    const ownCpu = process.cpuUsage(ownCpu0);
    const machine1 = machineTicks();
    const serverCpu = treeCpuMs(postmaster) - serverCpu0;
    const load1 = loadavg()[0]!;
    const { rows } = await db.query<{ project_id: string; type: string; at: Date; worker: string }>(
      `SELECT project_id, type, written_at AS at, worker FROM labelkit_journal.records WHERE run = $1 AND type IN ('intent', 'started')`,
      [name],
    );
    const intent = new Map<string, number>();
    const started = new Map<string, number>();
    for (const r of rows) (r.type === 'intent' ? intent : started).set(r.project_id, r.at.getTime() - t0);
    const created = new Map<string, number>();
    const ended: number[] = [];
    for (const job of emu.emulator.store.jobs.values()) {
      const p = emu.emulator.store.jobSource(job.id)?.projectId ?? '?';
      created.set(p, Date.parse(job.createdAt) - t0);
      ended.push(Date.parse(job.updatedAt) - t0);
    }
    const firstIntent = Math.min(...intent.values());
    const lastCreated = Math.max(...created.values());
    const lastEnded = Math.max(...ended);
    const toCreated: number[] = [];
    const toStarted: number[] = [];
    for (const [p, at] of intent) {
      const c = created.get(p);
      if (c !== undefined) toCreated.push(c - at);
      const s = started.get(p);
      if (s !== undefined && c !== undefined) toStarted.push(s - c);
    }
    console.log(`\n[${label}] ${n} projects × ${workers} workers (load ${load0.toFixed(1)} → ${load1.toFixed(1)}): wall ${(Math.max(...exits) / 1000).toFixed(1)} s, worker CPU ${cpu.map((c) => (c / 1000).toFixed(1)).join(' + ')} s`);
    console.log(`  CPU s: workers ${(cpu.reduce((a, b) => a + b, 0) / 1000).toFixed(1)}, emulator + model (this process) ${((ownCpu.user + ownCpu.system) / 1e6).toFixed(1)}, PostgreSQL ${(serverCpu / 1000).toFixed(1)}; the machine busy ${((100 * (machine1.busy - machine0.busy)) / (machine1.all - machine0.all)).toFixed(0)} % of its cores`);
    console.log(`  phases (s from spawn): first intent ${(firstIntent / 1000).toFixed(2)}, last job created ${(lastCreated / 1000).toFixed(2)}, last job ended ${(lastEnded / 1000).toFixed(2)}, exits ${exits.map((e) => (e / 1000).toFixed(2)).join(' ')}`);
    console.log(`  starts: ${created.size} jobs in ${((lastCreated - firstIntent) / 1000).toFixed(2)} s = ${((created.size * 1000) / (lastCreated - firstIntent)).toFixed(0)}/s`);
    console.log(`  intent commit → job created (ms): ${quantiles(toCreated)}`);
    console.log(`  job created → started record (ms): ${quantiles(toStarted)}`);
    const jobsMs = Array.from(emu.emulator.store.jobs.values(), (j) => Date.parse(j.updatedAt) - Date.parse(j.createdAt));
    console.log(`  job duration at the emulator (ms): ${quantiles(jobsMs)}`);
    console.log(`  the emulator's and model's event loop (this process): delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} p99 ${(loop.percentile(99) / 1e6).toFixed(1)} max ${(loop.max / 1e6).toFixed(1)} ms`);
    const slow = slowStatements(logAt);
    logAt = slow.end;
    console.log(`  statements over 20 ms (server log):`);
    for (const [k, ds] of [...slow.kinds].sort((a, b) => b[1].length - a[1].length).slice(0, 8)) console.log(`    ${ds.length} × ${k} (${quantiles(ds)})`);
    // Per worker: the gap between its intents (its slots' claims together), and its first intent after spawn.
    const byWorker = new Map<string, number[]>();
    for (const r of rows) if (r.type === 'intent') byWorker.set(r.worker, [...(byWorker.get(r.worker) ?? []), r.at.getTime() - t0]);
    for (const [w, ats] of byWorker) {
      ats.sort((a, b) => a - b);
      const gaps = ats.slice(1).map((a, i) => a - ats[i]!);
      console.log(`  worker …${w.slice(-6)}: ${ats.length} intents from ${(ats[0]! / 1000).toFixed(2)} to ${(ats.at(-1)! / 1000).toFixed(2)} s; gap between intents ${quantiles(gaps)} ms`);
      // Its CPU before its first intent (start-up), while it claimed (per project), after its last (the waits and the end).
      const series = cpuSeries.get(Number(w.split(':').at(-2))) ?? [];
      const at = (ms: number) => series.findLast(([t]) => t <= ms)?.[1] ?? 0;
      const last = series.at(-1)?.[1] ?? 0;
      const [first, lastIntent] = [at(ats[0]!), at(ats.at(-1)!)];
      console.log(`    its CPU: ${(first / 1000).toFixed(2)} s to its first intent, ${((lastIntent - first) / 1000).toFixed(2)} s while claiming (${((lastIntent - first) / ats.length).toFixed(2)} ms a project), ${((last - lastIntent) / 1000).toFixed(2)} s after its last intent (sampled every 50 ms)`);
    }
    console.log(`  journal backends not idle, per sample (${samples} samples):`);
    for (const [w, k] of [...waits].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`    ${(k / samples).toFixed(2)}  ${w}`);
    await close();
  }
} finally {
  await db.end();
  await pg.close();
}
