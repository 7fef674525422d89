import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { autoLabelMany, createMemoryJournal, openFileJournal, openPostgresJournal } from '../../src/bulk/index.js';
import type { AutoLabelInput } from '../../src/client/index.js';
import { jobServiceClient } from '../support/jobServiceFetch.js';
import type { Journal, JournalProjectConfig } from '../../src/bulk/index.js';
import { startTestPostgres } from '../support/postgres.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// One contract, every backend: what the run relies on when it claims a project.
const pg = await startTestPostgres();
afterAll(() => pg.close());

const config: JournalProjectConfig = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 2, labelerEmail: 'a@example.com', role: null };
const intent = (projectId: string, attempt: number) => ({ type: 'intent' as const, at: new Date().toISOString(), projectId, attempt, config });

/**
 * Each backend: `newRun()` gives the journals of one fresh run. `claimers` open at once on it
 * (the file and memory journals are held by one process: one object; the database: five
 * workers); `reopen()` opens the run again later.
 */
const backends: { name: string; skip?: string; newRun(): { claimers: Journal[]; reopen(): Journal } }[] = [
  {
    name: 'memory',
    newRun: () => {
      const journal = createMemoryJournal();
      return { claimers: [journal], reopen: () => journal };
    },
  },
  {
    name: 'file',
    newRun: () => {
      const path = join(tempDir('labelkit-contract-'), 'run.ndjson');
      return { claimers: [openFileJournal(path)], reopen: () => openFileJournal(path) };
    },
  },
  {
    name: 'postgres',
    ...(pg.skip !== undefined && { skip: pg.skip }),
    newRun: () => {
      const name = `contract-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const open = () => openPostgresJournal({ url: pg.url!, name, connections: 10 });
      return { claimers: Array.from({ length: 5 }, open), reopen: open };
    },
  },
];

describe.each(backends)('the journal contract: $name', (backend) => {
  if (backend.skip) {
    it.skip(`(skipped: ${backend.skip})`, () => undefined);
    return;
  }

  it('lets exactly one of 50 concurrent claims of one project win, and reads back that one intent', async () => {
    const run = backend.newRun();
    await Promise.all(run.claimers.map((j) => j.open()));
    const claimOn = (i: number, attempt: number) => run.claimers[i % run.claimers.length]!.claim(intent('p1', attempt));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => claimOn(i, 1)));
    expect(results.filter((r) => r.won)).toHaveLength(1);
    // The next attempt (a retry) is another claim: exactly one wins it too.
    const second = await Promise.all(Array.from({ length: 10 }, (_, i) => claimOn(i, 2)));
    expect(second.filter((r) => r.won)).toHaveLength(1);
    await Promise.all(run.claimers.map((j) => j.close()));
    const reader = run.reopen();
    const intents = (await reader.open()).records.flatMap((r) => (r.type === 'intent' ? [[r.projectId, r.attempt]] : []));
    await reader.close();
    expect(intents).toEqual([['p1', 1], ['p1', 2]]);
  });

  it('refuses a claim that an intent read back already holds, and names the holder where it is known', async () => {
    const run = backend.newRun();
    const first = run.claimers[0]!;
    await first.open();
    expect(await first.claim(intent('p2', 1))).toEqual({ won: true });
    await first.close();
    const later = run.reopen();
    await later.open();
    const lost = await later.claim(intent('p2', 1));
    expect(lost.won).toBe(false);
    if (backend.name === 'postgres') expect(lost).toMatchObject({ holder: expect.stringMatching(/:\d+:[0-9a-f]{6}$/) });
    expect(await later.claim(intent('p2', 2))).toEqual({ won: true });
    await later.close();
  });

  it('keeps autoLabelMany from sending a project whose claim another claimer took after the run read the journal', async () => {
    const run = backend.newRun();
    const [journal, rival = journal] = [run.claimers[0]!, run.claimers[1]];
    if (rival !== journal) await rival.open();
    // The rival claims p-lost at the last moment: after the run's worklist, just before its own claim.
    let raced = false;
    const racing: Journal = {
      ...journal,
      claim: async (i) => {
        if (i.projectId === 'p-lost' && !raced) {
          raced = true;
          expect(await rival.claim({ ...i, at: new Date().toISOString() })).toEqual({ won: true });
        }
        return journal.claim(i);
      },
    };
    const { client, sent } = jobServiceClient();
    const inputs = ['p-a', 'p-lost', 'p-b'].map((projectId): AutoLabelInput => ({ projectId, labelerEmail: config.labelerEmail, options: { numberOfFilesPerRequest: 2 }, targetAPI: { endpoint: config.endpoint, secretKey: 'SENTINEL-contract' } }));
    const result = await autoLabelMany(client, inputs, { journal: racing, wait: false, concurrency: 1 });
    client.close();
    if (rival !== journal) await rival.close();
    expect(raced).toBe(true);
    expect(sent.sort()).toEqual(['p-a', 'p-b']);
    expect(result.outcomes.map((o) => [o.projectId, o.outcome])).toEqual([['p-a', 'started'], ['p-lost', 'claimed-elsewhere'], ['p-b', 'started']]);
  });
});
