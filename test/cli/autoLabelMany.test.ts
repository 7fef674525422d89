import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { main } from '../../src/cli/main.js';
import type { JournalRecord } from '../../src/bulk/index.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { startStubModel } from '../support/stubModel.js';
import { startCountingService } from '../support/countingService.js';
import type { CountingService } from '../support/countingService.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { createPrinter } from '../../src/cli/io.js';
import { runManyFromFlags } from '../../src/cli/commands/autoLabel/manyRunner.js';
import { killStarted, runCli, startCli } from '../support/spawnCli.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// The built binary against the emulator behind a counting front (test/support/countingService.ts),
// which counts the jobs the service started for each project.
const SECRET = 'SENTINEL-cli-many-7d1a';
let service: CountingService;
let model: RunningModelServer;
const dir = tempDir('labelkit-cli-many-');

beforeAll(async () => {
  service = await startCountingService({ demoProjects: 100, model: { concurrency: 16, retries: 0 } });
  model = await startModelServer({ secretKey: SECRET });
});
afterAll(async () => {
  killStarted();
  await service?.close();
  await model?.close();
});

const env = () => ({ LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: SECRET });
const args = (...more: string[]) => [
  'auto-label', '--labeler-email', 'many@example.com', '--endpoint', model.url, '--files-per-request', '2', '--interval', '30ms', ...more,
];
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => demoProjectId(from + k));
const jobsOf = (projects: string[]) => projects.map((p) => service.jobsStarted.get(p) ?? 0);
const events = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const readJournal = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as JournalRecord);
const lastState = (records: JournalRecord[], projectId: string) => {
  const mine = records.filter((r) => r.type !== 'run' && r.projectId === projectId);
  const last = mine.at(-1);
  return last === undefined ? 'none' : last.type === 'outcome' ? last.outcome : last.type;
};

