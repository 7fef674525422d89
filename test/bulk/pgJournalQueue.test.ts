import { afterAll, describe, expect, it } from 'vitest';
import { autoLabelMany, openPostgresJournal } from '../../src/bulk/index.js';
import type { AutoLabelManyResult, Journal, JournalProjectConfig, JournalRecord } from '../../src/bulk/index.js';
import type { AutoLabelInput } from '../../src/client/index.js';
import { jobServiceClient } from '../support/jobServiceFetch.js';
import { startTestPostgres, queryPostgres } from '../support/postgres.js';

// The PostgreSQL journal's queue (issue 39): a run's projects are loaded once and taken in
// batches with FOR UPDATE SKIP LOCKED, so that workers never walk each other's projects; appends
// are written together and read again from where the last read ended.
const pg = await startTestPostgres();
afterAll(() => pg.close());

const config: JournalProjectConfig = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 2, labelerEmail: 'a@example.com', role: null };
const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const ids = (n: number, prefix = 'q') => Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);
const input = (projectId: string): AutoLabelInput => ({ projectId, labelerEmail: config.labelerEmail, options: { numberOfFilesPerRequest: 2 }, targetAPI: { endpoint: config.endpoint, secretKey: 'SENTINEL-queue' } });
const query = <R extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<R[]> => queryPostgres<R>(pg.url!, sql, values);
/** Transactions committed in the test database so far, by every session (each statement of a journal is one). */
const commits = async () => Number((await query<{ n: string }>(`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`))[0]!.n);

