import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { jsonEvents as events, useManyRun } from '../support/manyRun.js';
import { runCli, startCli } from '../support/spawnCli.js';
import type { CliProcess, CliRun } from '../support/spawnCli.js';
import { stubPredict } from '../support/stubModel.js';
import type { SeenRequest } from '../support/stubModel.js';
import { queryPostgres } from '../support/postgres.js';
import { within } from '../support/testEnvironment.js';
import { useTempDirs } from '../support/tempDirs.js';

// The PostgreSQL journal when its database goes away: the built `labelkit` in 4 processes while
// the cluster is restarted (`pg_ctl restart -m immediate`: a crash and recovery) and their
// connections are cut (`pg_terminate_backend`); then a database gone for longer than
// --journal-retry; then the login, database and rights problems a new user meets.
const SECRET = 'SENTINEL-outage-model-secret-5e';
const DB_PASSWORD = 'SENTINEL-outage-db-pass-8c';
const PROJECTS = 24;

// The model answers when its gate opens (open unless a test holds it): the jobs of the restart
// case are still running when the database goes away, and end while it restarts.
let gate: Promise<void> = Promise.resolve();
let openGate = () => undefined as void;
const holdGate = () => (gate = new Promise<void>((resolve) => (openGate = resolve)));
async function startGatedModel() {
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SeenRequest;
    await gate;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stubPredict(body)));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/predict`,
    close: () =>
      new Promise<void>((resolve) => {
        openGate();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
const many = await useManyRun({
  secret: SECRET,
  service: { demoProject: false, demoProjects: PROJECTS + 20, model: { concurrency: 64, retries: 0, timeoutMs: 60_000 } },
  model: startGatedModel,
});
const { pg, env } = many;
const dir = useTempDirs()('labelkit-outage-');
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => demoProjectId(from + k));
const sql = (text: string, url = pg.url!) => queryPostgres(url, text);
const STACK = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

describe.skipIf(pg.skip !== undefined || pg.cluster === undefined)(`a PostgreSQL journal whose database goes away${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('rides out a restart while 4 workers start and while they wait, and cut connections: every worker exits 0, one job per project, none unknown', async () => {
    const url = pg.url!.replace('postgres@', `postgres:${DB_PASSWORD}@`);
    const projects = ids(1, PROJECTS);
    const projectsFile = join(dir, 'restart.txt');
    writeFileSync(projectsFile, projects.join('\n') + '\n');
    const args = [
      'auto-label', '--projects', projectsFile, '--journal', url, '--journal-name', 'restart', '--heartbeat', '1s',
      '--labeler-email', 'outage@example.com', '--endpoint', many.model.url, '--files-per-request', '0',
      '--concurrency', '2', '--wait', '--interval', '50ms', '--json',
    ];
    // Beats of 1 s (dead after 3 s): at 200 ms a worker starved of CPU for 600 ms (load 5-20 in a
    // full suite on 2 cores) was taken for dead by another, which then reported its claims as of
    // unknown outcome (exit 5); the restarts and cuts below are the same.
    // A start takes 60 ms at the service: the first restart lands among the starts.
    many.service.mutationDelayMs = 60;
    holdGate();
    const workers: CliProcess[] = Array.from({ length: 4 }, () => startCli(args, env()));
    const started = () => workers.reduce((n, w) => n + (w.stdout().match(/"event":"started"/g)?.length ?? 0), 0);
    await Promise.any(workers.map((w) => w.waitFor(/"event":"started"/, within(20_000))));
    const duringStarts = started();
    let clock = Date.now();
    await pg.cluster!.restart();
    const firstRestartMs = Date.now() - clock;
    // Every project started (the outage only delayed the rest), and the jobs still run: restart again.
    for (let i = 0; i < 400 && started() < PROJECTS; i++) await new Promise((r) => setTimeout(r, 50));
    many.service.mutationDelayMs = 0;
    const jobsAtSecond = many.service.emulator.store.jobs.size;
    const runningAtSecond = [...many.service.emulator.store.jobs.values()].filter((j) => j.status === 'QUEUED' || j.status === 'IN_PROGRESS').length;
    expect(runningAtSecond).toBeGreaterThan(0); // the workers are waiting for them
    // Cut the workers' connections (each holds some: its heartbeat, its reads), then restart again.
    const cut = await sql(`SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'labelkit journal') t`);
    clock = Date.now();
    const restarting = pg.cluster!.restart();
    openGate(); // the jobs end, and their outcomes are written, while the database restarts
    await restarting;
    const secondRestartMs = Date.now() - clock;
    const runs: CliRun[] = await Promise.all(workers.map((w) => w.exited));

    const outputs = runs.map((r) => r.stdout + r.stderr).join('\n');
    const lostLines = runs.map((r) => events(r.stdout).filter((e) => e.event === 'warning' && /trying again/.test(String(e.message))).length);
    const jobs = projects.map((p) => many.service.jobsStarted.get(p) ?? 0);
    console.log(
      `journal outage: ${PROJECTS} projects, 4 workers, ${duringStarts} started at the first restart (${firstRestartMs} ms), ` +
        `${jobsAtSecond} jobs (${runningAtSecond} running) at the second (${secondRestartMs} ms), ` +
        `${String(cut[0]?.n)} connections cut; exits ${runs.map((r) => r.code).join(',')}; "lost" lines per worker ${lostLines.join(',')}; jobs per project ${Math.min(...jobs)}..${Math.max(...jobs)}`,
    );
    // A worker that did not exit 0 says why in its outcome lines (--json: stderr stays empty).
    const why = (run: CliRun) => run.stderr + events(run.stdout).filter((e) => e.event === 'outcome' && e.outcome !== 'delivered' && e.outcome !== 'claimed-elsewhere').map((e) => JSON.stringify(e)).join('\n');
    for (const run of runs) expect(run.code, why(run)).toBe(0);
    expect(Number(cut[0]?.n)).toBeGreaterThan(0);
    expect(jobs).toEqual(projects.map(() => 1));
    expect(outputs).not.toMatch(STACK);
    expect(outputs).not.toContain(DB_PASSWORD);
    expect(lostLines.some((n) => n > 0)).toBe(true); // the outage happened, and was told

    // The journal, read by any worker: every project delivered, none at intent or unknown.
    const report = await runCli([...args.filter((a) => a !== '--wait'), '--dry-run'], env());
    const states = events(report.stdout)
      .filter((e) => e.event === 'plan')
      .map((e) => e.journalState);
    expect(states).toEqual(projects.map(() => 'delivered'));
  }, within(60_000));

  it('ends the run with the summary of what was done, one labelkit line and exit 4 when the database stays away longer than --journal-retry', async () => {
    const projects = ids(PROJECTS + 1, PROJECTS + 4);
    const args = [
      'auto-label', ...projects.flatMap((p) => ['--project', p]), '--journal', pg.url!.replace('postgres@', `postgres:${DB_PASSWORD}@`), '--journal-name', 'gone',
      '--journal-retry', '300ms', '--labeler-email', 'outage@example.com', '--endpoint', many.model.url, '--files-per-request', '0', '--wait', '--interval', '50ms',
      '--outbox', join(dir, 'outbox-gone.ndjson'),
    ];
    holdGate();
    const worker = startCli(args, env());
    await worker.waitFor(new RegExp(`(started job[^]*){${projects.length}}`), within(20_000));
    await pg.cluster!.stop();
    openGate(); // the jobs end while the database is away: their outcomes cannot be written
    let run: CliRun;
    try {
      run = await worker.exited;
    } finally {
      await pg.cluster!.start();
    }
    expect(run.code, run.stderr).toBe(4);
    // The table: every project, with its job (its end where the wait ended, else started and not waited for to the end).
    for (const p of projects) expect(run.stdout).toMatch(new RegExp(`^${p}\\s+job-\\d+\\s+\\S+`, 'm'));
    const errorLines = run.stderr.split('\n').filter((l) => l.startsWith('labelkit: ') && !l.startsWith('labelkit: warning') && !/^labelkit: \d+ projects?:/.test(l) && !/^labelkit: the journal failed:/.test(l));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(/^labelkit: \[Network\] the PostgreSQL journal postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres \(run gone\): .*\(tried again for [\d.]+s\) \(hint: .*--journal.*--journal-retry/);
    expect(run.stderr).toMatch(/labelkit: 4 projects: /);
    expect(run.stderr).not.toContain('LABELKIT_URL');
    expect(run.stdout + run.stderr).not.toMatch(STACK);
    expect(run.stdout + run.stderr).not.toContain(DB_PASSWORD);
    expect(projects.map((p) => many.service.jobsStarted.get(p) ?? 0)).toEqual(projects.map(() => 1));
  }, within(30_000));

  it('keeps the starts the journal could not take during an outage past --journal-retry in an outbox, and the rerun records them: 0 unknown, 0 twice', async () => {
    const projects = ids(PROJECTS + 11, PROJECTS + 14);
    const outbox = join(dir, 'outbox-kept.ndjson');
    const args = [
      'auto-label', ...projects.flatMap((p) => ['--project', p]), '--journal', pg.url!, '--journal-name', 'kept', '--journal-retry', '300ms', '--heartbeat', '200ms',
      '--labeler-email', 'outage@example.com', '--endpoint', many.model.url, '--files-per-request', '0', '--wait', '--interval', '50ms', '--outbox', outbox,
    ];
    openGate();
    // Every mutation is held at the service while the database goes away: each intent is committed, each start answers after.
    many.service.mutationDelayMs = 1_500;
    let first: CliRun;
    try {
      const worker = startCli(args, env());
      const intents = async () => Number((await sql(`SELECT count(*) AS n FROM labelkit_journal.records WHERE run = 'kept' AND type = 'intent'`).catch(() => [{ n: 0 }]))[0]!.n);
      for (let i = 0; i < 400 && (await intents()) < projects.length; i++) await new Promise((r) => setTimeout(r, 25));
      await pg.cluster!.stop();
      try {
        first = await worker.exited;
      } finally {
        await pg.cluster!.start();
      }
    } finally {
      many.service.mutationDelayMs = 0;
    }
    expect(first.code, first.stderr).toBe(4);
    expect(first.stderr).toContain(`labelkit: 4 started jobs the journal could not take are kept in the outbox ${outbox} (on disk)`);
    expect(first.stdout).not.toContain('outcome-unknown');
    expect(readFileSync(outbox, 'utf8').trim().split('\n')).toHaveLength(5); // its journal, then one line per start

    const rerun = await runCli(args, env());
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`recorded in the journal 4 started jobs of the outbox ${outbox}; their projects are waited for`);
    expect(rerun.stdout).not.toContain('outcome-unknown');
    for (const p of projects) expect(rerun.stdout).toMatch(new RegExp(`^${p}\\s+job-\\d+\\s+delivered`, 'm'));
    expect(projects.map((p) => many.service.jobsStarted.get(p) ?? 0)).toEqual(projects.map(() => 1));
    expect(existsSync(outbox)).toBe(false);
  }, within(60_000));

  it('exits 3 on a wrong password (one line, no password), 2 naming what to create for a missing database or missing rights', async () => {
    const port = new URL(pg.url!).port;
    const rightPassword = 'SENTINEL-right-pass-2b';
    const wrongPassword = 'SENTINEL-wrong-pass-6f';
    await sql(`CREATE ROLE lk_pw LOGIN PASSWORD '${rightPassword}'`);
    await sql(`CREATE ROLE lk_norights LOGIN`);
    await pg.cluster!.hbaFirst('host all lk_pw 127.0.0.1/32 scram-sha-256');
    // The reload is the server's to do: wait until it refuses the wrong password.
    const refused = async () => sql('SELECT 1', `postgres://lk_pw:${wrongPassword}@127.0.0.1:${port}/postgres`).then(() => false, () => true);
    for (let i = 0; i < 100 && !(await refused()); i++) await new Promise((r) => setTimeout(r, 20));

    const run = async (journal: string) => {
      const io = fakeIo(env());
      const requests = many.service.requests.length;
      const code = await main(argv('auto-label', '--project', demoProjectId(PROJECTS + 5), '--journal', journal, '--journal-name', 'setup', '--journal-retry', '0', '--labeler-email', 'outage@example.com', '--endpoint', many.model.url, '--files-per-request', '0'), io);
      expect(many.service.requests.length).toBe(requests); // nothing sent
      return { code, err: io.err(), lines: io.err().trim().split('\n'), all: io.err() + io.out() };
    };
    const password = await run(`postgres://lk_pw:${wrongPassword}@127.0.0.1:${port}/postgres`);
    expect(password.code, password.err).toBe(3);
    expect(password.lines).toHaveLength(1);
    expect(password.lines[0]).toMatch(/^labelkit: \[Auth\] the PostgreSQL journal postgres:\/\/lk_pw:\*\*\*@127\.0\.0\.1:\d+\/postgres \(run setup\): password authentication failed for user "lk_pw" \(hint: check the user and password of the database in --journal/);
    expect(password.all).not.toContain(wrongPassword);
    expect(password.all).not.toContain('LABELKIT_URL');

    const noDatabase = await run(`postgres://postgres@127.0.0.1:${port}/no_such_db`);
    expect(noDatabase.code, noDatabase.err).toBe(2);
    expect(noDatabase.lines[0]).toMatch(/^labelkit: --journal: the PostgreSQL journal postgres:\/\/postgres@127\.0\.0\.1:\d+\/no_such_db \(run setup\): database "no_such_db" does not exist: create the database/);

    const noRights = await run(`postgres://lk_norights@127.0.0.1:${port}/postgres`);
    expect(noRights.code, noRights.err).toBe(2);
    expect(noRights.lines[0]).toMatch(/^labelkit: --journal: the PostgreSQL journal .*permission denied .*: the user lk_norights may not create or write the journal's tables: .*CREATE SCHEMA labelkit_journal AUTHORIZATION lk_norights/);
    for (const r of [password, noDatabase, noRights]) expect(r.all).not.toMatch(STACK);
  });

  it('says, in the dry run, how many of its projects another run of the same database already started, and refuses a run of a new name over them without --force', async () => {
    const url = pg.url!;
    const base = ['auto-label', '--journal', url, '--labeler-email', 'outage@example.com', '--endpoint', many.model.url, '--files-per-request', '0'];
    const first = ids(PROJECTS + 6, PROJECTS + 8);
    const all = ids(PROJECTS + 6, PROJECTS + 10);
    const a = fakeIo(env());
    expect(await main(argv(...base, '--journal-name', 'first-run', ...first.flatMap((p) => ['--project', p])), a), a.err()).toBe(0);
    expect(a.err()).not.toContain('already started');
    const warning = 'labelkit: warning: 3 of these 5 projects were already started by another run of this journal database, --journal-name first-run: this run starts a second job for each';
    const dry = fakeIo(env());
    expect(await main(argv(...base, '--journal-name', 'second-run', '--dry-run', ...all.flatMap((p) => ['--project', p])), dry)).toBe(0);
    expect(dry.err()).toContain(warning);
    // A new (or mistyped) --journal-name is refused, as another --files-per-request is: exit 2, naming the other run and --force, sending nothing.
    const jobsBefore = all.map((p) => many.service.jobsStarted.get(p) ?? 0);
    const refused = fakeIo(env());
    expect(await main(argv(...base, '--journal-name', 'second-run', ...all.flatMap((p) => ['--project', p])), refused)).toBe(2);
    expect(refused.err()).toContain('--journal-name: other runs of this journal database already started some of these projects: first-run (3 of 5 projects)');
    expect(refused.err()).toContain('--force to start a second job anyway');
    expect(all.map((p) => many.service.jobsStarted.get(p) ?? 0)).toEqual(jobsBefore);
    const second = fakeIo(env());
    expect(await main(argv(...base, '--journal-name', 'second-run', '--force', ...all.flatMap((p) => ['--project', p])), second)).toBe(0);
    expect(second.err().indexOf(warning)).toBeGreaterThanOrEqual(0);
    expect(second.err().indexOf(warning)).toBeLessThan(second.err().indexOf('started job'));
    // A second worker joining the run begun with --force joins it (its projects are claimed by it now).
    const joining = fakeIo(env());
    expect(await main(argv(...base, '--journal-name', 'second-run', ...all.flatMap((p) => ['--project', p])), joining), joining.err()).toBe(0);
  });
});
