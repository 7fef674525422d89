import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AutoLabelInput } from '../../src/client/index.js';
import { autoLabelMany, createMemoryJournal } from '../../src/bulk/index.js';
import type { Journal, JournalContents, JournalRecord, ManyEvent } from '../../src/bulk/index.js';
import { jobServiceClient } from '../support/jobServiceFetch.js';

// A journal that fails while the run waits, on a shared journal (the database's shape: a worker
// id, other workers, `refresh`), where the run waits for its own jobs and takes over those of a
// dead worker. The service is a stand-in behind the real client (its `fetch`): what is under
// test is what the run does with the journal's failure, not HTTP.
const input = (projectId: string): AutoLabelInput => ({
  projectId,
  labelerEmail: 'a@example.com',
  options: { numberOfFilesPerRequest: 1 },
  targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'SENTINEL-failure-secret' },
});

/** A memory journal shaped as a shared one; `failOutcomeOf` makes the outcome append of those projects fail. */
function sharedJournal(failOutcomeOf: Set<string>, later: JournalRecord[] = []) {
  const memory = createMemoryJournal();
  const failure = new Error('the disk of the journal is gone');
  let closed = 0;
  const shared = (contents: JournalContents): JournalContents => ({
    ...contents,
    shared: { worker: 'me', workers: [{ id: 'me', alive: true }, { id: 'dead', alive: false }], heartbeatMs: 20 },
  });
  const journal: Journal = {
    open: async () => shared(await memory.open()),
    append: async (record) => {
      if (record.type === 'outcome' && failOutcomeOf.has(record.projectId)) throw failure;
      return memory.append(record);
    },
    claim: (intent) => memory.claim(intent),
    // What a dead worker wrote: read back on the first refresh.
    refresh: async () => shared({ records: [...memory.records, ...later], warnings: [] }),
    close: async () => void closed++,
  };
  return { journal, failure, closed: () => closed };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});
const settleTimers = () => new Promise((r) => setTimeout(r, 30));

describe('autoLabelMany when the journal fails while it waits', () => {
  it("rejects with the journal's error when its own wait's outcome cannot be written: every project told, the journal closed, nothing unhandled", async () => {
    const stand = jobServiceClient();
    const { journal, failure, closed } = sharedJournal(new Set(['p1']));
    const events: ManyEvent[] = [];
    const run = autoLabelMany(stand.client, ['p1', 'p2', 'p3'].map(input), { journal, onEvent: (e) => events.push(e) });
    const settled = run.then(
      () => undefined,
      (e: unknown) => e,
    );
    for (let i = 0; i < 100 && stand.waiting.size < 3; i++) await new Promise((r) => setTimeout(r, 5));
    stand.finish('job-p1');
    expect(await settled).toBe(failure);
    await settleTimers();
    expect(unhandled).toEqual([]);
    expect(closed()).toBe(1);
    const told = new Map(events.flatMap((e) => (e.event === 'outcome' ? [[e.projectId, [e.outcome, e.jobId, e.error?.message]]] : [])));
    expect(told.get('p1')).toEqual(['delivered', 'job-p1', undefined]); // its end is known, though not journaled
    expect(told.get('p2')).toEqual(['interrupted', 'job-p2', 'job job-p2 started; not waited for to the end: the journal failed']);
    expect(told.get('p3')).toEqual(['interrupted', 'job-p3', 'job job-p3 started; not waited for to the end: the journal failed']);
    stand.client.close();
  });

  it("rejects with the journal's error when a wait taken over from a dead worker cannot write its outcome, nothing unhandled", async () => {
    const stand = jobServiceClient();
    const at = new Date().toISOString();
    const config = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 1, labelerEmail: 'a@example.com', role: null };
    // The dead worker claimed p9 and started its job after this run opened the journal.
    const later: JournalRecord[] = [
      { type: 'intent', at, projectId: 'p9', attempt: 1, config, worker: 'dead' },
      { type: 'started', at, projectId: 'p9', jobId: 'job-dead-p9', worker: 'dead' },
    ];
    const { journal, failure, closed } = sharedJournal(new Set(['p9']), later);
    const events: ManyEvent[] = [];
    // p9 is claimed by this run too late: its claim is lost to the dead worker's intent.
    const lost = { ...journal, claim: async (intent: Parameters<Journal['claim']>[0]) => (intent.projectId === 'p9' ? { won: false as const, holder: 'dead' } : journal.claim(intent)) };
    const settled = autoLabelMany(stand.client, ['p1', 'p9'].map(input), { journal: lost, onEvent: (e) => events.push(e) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    for (let i = 0; i < 200 && !stand.waiting.has('job-dead-p9'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(stand.waiting.has('job-dead-p9')).toBe(true); // taken over
    stand.finish('job-dead-p9');
    expect(await settled).toBe(failure);
    await settleTimers();
    expect(unhandled).toEqual([]);
    expect(closed()).toBe(1);
    const told = events.flatMap((e) => (e.event === 'outcome' ? [[e.projectId, e.outcome]] : []));
    expect(told).toContainEqual(['p9', 'delivered']);
    expect(told).toContainEqual(['p1', 'interrupted']); // its own wait was stopped: nothing more can be journaled
    stand.client.close();
  });
});