describe('labelkit auto-label over many projects', () => {
  const projects = ids(1, 40);
  const projectsFile = join(dir, 'projects.txt');
  const journal = join(dir, 'run.ndjson');

  it('starts every project exactly once across a run killed with SIGKILL and its rerun with the same journal', async () => {
    writeFileSync(projectsFile, `# forty demo projects\n${projects.map((p, i) => (i % 7 === 0 ? `${p}   # a comment` : p)).join('\n')}\n\n`);
    service.mutationDelayMs = 40; // so that the kill lands while projects are still being started
    const first = startCli(args('--projects', projectsFile, '--journal', journal, '--concurrency', '2', '--wait', '--json'), env());
    await first.waitFor(/("event":"started"[^]*?){8}/);
    first.child.kill('SIGKILL');
    await first.exited;
    service.mutationDelayMs = 0;
    const atKill = readJournal(journal);
    const states = new Map(projects.map((p) => [p, lastState(atKill, p)]));
    expect([...states.values()].filter((s) => s === 'none').length).toBeGreaterThan(0); // killed mid-way

    const rerun = await runCli(args('--projects', projectsFile, '--journal', journal, '--concurrency', '4', '--wait', '--json'), env());
    expect(events(rerun.stdout)).toContainEqual({ event: 'warning', message: `${journal}.lock was left by a run that no longer runs (a crash or kill): taken over` });
    const outcomes = new Map(events(rerun.stdout).filter((e) => e.event === 'outcome').map((e) => [e.projectId as string, e]));
    for (const p of projects) {
      const jobs = service.jobsStarted.get(p) ?? 0;
      expect(jobs, p).toBeLessThanOrEqual(1); // never 2
      const o = outcomes.get(p)!;
      if (states.get(p) === 'intent') {
        // The mutation may or may not have reached the service: reported, never started again.
        expect(o.outcome, p).toBe('outcome-unknown');
      } else {
        expect([p, o.outcome]).toEqual([p, 'delivered']);
        expect([p, jobs]).toEqual([p, 1]);
      }
    }
    const unknown = [...states.values()].filter((s) => s === 'intent').length;
    expect(rerun.code).toBe(unknown > 0 ? 5 : 0);
    expect(events(rerun.stdout).at(-1)).toMatchObject({ event: 'summary', projects: 40, exitCode: rerun.code });
    expect(rerun.stdout + rerun.stderr + readFileSync(journal, 'utf8')).not.toContain(SECRET);
  });

  it('prints the plan and sends nothing when --dry-run is given, also after a torn last journal line', async () => {
    appendFileSync(journal, '{"type":"outcome","at":"2026-');
    const bytes = readFileSync(journal, 'utf8');
    const requests = service.requests.length;
    const dry = await runCli(args('--projects', projectsFile, '--journal', journal, '--dry-run'), env());
    expect(dry.code).toBe(0);
    expect(service.requests.length).toBe(requests);
    expect(readFileSync(journal, 'utf8')).toBe(bytes);
    expect(dry.stderr).toContain(`line ${bytes.split('\n').length} is incomplete or corrupt`);
    expect(dry.stdout.split('\n')[0]).toMatch(/^PROJECT\s+ACTION\s+JOB\s+WHY$/);
    expect(dry.stdout).toMatch(new RegExp(`${demoProjectId(1)}\\s+skip\\s+job-\\S+\\s+delivered in an earlier run`));
    expect(dry.stderr).toContain('dry run, nothing was sent');

    const again = await runCli(args('--projects', projectsFile, '--journal', journal, '--wait'), env());
    expect(again.stderr).toContain('is incomplete or corrupt');
    expect(again.stdout).toMatch(/^PROJECT\s+JOB\s+OUTCOME\s+LABELS\/ERRORS$/m);
    for (const p of projects) expect(service.jobsStarted.get(p) ?? 0, p).toBeLessThanOrEqual(1);
    expect(readFileSync(journal, 'utf8').endsWith('\n')).toBe(true);
    expect(readJournal(journal).length).toBeGreaterThan(0); // every line parses again
  });

  it('refuses a journal written with another --files-per-request unless --force, sending nothing', async () => {
    const requests = service.requests.length;
    const other = await runCli(['auto-label', '--labeler-email', 'many@example.com', '--endpoint', model.url, '--files-per-request', '3', '--projects', projectsFile, '--journal', journal], env());
    expect(other.code).toBe(2);
    // One flag changed over 40 projects: one line for it (the count, three of the projects), not one per project.
    expect(other.stderr).toContain(`--files-per-request: 40 projects of the journal (${demoProjectId(1)}, ${demoProjectId(2)}, ${demoProjectId(3)} and 37 more) were run with files per request 2; this run uses 3`);
    expect(other.stderr.trim().split('\n')).toHaveLength(4);
    expect(other.stderr).toContain('--journal: use another journal file, or --force to use this one anyway');
    expect(service.requests.length).toBe(requests);
    const forced = await runCli(['auto-label', '--labeler-email', 'many@example.com', '--endpoint', model.url, '--files-per-request', '3', '--projects', projectsFile, '--journal', journal, '--force', '--json'], env());
    expect(events(forced.stdout).at(-1)).toMatchObject({ event: 'summary', dryRun: false });
    for (const p of projects) expect(service.jobsStarted.get(p) ?? 0, p).toBeLessThanOrEqual(1);
  });

  it('exits 130 on Ctrl-C with a consistent journal, and the rerun delivers each project with one job', async () => {
    const more = ids(41, 60);
    const path = join(dir, 'interrupted.ndjson');
    service.mutationDelayMs = 40;
    const run = startCli(args(...more.flatMap((p) => ['--project', p]), '--journal', path, '--concurrency', '2', '--wait', '--json'), env());
    await run.waitFor(/("event":"started"[^]*?){4}/);
    run.child.kill('SIGINT');
    const stopped = await run.exited;
    service.mutationDelayMs = 0;
    expect(stopped.code).toBe(130);
    expect(events(stopped.stdout).at(-1)).toMatchObject({ event: 'summary', exitCode: 130 });
    const records = readJournal(path);
    // Mutations on their way were finished and journaled: no project is left at intent.
    expect(more.map((p) => lastState(records, p)).filter((s) => s === 'intent')).toEqual([]);
    expect(more.map((p) => lastState(records, p)).filter((s) => s === 'started').length).toBeGreaterThan(0);

    const rerun = await runCli(args(...more.flatMap((p) => ['--project', p]), '--journal', path, '--wait'), env());
    expect(rerun.code).toBe(0);
    expect(jobsOf(more)).toEqual(more.map(() => 1));
    expect(rerun.stderr).toContain('20 projects: 20 delivered');
  });

  it('after Ctrl-C says once that the run was interrupted, and per project only what is known: started (its job) or not started', async () => {
    const more = ids(65, 84);
    service.mutationDelayMs = 40;
    const run = startCli(args(...more.flatMap((p) => ['--project', p]), '--concurrency', '2', '--wait'), env());
    await run.waitFor(/(started job[^]*?){4}/);
    run.child.kill('SIGINT');
    const stopped = await run.exited;
    service.mutationDelayMs = 0;
    expect(stopped.code).toBe(130);
    const rows = stopped.stdout.split('\n').filter((l) => l.startsWith('demo-project-'));
    expect(rows).toHaveLength(20);
    expect(stopped.stdout + stopped.stderr).not.toMatch(/\[Network\]|aborted/);
    const interrupted = rows.filter((r) => /\binterrupted\b/.test(r));
    expect(interrupted.length).toBeGreaterThan(0);
    for (const row of interrupted) expect(row).toMatch(/^demo-project-\d+\s+(job-\d+\s+interrupted\s+started; not waited for to the end|-\s+interrupted\s+not started)$/);
    const waiting = interrupted.filter((r) => r.includes('started; not waited')).length;
    const said = stopped.stderr.split('\n').filter((l) => l.includes('interrupted') && !l.startsWith('labelkit: 20 projects: '));
    expect(said).toEqual([
      `labelkit: the run was interrupted (Ctrl-C or SIGTERM): ${waiting} started job${waiting === 1 ? '' : 's'} not waited for to the end (they keep running on the service), ${interrupted.length - waiting} project${interrupted.length - waiting === 1 ? '' : 's'} not started`,
    ]);
  });

  it('lists every bad line of the projects file and sends nothing when it has problems', async () => {
    const file = join(dir, 'bad.txt');
    writeFileSync(file, 'demo-project-1\ntwo words\n# fine\ndemo-project-1\n');
    const requests = service.requests.length;
    const io = fakeIo(env());
    const code = await main(argv(...args('--projects', file, '--project', 'demo-project-2', '--concurrency', '0')), io);
    expect(code).toBe(2);
    expect(io.err()).toContain(`--projects ${file}:2: one project id per line`);
    expect(io.err()).toContain(`${file}:4: project demo-project-1 is listed twice (also ${file}:1)`);
    expect(io.err()).toContain('--concurrency: must be an integer from 1 to 1000');
    expect(service.requests.length).toBe(requests);
  });

  it('refuses --journal-name and --heartbeat with a file journal, and a database journal without --journal-name, never printing its password', async () => {
    const requests = service.requests.length;
    const withFile = fakeIo(env());
    expect(await main(argv(...args('--project', 'demo-project-1', '--journal', join(dir, 'x.ndjson'), '--journal-name', 'run-1', '--heartbeat', '1s')), withFile)).toBe(2);
    expect(withFile.err()).toContain('--journal-name: names a run in a database');
    expect(withFile.err()).toContain('--heartbeat: only with --journal postgres://');
    const password = 'SENTINEL-cli-db-pass-5b';
    const withUrl = fakeIo({ ...env(), PGPASSWORD: 'SENTINEL-pgpassword-env' });
    expect(await main(argv(...args('--project', 'demo-project-1', '--journal', `postgres://me:${password}@127.0.0.1:1/db`, '--heartbeat', '1ms')), withUrl)).toBe(2);
    expect(withUrl.err()).toContain('--journal-name: required with a database --journal');
    expect(withUrl.err()).toContain('--heartbeat: must be a duration from 50ms to 10m');
    expect(withUrl.err() + withUrl.out()).not.toContain(password);
    expect(service.requests.length).toBe(requests);
  });

  it('names the database without its password when it cannot be reached, and sends nothing', async () => {
    const requests = service.requests.length;
    const password = 'SENTINEL-cli-db-pass-6c';
    const io = fakeIo(env());
    const code = await main(argv(...args('--project', 'demo-project-1', '--journal', `postgresql://me:${password}@127.0.0.1:1/db`, '--journal-name', 'r1', '--journal-retry', '0', '--json')), io);
    expect(code).toBe(4); // network failure: the database cannot be reached
    expect(io.err()).toContain('postgresql://me:***@127.0.0.1:1/db');
    expect(io.err() + io.out()).not.toContain(password);
    expect(service.requests.length).toBe(requests);
  });

  it('takes any --concurrency up to 1000 with a database journal (its connections stay within the journal\'s limit)', async () => {
    const io = fakeIo(env());
    const code = await main(argv(...args('--project', 'demo-project-1', '--journal', 'postgresql://me@127.0.0.1:1/db', '--journal-name', 'r1', '--journal-retry', '0', '--concurrency', '200')), io);
    expect(io.err()).not.toContain('connections');
    expect(code).toBe(4); // it got as far as the database, which cannot be reached
  });

  it('never prints a database password given in the query string, nor that of a URL with a port out of range', async () => {
    const requests = service.requests.length;
    const password = 'SENTINEL-cli-db-pass-7d';
    const unreachable = fakeIo(env());
    expect(await main(argv(...args('--project', 'demo-project-1', '--journal', `postgres://me@127.0.0.1:1/db?sslmode=disable&password=${password}`, '--journal-retry', '0', '--journal-name', 'r1', '--json')), unreachable)).toBe(4);
    expect(unreachable.err()).toContain('postgres://me@127.0.0.1:1/db?sslmode=disable&password=***');
    const badPort = fakeIo(env());
    expect(await main(argv(...args('--project', 'demo-project-1', '--journal', `postgres://me:${password}@127.0.0.1:99999/db`, '--journal-name', 'r1')), badPort)).toBe(2);
    expect(badPort.err()).toContain('postgres://me:***@127.0.0.1:99999/db');
    for (const io of [unreachable, badPort]) expect(io.err() + io.out()).not.toContain(password);
    expect(service.requests.length).toBe(requests);
  });

  it('draws one bar for the run on a terminal and ends with the summary table', async () => {
    const io = fakeIo({ ...env(), TERM: 'xterm' }, { tty: true });
    const code = await main(argv(...args('--project', demoProjectId(61), '--project', demoProjectId(62), '--wait')), io);
    expect(code).toBe(0);
    expect(io.err()).toContain(`projects ${'█'.repeat(30)} 2/2 done | 2 started, 2 delivered, 0 failed, 0 other`);
    expect(io.out()).toMatch(new RegExp(`^${demoProjectId(61)}\\s+job-\\d+\\s+delivered\\s+DELIVERED 100%`, 'm'));
    expect(io.err()).toContain('labelkit: 2 projects: 2 delivered');
    expect(io.out() + io.err()).not.toContain(SECRET);
  });

  it('exits 6 when one project fails and another times out (the worst wins), and the rerun waits for the timed-out job', async () => {
    const [failing, hanging] = [demoProjectId(63), demoProjectId(64)];
    const stub = await startStubModel((req) => (req.id === hanging ? { kind: 'hang', ms: 4_000 } : { kind: 'status', status: 500 }));
    try {
      const path = join(dir, 'worst.ndjson');
      const flags = ['auto-label', '--labeler-email', 'many@example.com', '--endpoint', stub.url, '--files-per-request', '0', '--interval', '30ms', '--project', failing, '--project', hanging, '--journal', path];
      const io = fakeIo(env());
      expect(await main(argv(...flags, '--wait', '--timeout', '1s'), io)).toBe(6);
      expect(io.out()).toMatch(new RegExp(`^${failing}\\s+job-\\d+\\s+failed\\s+1 error\\(s\\): document "doc-\\d" .*HTTP 500`, 'm'));
      expect(io.out()).toMatch(new RegExp(`^${hanging}\\s+job-\\d+\\s+timed-out\\s+IN_PROGRESS 0%`, 'm'));
      expect(io.err()).toContain('hint: --retry-failed starts failed, not-found and not-started projects again');

      const dry = fakeIo(env());
      expect(await main(argv(...flags, '--dry-run', '--json'), dry)).toBe(0);
      const plan = events(dry.out()).filter((e) => e.event === 'plan');
      expect(plan.map((e) => [e.projectId, e.action, e.journalState])).toEqual([[failing, 'skip', 'failed'], [hanging, 'wait', 'timed-out']]);
      const retry = fakeIo(env());
      expect(await main(argv(...flags, '--dry-run', '--json', '--retry-failed'), retry)).toBe(0);
      expect(events(retry.out()).filter((e) => e.event === 'plan').map((e) => e.action)).toEqual(['start', 'wait']);
      expect(jobsOf([failing, hanging])).toEqual([1, 1]);
    } finally {
      await stub.close();
    }
  });

  it("redacts the model's secret from every plan line of --dry-run --json, where the journal quotes it", async () => {
    // A journal whose job ids and errors quote the secret (a service that echoes it): printed as ***, never as it is.
    const path = join(dir, 'echoed.ndjson');
    const at = new Date().toISOString();
    const config = { endpoint: model.url, numberOfFilesPerRequest: 2, labelerEmail: 'many@example.com', role: null };
    const [started, unknown] = [demoProjectId(91), demoProjectId(92)];
    const records: JournalRecord[] = [
      { type: 'run', at, url: service.url },
      { type: 'intent', at, projectId: started, attempt: 1, config },
      { type: 'started', at, projectId: started, jobId: `job-${SECRET}` },
      { type: 'intent', at, projectId: unknown, attempt: 1, config },
      { type: 'unknown', at, projectId: unknown, error: `refused ${SECRET}` },
    ];
    writeFileSync(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const io = fakeIo(env());
    expect(await main(argv(...args('--project', started, '--project', unknown, '--project', demoProjectId(93), '--journal', path, '--dry-run', '--json')), io)).toBe(0);
    expect(io.out() + io.err()).not.toContain(SECRET);
    const plan = events(io.out()).filter((e) => e.event === 'plan');
    expect(plan.map((e) => [e.projectId, e.action, e.jobId])).toEqual([[started, 'wait', 'job-***'], [unknown, 'skip', undefined], [demoProjectId(93), 'start', undefined]]);
    expect(plan[0]!.reason).toBe('job job-*** started in an earlier run: waited for, not started again');
  });

  it('after Ctrl-C still rejects with an unexpected error (a bug), not a run told as interrupted (exit 130)', async () => {
    const io = fakeIo(env());
    const stop = new AbortController();
    const context = { io, printer: createPrinter(io), flags: {}, signal: stop.signal };
    const flags = { labelerEmail: 'many@example.com', endpoint: model.url, filesPerRequest: '2', interval: '30ms', project: [demoProjectId(85), demoProjectId(86)] };
    const run = runManyFromFlags(flags, context, (event) => {
      if (event.event !== 'worklist') return;
      stop.abort();
      throw new TypeError('a bug in the progress display');
    });
    await expect(run).rejects.toThrow(TypeError);
    expect(jobsOf([demoProjectId(85), demoProjectId(86)])).toEqual([0, 0]);
  });
});
