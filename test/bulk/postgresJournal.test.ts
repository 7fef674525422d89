import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, ValidationError } from '../../src/client/index.js';
import type { AutoLabelInput, LabelingClient } from '../../src/client/index.js';
import { autoLabelMany, openPostgresJournal, POSTGRES_JOURNAL_VERSION } from '../../src/bulk/index.js';
import type { ManyEvent } from '../../src/bulk/index.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { startTestPostgres, queryPostgres } from '../support/postgres.js';

const pg = await startTestPostgres();
const SECRET = 'SENTINEL-pg-model-secret-77';
let emu: RunningEmulator;
let model: RunningModelServer;
let client: LabelingClient;

beforeAll(async () => {
  if (pg.skip) return;
  emu = await startEmulator({ demoProject: false, demoProjects: 6 });
  model = await startModelServer({ secretKey: SECRET });
  client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 20, maxIntervalMs: 50 } });
});
afterAll(async () => {
  client?.close();
  await emu?.close();
  await model?.close();
  await pg.close();
});

const input = (n: number): AutoLabelInput => ({
  projectId: demoProjectId(n),
  labelerEmail: 'pg@example.com',
  options: { numberOfFilesPerRequest: 0 },
  targetAPI: { endpoint: model.url, secretKey: SECRET },
});
const unique = (prefix: string) => `${prefix}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
const query = <R extends Record<string, unknown>>(sql: string): Promise<R[]> => queryPostgres<R>(pg.url!, sql);

describe.skipIf(pg.skip !== undefined)(`openPostgresJournal${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('creates its tables once when six workers open a fresh schema at the same moment, with a version', async () => {
    const schema = unique('lk_schema');
    const journals = Array.from({ length: 6 }, () => openPostgresJournal({ url: pg.url!, name: 'together', schema }));
    const opened = await Promise.all(journals.map((j) => j.open()));
    expect(opened.map((c) => c.records)).toEqual(opened.map(() => []));
    expect(new Set(opened.map((c) => c.shared?.worker)).size).toBe(6);
    await Promise.all(journals.map((j) => j.close()));
    expect(await query(`SELECT value FROM ${schema}.meta WHERE key = 'version'`)).toEqual([{ value: String(POSTGRES_JOURNAL_VERSION) }]);
    // Closed workers are dead at once: nobody waits for their heartbeat to lapse.
    const again = openPostgresJournal({ url: pg.url!, name: 'together', schema, readOnly: true });
    expect((await again.open()).shared?.workers.map((w) => w.alive)).toEqual([false, false, false, false, false, false]);
    await again.close();
  });

  it('refuses tables of a later version, and reads nothing and creates nothing when read-only on an empty database', async () => {
    const schema = unique('lk_version');
    const readOnly = openPostgresJournal({ url: pg.url!, name: 'r', schema, readOnly: true });
    expect((await readOnly.open()).records).toEqual([]);
    await readOnly.close();
    expect(await query(`SELECT to_regnamespace('${schema}') AS s`)).toEqual([{ s: null }]);
    const first = openPostgresJournal({ url: pg.url!, name: 'r', schema });
    await first.open();
    await first.close();
    await query(`UPDATE ${schema}.meta SET value = '99' WHERE key = 'version'`);
    const error = await openPostgresJournal({ url: pg.url!, name: 'r', schema }).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems[0]).toMatchObject({ path: 'journal', message: expect.stringContaining('version 99') });
  });

  it('names every bad option at once, before connecting', () => {
    const error = (() => {
      try {
        openPostgresJournal({ url: 'mysql://db/x', name: ' bad name', heartbeatMs: 1, connections: 1 });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems.map((p) => p.path)).toEqual(['journal', 'journalName', 'heartbeatMs', 'connections']);
  });

  it('never shows the URL password: not in the error of a failed connection, its fields or stack', async () => {
    const password = 'SENTINEL-pg-password-31';
    const journal = openPostgresJournal({ url: `postgres://someone:${password}@127.0.0.1:1/db`, name: 'nowhere', retryMs: 0 });
    const error = (await journal.open().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('postgres://someone:***@127.0.0.1:1/db');
    for (const text of [error.message, String(error.stack), JSON.stringify(error), JSON.stringify(Object.entries(error))]) expect(text).not.toContain(password);
  });

  it('never shows a password given in the query string (which the driver reads too): not in the message, its fields or stack', async () => {
    const password = 'SENTINEL-pg-query-password-32';
    const sslPassword = 'SENTINEL-pg-sslpassword-33';
    const journal = openPostgresJournal({ url: `postgres://someone@127.0.0.1:1/db?password=${password}&sslpassword=${sslPassword}&application_name=x`, name: 'nowhere', retryMs: 0 });
    const error = (await journal.open().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('postgres://someone@127.0.0.1:1/db?password=***&sslpassword=***&application_name=x');
    for (const text of [error.message, String(error.stack), JSON.stringify(error), JSON.stringify(Object.entries(error))]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(sslPassword);
    }
  });

  it('never shows the password of a URL that does not parse (a port out of range) in the problem naming it', () => {
    const password = 'SENTINEL-pg-password-34';
    const error = (() => {
      try {
        return openPostgresJournal({ url: `postgres://someone:${password}@127.0.0.1:99999/db?sslpassword=${password}x`, name: 'nowhere' });
      } catch (e) {
        return e;
      }
    })() as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.problems[0]).toMatchObject({ path: 'journal', message: expect.stringContaining('postgres://someone:***@127.0.0.1:99999/db?sslpassword=***') });
    for (const text of [error.message, String(error.stack), JSON.stringify(error), JSON.stringify(error.problems)]) expect(text).not.toContain(password);
  });

  it('refuses a worker that joins the run with another service URL, sending nothing', async () => {
    const name = unique('config');
    await autoLabelMany(client, [input(1)], { journal: openPostgresJournal({ url: pg.url!, name }) });
    const other = createLabelingClient({ url: emu.url.replace('127.0.0.1', 'localhost'), token: emu.token });
    const jobsBefore = emu.emulator.store.jobs.size;
    const error = await autoLabelMany(other, [input(2)], { journal: openPostgresJournal({ url: pg.url!, name }) }).catch((e: unknown) => e);
    other.close();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems[0]).toMatchObject({ path: 'journal', message: expect.stringContaining('was written for the service at') });
    expect(emu.emulator.store.jobs.size).toBe(jobsBefore);
  });

  it('lets exactly one of two workers starting at the same moment with different service URLs run, the other sending nothing', async () => {
    const name = unique('race');
    const other = createLabelingClient({ url: emu.url.replace('127.0.0.1', 'localhost'), token: emu.token });
    const jobsBefore = emu.emulator.store.jobs.size;
    const results = await Promise.allSettled([
      autoLabelMany(client, [input(5)], { journal: openPostgresJournal({ url: pg.url!, name }) }),
      autoLabelMany(other, [input(6)], { journal: openPostgresJournal({ url: pg.url!, name }) }),
    ]);
    other.close();
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected')!.reason as ValidationError;
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.problems[0]!.path).toBe('journal');
    expect(emu.emulator.store.jobs.size).toBe(jobsBefore + 1);
  });

  it("takes over waiting for a dead worker's started job, reporting it claimed elsewhere first, and starts nothing again", async () => {
    const name = unique('takeover');
    // Worker A claims project 3, starts its job and journals it, then dies (closes) while B runs.
    const a = openPostgresJournal({ url: pg.url!, name, heartbeatMs: 100 });
    await a.open();
    expect(await a.claim({ type: 'intent', at: new Date().toISOString(), projectId: demoProjectId(3), attempt: 1, config: { endpoint: model.url, numberOfFilesPerRequest: 0, labelerEmail: 'pg@example.com', role: null } })).toEqual({ won: true });
    const job = await startAutoLabel(client, input(3));
    await a.append({ type: 'run', at: new Date().toISOString(), url: emu.url });
    await a.append({ type: 'started', at: new Date().toISOString(), projectId: demoProjectId(3), jobId: job.id });
    const jobsBefore = emu.emulator.store.jobs.size;

    // B's own wait (project 4) holds until A is gone, so that B sees A alive first, then dead.
    let aClosed!: Promise<void>;
    const events: ManyEvent[] = [];
    const b = {
      url: emu.url,
      // B's polls (its waits) hold until A is gone; its start goes through at once.
      request: async (document: { definitions: readonly { kind: string; name?: { value: string } }[] }, ...rest: unknown[]) => {
        if (document.definitions.find((d) => d.kind === 'OperationDefinition')?.name?.value === 'GetJobs') await aClosed;
        return (client.request as (...args: unknown[]) => Promise<unknown>)(document, ...rest);
      },
    } as unknown as LabelingClient;
    const run = autoLabelMany(b, [input(3), input(4)], {
      journal: openPostgresJournal({ url: pg.url!, name, heartbeatMs: 100 }),
      onEvent: (e) => {
        events.push(e);
        if (e.event === 'worklist') aClosed = a.close();
      },
    });
    const result = await run;
    expect(result.worklist.map((w) => [w.action, w.heldBy !== undefined])).toEqual([['skip', true], ['start', false]]);
    const told = events.flatMap((e) => (e.event === 'outcome' && e.projectId === demoProjectId(3) ? [e.outcome] : []));
    expect(told).toEqual(['claimed-elsewhere', 'delivered']);
    expect(result.outcomes.map((o) => o.outcome)).toEqual(['delivered', 'delivered']);
    expect(emu.emulator.store.jobs.size).toBe(jobsBefore + 1); // project 4's job only
    const rows = await query<{ type: string; project_id: string }>(`SELECT type, project_id FROM labelkit_journal.records WHERE run = '${name}' AND project_id = '${demoProjectId(3)}' ORDER BY seq`);
    expect(rows.map((r) => r.type)).toEqual(['intent', 'started', 'outcome']);
  });
});
