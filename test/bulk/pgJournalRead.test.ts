import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/client/index.js';
import type { AutoLabelInput } from '../../src/client/index.js';
import { openPostgresJournal } from '../../src/bulk/index.js';
import type { JournalContents, JournalRecord } from '../../src/bulk/index.js';
import { replayContents, replayJournal } from '../../src/bulk/journal.js';
import { buildWorklist } from '../../src/bulk/worklist.js';
import { queryPostgres, startTestPostgres } from '../support/postgres.js';

// The database journal's first read folds each record into its project's state as the driver
// hands it over, never holding the run's records all at once (a 100,000-project run has 300,000):
// what it answers must be exactly the replay of every record in order.
const pg = await startTestPostgres();
afterAll(() => pg.close());

const at = '2026-01-01T00:00:00.000Z';
const SERVICE = 'https://labeling.example.com/graphql';
const config = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 2, labelerEmail: 'a@example.com', role: null };
const unique = (prefix: string) => `${prefix}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
const input = (projectId: string): AutoLabelInput => ({
  projectId,
  labelerEmail: 'a@example.com',
  options: { numberOfFilesPerRequest: 2 },
  targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'k-123456' },
});
const ids = Array.from({ length: 12 }, (_, i) => `p${i + 1}`);

/** Every record of the run, in order, as the full replay reads them (each with its worker). */
async function everyRecord(schema: string, run: string): Promise<JournalRecord[]> {
  const rows = await queryPostgres<{ record: JournalRecord; worker: string }>(pg.url!, `SELECT record, worker FROM ${schema}.records WHERE run = $1 ORDER BY seq`, [run]);
  return rows.map((r) => ({ ...r.record, worker: r.worker }));
}

/** The plan of every project (as --dry-run prints it), by each rule set, with the workers alive as the read saw them. */
function plans(states: ReturnType<typeof replayJournal>['projects'], contents: JournalContents) {
  const alive = new Set(contents.shared?.workers.filter((w) => w.alive).map((w) => w.id));
  const inputs = ids.map(input);
  return [{}, { retryFailed: true }, { retryUnknown: true }].map((rules) => buildWorklist(inputs, states, rules, (w) => alive.has(w)));
}

describe.skipIf(pg.skip !== undefined)(`the database journal's first read${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('answers exactly the replay of every record in order, for every kind of record, without the records', async () => {
    const schema = unique('lk_read');
    const run = 'every-kind';
    const live = openPostgresJournal({ url: pg.url!, name: run, schema });
    const dead = openPostgresJournal({ url: pg.url!, name: run, schema });
    await live.open();
    await dead.open();
    await live.append({ type: 'run', at, url: SERVICE });
    const claim = (journal: typeof live, projectId: string, attempt: number, own = config) => journal.claim({ type: 'intent', at, projectId, attempt, config: own });
    // p1 delivered; p2 failed, then retried (attempt 2) and timed out with its job.
    await claim(live, 'p1', 1);
    await claim(live, 'p2', 1);
    await live.append({ type: 'started', at, projectId: 'p1', jobId: 'job-1' });
    await live.append({ type: 'started', at, projectId: 'p2', jobId: 'job-2' });
    await live.append({ type: 'outcome', at, projectId: 'p2', outcome: 'failed', jobId: 'job-2', errors: ['the model refused'] });
    await live.append({ type: 'outcome', at, projectId: 'p1', outcome: 'delivered', jobId: 'job-1' });
    await claim(live, 'p2', 2);
    await live.append({ type: 'started', at, projectId: 'p2', jobId: 'job-2b' });
    await live.append({ type: 'outcome', at, projectId: 'p2', outcome: 'timed-out', jobId: 'job-2b' });
    // p3 unknown (a worker now dead); p4 claimed by the live worker, nothing after; p5 not started.
    await claim(dead, 'p3', 1);
    await dead.append({ type: 'unknown', at, projectId: 'p3', error: 'connection reset' });
    await claim(live, 'p4', 1);
    await claim(dead, 'p5', 1);
    await dead.append({ type: 'outcome', at, projectId: 'p5', outcome: 'not-started', errors: ['refused'] });
    // p6: intents written without a number (counted in order), not found in between; its job by the dead worker.
    await dead.append({ type: 'intent', at, projectId: 'p6', config });
    await dead.append({ type: 'outcome', at, projectId: 'p6', outcome: 'not-found' });
    await dead.append({ type: 'intent', at, projectId: 'p6', config });
    await dead.append({ type: 'started', at, projectId: 'p6', jobId: 'job-6' });
    // p7: another labeler (a config of its own); p8: a config with a field of a later version;
    // p9: a job started by the dead worker, not ended; p10: delivered without a job id.
    await claim(live, 'p7', 1, { ...config, labelerEmail: 'b@example.com' });
    await claim(live, 'p8', 1, { ...config, extra: 'later' } as typeof config);
    await claim(dead, 'p9', 1);
    await dead.append({ type: 'started', at, projectId: 'p9', jobId: 'job-9' });
    await claim(live, 'p10', 1);
    await live.append({ type: 'outcome', at, projectId: 'p10', outcome: 'delivered' });
    // p11: its outcome written to the table before its intent, with a later number (its order is the number's, not the table's).
    await dead.close();
    const { top } = (await queryPostgres<{ top: string }>(pg.url!, `SELECT max(seq) AS top FROM ${schema}.records`))[0]!;
    const row = (seq: number, type: string, record: object, attempt: number | null) =>
      queryPostgres(pg.url!, `INSERT INTO ${schema}.records (seq, run, worker, type, project_id, attempt, record, rid) VALUES ($1, $2, 'w-sql', $3, 'p11', $4, $5, $6)`, [seq, run, type, attempt, record, unique('rid')]);
    await row(Number(top) + 20, 'outcome', { type: 'outcome', at, projectId: 'p11', outcome: 'delivered', jobId: 'job-11' }, null);
    await row(Number(top) + 10, 'intent', { type: 'intent', at, projectId: 'p11', attempt: 1, config }, 1);

    const full = replayJournal(await everyRecord(schema, run));
    expect(full.projects.get('p11')?.state).toBe('delivered');
    expect(full.projects.get('p6')?.attempts).toBe(2);
    // Opened without `replay`, the journal answers every record, as it always has: the same replay.
    const plain = openPostgresJournal({ url: pg.url!, name: run, schema, readOnly: true });
    const records = (await plain.open()).records;
    await plain.close();
    expect(records).toHaveLength(27);
    expect([...replayJournal(records).projects]).toEqual([...full.projects]);
    for (const readOnly of [true, false]) {
      const journal = openPostgresJournal({ url: pg.url!, name: run, schema, readOnly });
      const contents = await journal.open({ replay: true });
      // The states, not the 27 records: none is held.
      expect(contents.records).toEqual([]);
      expect(contents.replayed).toBeDefined();
      const replayed = replayContents(contents);
      expect(replayed.url).toBe(SERVICE);
      expect([...replayed.projects]).toEqual([...full.projects]);
      expect(plans(replayed.projects, contents)).toEqual(plans(full.projects, contents));
      expect(contents.warnings).toEqual([]);
      if (!readOnly) {
        // What is written after the first read is read again alone.
        await journal.append({ type: 'outcome', at, projectId: 'p9', outcome: 'delivered', jobId: 'job-9' });
        const again = await journal.refresh!();
        expect(again).toMatchObject({ delta: true, records: [{ type: 'outcome', projectId: 'p9', outcome: 'delivered' }] });
      }
      await journal.close();
    }
    await live.close();
  });

  it('refuses a corrupt record, naming it, and reads the next time once it is mended', async () => {
    const schema = unique('lk_corrupt');
    const first = openPostgresJournal({ url: pg.url!, name: 'c', schema });
    await first.open();
    await first.append({ type: 'run', at, url: SERVICE });
    await first.claim({ type: 'intent', at, projectId: 'p1', attempt: 1, config });
    await first.append({ type: 'started', at, projectId: 'p1', jobId: 'job-1' });
    await first.close();
    const { seq } = (await queryPostgres<{ seq: string }>(pg.url!, `UPDATE ${schema}.records SET record = record - 'jobId' WHERE type = 'started' RETURNING seq`))[0]!;
    const journal = openPostgresJournal({ url: pg.url!, name: 'c', schema, readOnly: true });
    const error = await journal.open({ replay: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: `journal record ${seq}`, message: expect.stringMatching(new RegExp(`record ${seq} a started record needs "projectId" and "jobId"; the journal is corrupt$`)) },
    ]);
    await queryPostgres(pg.url!, `UPDATE ${schema}.records SET record = record || '{"jobId":"job-1"}' WHERE seq = $1`, [seq]);
    const mended = await journal.open({ replay: true });
    expect(replayContents(mended).projects.get('p1')).toMatchObject({ state: 'started', jobId: 'job-1', attempts: 1 });
    await journal.close();
  });
});
