import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/client/index.js';
import { openPostgresJournal, POSTGRES_JOURNAL_VERSION } from '../../src/bulk/index.js';
import type { JournalProjectConfig } from '../../src/bulk/index.js';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { startTestPostgres, queryPostgres } from '../support/postgres.js';
import { useTempDirs } from '../support/tempDirs.js';

// The upkeep of a PostgreSQL journal (issue 39): its tables' version (an older one brought up to
// date, a newer one refused), `labelkit journal prune` and `labelkit journal record OUTBOX`.
const pg = await startTestPostgres();
afterAll(() => pg.close());
const dir = useTempDirs()('labelkit-upkeep-');

const config: JournalProjectConfig = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 2, labelerEmail: 'a@example.com', role: null };
const unique = (prefix: string) => `${prefix}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
const query = <R extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<R[]> => queryPostgres<R>(pg.url!, sql, values);

/** The tables as version 1 of labelkit created them, with one run holding one intent. */
async function versionOneTables(s: string, run: string): Promise<void> {
  for (const sql of [
    `CREATE SCHEMA ${s}`,
    `CREATE TABLE ${s}.meta (key text PRIMARY KEY, value text NOT NULL)`,
    `INSERT INTO ${s}.meta (key, value) VALUES ('version', '1')`,
    `CREATE TABLE ${s}.runs (name text PRIMARY KEY, url text, created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE ${s}.workers (run text NOT NULL REFERENCES ${s}.runs (name), worker text NOT NULL, host text NOT NULL, pid integer NOT NULL,
       heartbeat_ms integer NOT NULL, started_at timestamptz NOT NULL DEFAULT now(), heartbeat_at timestamptz NOT NULL DEFAULT now(), ended_at timestamptz, PRIMARY KEY (run, worker))`,
    `CREATE TABLE ${s}.records (seq bigserial PRIMARY KEY, run text NOT NULL REFERENCES ${s}.runs (name), worker text NOT NULL,
       type text NOT NULL, project_id text, attempt integer, record jsonb NOT NULL, written_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE UNIQUE INDEX records_claim ON ${s}.records (run, project_id, attempt) WHERE type = 'intent'`,
    `CREATE INDEX records_run ON ${s}.records (run, seq)`,
    `INSERT INTO ${s}.runs (name) VALUES ('${run}')`,
    `INSERT INTO ${s}.records (run, worker, type, project_id, attempt, record) VALUES ('${run}', 'old:1:abcdef', 'intent', 'p1', 1,
       '{"type":"intent","at":"2026-01-01T00:00:00.000Z","projectId":"p1","attempt":1,"config":{"endpoint":"https://model.example.com/","numberOfFilesPerRequest":2,"labelerEmail":"a@example.com","role":null}}')`,
  ]) {
    await query(sql);
  }
}

describe.skipIf(pg.skip !== undefined)(`the upkeep of a PostgreSQL journal${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('brings tables of version 1 up to the current version when opened for writing (read as they are when read-only), and refuses a newer version naming both', async () => {
    const schema = unique('lk_v1');
    await versionOneTables(schema, 'old-run');
    // Read-only (a dry run): read as they are, nothing changed.
    const reader = openPostgresJournal({ url: pg.url!, name: 'old-run', schema, readOnly: true });
    expect((await reader.open()).records.map((r) => r.type)).toEqual(['intent']);
    await reader.close();
    expect(await query(`SELECT value FROM ${schema}.meta WHERE key = 'version'`)).toEqual([{ value: '1' }]);
    // Opened for writing: migrated, the old records kept, the old claim still holds.
    const writer = openPostgresJournal({ url: pg.url!, name: 'old-run', schema });
    expect((await writer.open()).records.map((r) => [r.type, r.worker])).toEqual([['intent', 'old:1:abcdef']]);
    expect(POSTGRES_JOURNAL_VERSION).toBe(3);
    expect(await query(`SELECT value FROM ${schema}.meta WHERE key = 'version'`)).toEqual([{ value: '3' }]);
    expect(await writer.claim({ type: 'intent', at: new Date().toISOString(), projectId: 'p1', attempt: 1, config })).toEqual({ won: false, holder: 'old:1:abcdef' });
    await writer.append({ type: 'started', at: new Date().toISOString(), projectId: 'p2', jobId: 'job-2' });
    await writer.close();
    expect(await query(`SELECT count(rid)::int AS n FROM ${schema}.records`)).toEqual([{ n: 1 }]);
    expect(await query(`SELECT to_regclass('${schema}.queue')::text AS t`)).toEqual([{ t: `${schema}.queue` }]);
    // Version 3: the run's limits (the lease table, the start bucket's columns).
    expect(await query(`SELECT to_regclass('${schema}.leases')::text AS t`)).toEqual([{ t: `${schema}.leases` }]);
    expect(await query(`SELECT max_running, start_rate FROM ${schema}.runs WHERE name = 'old-run'`)).toEqual([{ max_running: null, start_rate: null }]);
    // A newer labelkit's tables: refused, in one line naming both versions, nothing written.
    await query(`UPDATE ${schema}.meta SET value = '4' WHERE key = 'version'`);
    for (const readOnly of [false, true]) {
      const error = await openPostgresJournal({ url: pg.url!, name: 'old-run', schema, readOnly }).open().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).problems).toEqual([
        { path: 'journal', message: expect.stringMatching(/version 4, newer than this labelkit's version 3: run a labelkit that knows version 4/) },
      ]);
    }
    expect(await query(`SELECT value FROM ${schema}.meta WHERE key = 'version'`)).toEqual([{ value: '4' }]);
  });

  it("labelkit journal prune removes the runs still for longer than --older-than, lists them first with --dry-run, and keeps a run with a live worker", async () => {
    const [old, recent, oldButLive] = [unique('old'), unique('recent'), unique('live')];
    for (const name of [old, recent, oldButLive]) {
      const j = openPostgresJournal({ url: pg.url!, name });
      await j.open();
      await j.claim({ type: 'intent', at: new Date().toISOString(), projectId: 'p1', attempt: 1, config });
      await j.append({ type: 'started', at: new Date().toISOString(), projectId: 'p1', jobId: 'job-1' });
      if (name !== oldButLive) await j.close();
      else setTimeout(() => void j.close(), 60_000).unref(); // alive for the test (its heartbeat goes on)
    }
    // 40 days still: every time of the old runs moved back.
    for (const name of [old, oldButLive]) {
      await query(`UPDATE labelkit_journal.runs SET created_at = now() - interval '40 days' WHERE name = $1`, [name]);
      await query(`UPDATE labelkit_journal.records SET written_at = now() - interval '40 days' WHERE run = $1`, [name]);
    }
    await query(`UPDATE labelkit_journal.workers SET heartbeat_at = now() - interval '40 days' WHERE run = $1`, [old]);
    const count = async (name: string) => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM labelkit_journal.records WHERE run = $1`, [name]))[0]!.n;

    const dry = fakeIo();
    expect(await main(argv('journal', 'prune', '--journal', pg.url!, '--older-than', '30d', '--dry-run'), dry), dry.err()).toBe(0);
    const lines = dry.out().trim().split('\n');
    expect(lines.filter((l) => l.includes(old))).toEqual([expect.stringMatching(new RegExp(`^would remove run ${old} \\(last moved .*, 2 records\\)$`))]);
    expect(dry.out()).not.toContain(recent);
    expect(dry.out()).not.toContain(oldButLive);
    expect(await count(old)).toBe(2);

    const wet = fakeIo();
    expect(await main(argv('journal', 'prune', '--journal', pg.url!, '--older-than', '30d', '--json'), wet), wet.err()).toBe(0);
    const events = wet.out().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.filter((e) => e.event === 'run').map((e) => e.run)).toContain(old);
    expect(events.at(-1)).toMatchObject({ event: 'summary', dryRun: false });
    expect(await count(old)).toBe(0);
    expect(await query(`SELECT count(*)::int AS n FROM labelkit_journal.runs WHERE name = $1`, [old])).toEqual([{ n: 0 }]);
    expect(await count(recent)).toBe(2);
    expect(await count(oldButLive)).toBe(2);

    // Bad flags: every problem at once, before any connection.
    const bad = fakeIo();
    expect(await main(argv('journal', 'prune', '--journal', 'run.ndjson', '--older-than', 'soon'), bad)).toBe(2);
    expect(bad.err()).toContain('--journal');
    expect(bad.err()).toContain('--older-than');
  });

  it('labelkit journal record OUTBOX writes the kept starts to the journal and removes the file; a missing file is exit 2', async () => {
    const name = unique('outbox');
    const j = openPostgresJournal({ url: pg.url!, name });
    await j.open();
    for (const projectId of ['p1', 'p2']) await j.claim({ type: 'intent', at: new Date().toISOString(), projectId, attempt: 1, config });
    await j.close();
    const outbox = join(dir, `${name}.ndjson`);
    const label = `${pg.url!} --journal-name ${name}`;
    writeFileSync(
      outbox,
      [{ outbox: 1, journal: label }, { type: 'started', at: new Date().toISOString(), projectId: 'p1', jobId: 'job-p1', attempt: 1 }]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const io = fakeIo();
    expect(await main(argv('journal', 'record', outbox, '--journal', pg.url!, '--journal-name', name), io), io.err()).toBe(0);
    expect(io.out()).toContain(`recorded in the journal 1 started job of the outbox ${outbox}`);
    expect(existsSync(outbox)).toBe(false);
    const rows = await query<{ type: string; project_id: string }>(`SELECT type, project_id FROM labelkit_journal.records WHERE run = $1 ORDER BY seq`, [name]);
    expect(rows.map((r) => `${r.project_id} ${r.type}`)).toEqual(['p1 intent', 'p2 intent', 'p1 started']);
    const missing = fakeIo();
    expect(await main(argv('journal', 'record', outbox, '--journal', pg.url!, '--journal-name', name), missing)).toBe(2);
    expect(missing.err()).toContain(`there is no file ${outbox}`);
  });
});