describe.skipIf(pg.skip !== undefined)(`the PostgreSQL journal's queue${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it("gives each project to one worker, a batch per take; a closed worker's untaken claims go to another; a claim leaves the queue", async () => {
    const name = unique('queue');
    const [a, b] = [openPostgresJournal({ url: pg.url!, name }), openPostgresJournal({ url: pg.url!, name })];
    await Promise.all([a.open(), b.open()]);
    const projects = ids(30).map((projectId) => ({ projectId, attempt: 1 }));
    // Both load the same projects (in another order): one list, loaded once.
    const [listA, listB] = await Promise.all([a.queue!.load(ids(30), projects), b.queue!.load([...ids(30)].reverse(), projects)]);
    expect(listA).toBe(listB);
    expect(await query(`SELECT count(*)::int AS n FROM labelkit_journal.queue WHERE run = $1`, [name])).toEqual([{ n: 30 }]);
    // Taken at the same moment: disjoint batches, in the list's order.
    const [takenA, takenB] = await Promise.all([a.queue!.take(listA, 8), b.queue!.take(listB, 8)]);
    expect(takenA).toHaveLength(8);
    expect(takenB).toHaveLength(8);
    const first = [...takenA, ...takenB].map((p) => p.projectId);
    expect(new Set(first).size).toBe(16);
    expect([...first].sort()).toEqual(ids(16));
    // A claims two of its batch: they leave the queue.
    for (const p of takenA.slice(0, 2)) expect(await a.claim({ type: 'intent', at: new Date().toISOString(), ...p, config })).toEqual({ won: true });
    expect(await query(`SELECT count(*)::int AS n FROM labelkit_journal.queue WHERE run = $1`, [name])).toEqual([{ n: 28 }]);
    // A closes (a dead worker) with six taken and unclaimed: B takes those and the rest, never A's claimed two.
    await a.close();
    const rest: string[] = [];
    for (let got = await b.queue!.take(listB, 8); got.length > 0; got = await b.queue!.take(listB, 8)) for (const p of got) rest.push(p.projectId);
    expect(rest.sort()).toEqual(takenA.slice(2).map((p) => p.projectId).concat(ids(30).slice(16)).sort());
    // A project claimed already is not queued again by a worker that loads it late.
    await b.queue!.load(ids(30), projects);
    expect(await query(`SELECT count(*)::int AS n FROM labelkit_journal.queue WHERE run = $1 AND worker IS NULL`, [name])).toEqual([{ n: 0 }]);
    await b.close();
  });

  it('a worker joining a loaded queue loads only its retries (a whole queue is trusted, a half-loaded one is completed), and each project is taken once', async () => {
    const name = unique('join');
    const all = ids(12, 'j');
    const first = openPostgresJournal({ url: pg.url!, name });
    await first.open();
    const list = await first.queue!.load(all, all.map((projectId) => ({ projectId, attempt: 1 })));
    // The first worker claims three and fails one of them (a retry's attempt 2 is a joiner's to queue).
    for (const projectId of all.slice(0, 3)) expect(await first.claim({ type: 'intent', at: new Date().toISOString(), projectId, attempt: 1, config })).toEqual({ won: true });
    await first.append({ type: 'outcome', at: new Date().toISOString(), projectId: all[0]!, outcome: 'failed', errors: ['no'] });
    // A row of the loaded queue gone (as if taken and claimed elsewhere): a joiner trusts the loaded
    // list and does not queue it again at attempt 1; it queues its retry of the failed project.
    await query(`DELETE FROM labelkit_journal.queue WHERE run = $1 AND project_id = $2`, [name, all[11]]);
    const joiner = openPostgresJournal({ url: pg.url!, name });
    await joiner.open();
    const joined = all.slice(3).map((projectId) => ({ projectId, attempt: 1 })).concat([{ projectId: all[0]!, attempt: 2 }]);
    expect(await joiner.queue!.load([...all].reverse(), joined)).toBe(list);
    const queued = async () => (await query<{ project_id: string; attempt: number }>(`SELECT project_id, attempt FROM labelkit_journal.queue WHERE run = $1 ORDER BY project_id, attempt`, [name])).map((r) => `${r.project_id}#${r.attempt}`);
    expect(await queued()).toEqual([`${all[0]}#2`, ...all.slice(3, 11).map((p) => `${p}#1`)]);
    // Both take until empty: every queued project once.
    const taken: string[] = [];
    for (let busy = true; busy; ) {
      const got = [...(await first.queue!.take(list, 3)), ...(await joiner.queue!.take(list, 3))];
      busy = got.length > 0;
      for (const p of got) taken.push(`${p.projectId}#${p.attempt}`);
    }
    expect(taken.sort()).toEqual([`${all[0]}#2`, ...all.slice(3, 11).map((p) => `${p}#1`)].sort());
    await Promise.all([first.close(), joiner.close()]);

    // A first worker that died while loading (no mark: only its first part is there): a joiner loads the rest.
    const other = unique('join-half');
    const half = openPostgresJournal({ url: pg.url!, name: other });
    await half.open();
    const halfList = await half.queue!.load(all, all.slice(0, 4).map((projectId) => ({ projectId, attempt: 1 })));
    await query(`DELETE FROM labelkit_journal.meta WHERE key LIKE $1`, [`queue loaded ${other} %`]);
    expect(await half.queue!.load(all, all.map((projectId) => ({ projectId, attempt: 1 })))).toBe(halfList);
    expect(await query(`SELECT count(*)::int AS n FROM labelkit_journal.queue WHERE run = $1`, [other])).toEqual([{ n: 12 }]);
    await half.close();
  });

  it('runs 240 projects on 3 workers with one start each, at most 1.5 database round trips per project, no lost claim and no project walked by two', async () => {
    const name = unique('queue-run');
    const projects = ids(240, 'run');
    const service = jobServiceClient();
    const claims: Record<string, number>[] = [];
    const worker = (i: number): Journal => {
      // Beats (and the reads of a waiting worker) come with the clock, not with the projects: a
      // loaded machine runs longer and beats more. A minute apart, the count is the work's own.
      const journal = openPostgresJournal({ url: pg.url!, name, heartbeatMs: 60_000 });
      claims[i] = { won: 0, lost: 0 };
      return { ...journal, claim: async (intent, claimOptions) => {
        const result = await journal.claim(intent, claimOptions);
        claims[i]![result.won ? 'won' : 'lost']!++;
        return result;
      } };
    };
    const before = await commits();
    const results: AutoLabelManyResult[] = await Promise.all(
      [0, 1, 2].map((i) =>
        autoLabelMany(service.client, projects.map(input), {
          journal: worker(i),
          concurrency: 4,
          // Each job ends at its first read.
          onEvent: (e) => e.event === 'started' && service.finish(e.jobId),
        }),
      ),
    );
    service.client.close();
    // Every project started once, delivered, and no claim lost: nobody tried another's project.
    expect(service.sent.length).toBe(240);
    expect(new Set(service.sent).size).toBe(240);
    expect(claims.map((c) => c.lost)).toEqual([0, 0, 0]);
    expect(claims.reduce((n, c) => n + c.won!, 0)).toBe(240);
    for (const r of results) {
      expect(r.outcomes).toHaveLength(240);
      const own = r.outcomes.filter((o) => o.outcome === 'delivered').length;
      const elsewhere = r.outcomes.filter((o) => o.outcome === 'claimed-elsewhere');
      expect(own + elsewhere.length).toBe(240);
      // Each project another worker took is told with that worker.
      for (const o of elsewhere) expect(o.worker).toMatch(/:\d+:[0-9a-f]{6}$/);
    }
    // The server's own count of committed statements (each is a round trip), every session of the test database.
    let after = await commits();
    for (let i = 0; i < 20 && after === before; i++) after = await new Promise((r) => setTimeout(r, 100)).then(commits);
    const perProject = (after - before) / 240;
    console.log(`queue run: 240 projects, 3 workers, ${after - before} commits (${perProject.toFixed(2)} per project)`);
    expect(perProject).toBeLessThanOrEqual(1.5);
    const rows = await query<{ type: string; n: number }>(`SELECT type, count(*)::int AS n FROM labelkit_journal.records WHERE run = $1 GROUP BY type ORDER BY type`, [name]);
    expect(rows).toEqual([{ type: 'intent', n: 240 }, { type: 'outcome', n: 240 }, { type: 'run', n: 3 }, { type: 'started', n: 240 }]);
  });

  it('tells a project another worker took from the queue and has not claimed yet with that worker, in one read of the queue', async () => {
    const name = unique('queue-taker');
    const projects = ids(6, 'taker');
    const holder = openPostgresJournal({ url: pg.url!, name });
    const held = await holder.open();
    const list = await holder.queue!.load(projects, projects.map((projectId) => ({ projectId, attempt: 1 })));
    // The holder takes two and stops before it writes their intents (as between its take and its claims).
    const taken = await holder.queue!.take(list, 2);
    expect(taken.map((p) => p.projectId)).toEqual(projects.slice(0, 2));
    // Its own takes are not another's: a stopped worker tells those it took and never started as interrupted.
    expect(await holder.queue!.takers(taken)).toEqual(new Map());
    const service = jobServiceClient();
    const result = await autoLabelMany(service.client, projects.map(input), {
      journal: openPostgresJournal({ url: pg.url!, name }),
      concurrency: 2,
      onEvent: (e) => e.event === 'started' && service.finish(e.jobId),
    });
    service.client.close();
    expect(service.sent.sort()).toEqual(projects.slice(2));
    expect(result.outcomes.slice(0, 2).map((o) => [o.outcome, o.worker])).toEqual([
      ['claimed-elsewhere', held.shared!.worker],
      ['claimed-elsewhere', held.shared!.worker],
    ]);
    expect(result.outcomes.slice(2).map((o) => o.outcome)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    await holder.close();
  });

  it('reads again only the records written since its last read', async () => {
    const name = unique('delta');
    const [reader, writer] = [openPostgresJournal({ url: pg.url!, name }), openPostgresJournal({ url: pg.url!, name })];
    await writer.open();
    await writer.claim({ type: 'intent', at: new Date().toISOString(), projectId: 'p1', attempt: 1, config });
    expect((await reader.open()).records.map((r) => r.type)).toEqual(['intent']);
    await writer.append({ type: 'started', at: new Date().toISOString(), projectId: 'p1', jobId: 'job-1' });
    const again = await reader.refresh!();
    expect(again.delta).toBe(true);
    expect(again.records.map((r) => [r.type, r.worker])).toEqual([['started', (await writer.refresh!()).shared!.worker]]);
    expect((await reader.refresh!()).records).toEqual([]);
    await Promise.all([reader.close(), writer.close()]);
  });
  it("a claim waits for the statement in flight that carries a record it follows, and for no other", async () => {
    const name = unique('follows');
    const journal = openPostgresJournal({ url: pg.url!, name });
    await journal.open();
    const { default: driver } = await import('pg');
    // Another session locks the run's row: each statement that writes records has written them and
    // waits (its foreign key's check, at its end) until that session ends. Which session each
    // waits for is the database's own answer (pg_blocking_pids).
    const other = new driver.Client({ connectionString: pg.url! });
    await other.connect();
    await other.query('BEGIN');
    await other.query(`SELECT 1 FROM labelkit_journal.runs WHERE name = $1 FOR UPDATE`, [name]);
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    /** The journal's statement that waits and is not one of `known`, once there is one, with the sessions it waits for. */
    const nextWaiting = async (known: number[]): Promise<{ pid: number; blockedBy: number[] }> => {
      for (;;) {
        const rows = await query<{ pid: number; blocked_by: number[] }>(
          `SELECT pid, pg_blocking_pids(pid) AS blocked_by FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'labelkit journal' AND wait_event_type = 'Lock' AND NOT pid = ANY($1::int[])`,
          [known],
        );
        if (rows[0]) return { pid: rows[0].pid, blockedBy: rows[0].blocked_by };
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const started = (projectId: string) => ({ type: 'started' as const, at: new Date().toISOString(), projectId, jobId: `job-${projectId}` });
    const intent = (projectId: string) => ({ type: 'intent' as const, at: new Date().toISOString(), projectId, attempt: 1, config });
    try {
      // Slot 1 appends its record and claims a: the claim carries the record and waits, uncommitted.
      const r1 = started('p1');
      const appended = [journal.append(r1)];
      const claims = [journal.claim(intent('a'), { after: [] })];
      const a = await nextWaiting([]);
      expect(a.blockedBy).toEqual([otherPid]);
      // Slot 2 appends its own record and claims b, following only that record: it waits for the other session alone, not for a's claim.
      const r2 = started('p2');
      appended.push(journal.append(r2));
      claims.push(journal.claim(intent('b'), { after: [r2] }));
      const b = await nextWaiting([a.pid]);
      expect(b.blockedBy).toEqual([otherPid]);
      // Slot 1 claims c, following its record that a's claim carries: it waits for a's claim to commit.
      claims.push(journal.claim(intent('c'), { after: [r1] }));
      const c = await nextWaiting([a.pid, b.pid]);
      expect(c.blockedBy).toContain(a.pid);
      await other.query('ROLLBACK');
      expect(await Promise.all(claims)).toEqual([{ won: true }, { won: true }, { won: true }]);
      await Promise.all(appended);
      const rows = await query<{ type: string; project_id: string }>(`SELECT type, project_id FROM labelkit_journal.records WHERE run = $1 ORDER BY project_id, type`, [name]);
      expect(rows.map((r) => `${r.type} ${r.project_id}`)).toEqual(['intent a', 'intent b', 'intent c', 'started p1', 'started p2']);
    } finally {
      await other.end();
      await journal.close();
    }
  });
  it("each start slot's claim follows its own last `started` record alone, and the next batch is taken while the slots still have projects", async () => {
    const name = unique('slots');
    const projects = ids(40, 'slot');
    const service = jobServiceClient();
    const journal = openPostgresJournal({ url: pg.url!, name, heartbeatMs: 60_000 });
    const claimed: { projectId: string; after: readonly JournalRecord[] | undefined }[] = [];
    const startedRecords = new Set<JournalRecord>();
    const claimsAtTake: number[] = [];
    const watched: Journal = {
      ...journal,
      append: (record) => {
        if (record.type === 'started') startedRecords.add(record);
        return journal.append(record);
      },
      claim: (intent, claimOptions) => {
        claimed.push({ projectId: intent.projectId, after: claimOptions?.after });
        return journal.claim(intent, claimOptions);
      },
      queue: { ...journal.queue!, take: (list, max) => (claimsAtTake.push(claimed.length), journal.queue!.take(list, max)) },
    };
    const result = await autoLabelMany(service.client, projects.map(input), { journal: watched, concurrency: 4, onEvent: (e) => e.event === 'started' && service.finish(e.jobId) });
    service.client.close();
    expect(result.outcomes.map((o) => o.outcome)).toEqual(projects.map(() => 'delivered'));
    // Every claim names what it follows: nothing (a slot's first) or one `started` record of a
    // project claimed before it, each followed once: 40 starts over 4 slots, 36 followed.
    const follows = claimed.map((c) => c.after);
    expect(follows.every((a) => a !== undefined && a.length <= 1)).toBe(true);
    expect(follows.filter((a) => a!.length === 0)).toHaveLength(4);
    const followed = follows.flatMap((a) => a!);
    expect(new Set(followed).size).toBe(36);
    for (const [i, c] of claimed.entries()) {
      for (const r of c.after!) {
        expect(startedRecords.has(r)).toBe(true);
        expect(claimed.slice(0, i).map((x) => x.projectId)).toContain(r.type === 'started' ? r.projectId : r.type);
      }
    }
    // Batches of 16 (4 × concurrency): the second is asked for before the first's sixteenth claim.
    expect(claimsAtTake[0]).toBe(0);
    expect(claimsAtTake[1]).toBeLessThan(16);
  });
});
