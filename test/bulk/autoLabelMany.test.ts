import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { autoLabelMany, createMemoryJournal, openFileJournal } from '../../src/bulk/index.js';
import type { JournalRecord, ManyEvent } from '../../src/bulk/index.js';
// What bulk throws for bad input: a labelkit error of code VALIDATION (see validationError.test.ts).
import { startAutoLabel, ValidationError } from '../../src/client/index.js';
import { createLabelingClient } from '../../src/client/index.js';
import type { AutoLabelInput, LabelingClient } from '../../src/client/index.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { startCountingService } from '../support/countingService.js';
import type { CountingService } from '../support/countingService.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

const SECRET = 'SENTINEL-many-secret-5f2e';
let service: CountingService;
let model: RunningModelServer;
let client: LabelingClient;

beforeAll(async () => {
  service = await startCountingService({ demoProjects: 80, model: { concurrency: 16 } });
  model = await startModelServer({ secretKey: SECRET });
});
afterAll(async () => {
  await service?.close();
  await model?.close();
});
afterEach(() => {
  client?.close();
  service.dropAnswerFor.clear();
});

const newClient = () => (client = createLabelingClient({ url: service.url, token: service.token, poll: { intervalMs: 20, maxIntervalMs: 50 } }));
const input = (projectId: string, over: Partial<AutoLabelInput['options']> = {}): AutoLabelInput => ({
  projectId,
  labelerEmail: 'many@example.com',
  options: { numberOfFilesPerRequest: 2, ...over },
  targetAPI: { endpoint: model.url, secretKey: SECRET },
});
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => demoProjectId(from + k));
const started = (projectId: string) => service.jobsStarted.get(projectId) ?? 0;
const typesOf = (records: JournalRecord[], projectId: string) => records.filter((r) => r.type !== 'run' && r.projectId === projectId).map((r) => (r.type === 'outcome' ? r.outcome : r.type));

describe('autoLabelMany', () => {
  it('delivers 50 projects in one run, one job each, with a complete journal and shared polling', async () => {
    const path = join(tempDir('labelkit-many-'), 'run.ndjson');
    const projects = ids(1, 50);
    const before = service.requests.length;
    const events: ManyEvent[] = [];
    const result = await autoLabelMany(newClient(), projects.map((p) => input(p)), { journal: openFileJournal(path), concurrency: 8, onEvent: (e) => events.push(e) });

    expect(result.outcomes.map((o) => o.outcome)).toEqual(projects.map(() => 'delivered'));
    expect(result.outcomes.map((o) => o.projectId)).toEqual(projects);
    for (const p of projects) expect(started(p), p).toBe(1);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(SECRET);
    const records = text.trim().split('\n').map((l) => JSON.parse(l) as JournalRecord);
    for (const p of projects) expect(typesOf(records, p), p).toEqual(['intent', 'started', 'delivered']);
    expect(events.filter((e) => e.event === 'started')).toHaveLength(50);
    // Waiting went through the shared poller: getJobs asked about many jobs at once, never getJob.
    const during = service.requests.slice(before);
    expect(during.some((r) => r.operationName === 'GetJob')).toBe(false);
    expect(Math.max(...during.map((r) => r.jobIds ?? 0))).toBeGreaterThan(1);
  });

  it('rejects with a ValidationError naming the client and sends nothing when the client has no service URL', async () => {
    const before = service.requests.length;
    const real = newClient();
    // Not a client made by createLabelingClient: its URL, which the journal records, is missing.
    const { url, ...withoutUrl } = real;
    expect(url).toBe(service.url);
    const error = await autoLabelMany(withoutUrl as LabelingClient, [input(demoProjectId(53))]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([{ path: 'client.url', message: 'must be the service URL of a client made by createLabelingClient' }]);
    expect(service.requests.length).toBe(before);
    expect(started(demoProjectId(53))).toBe(0);
  });

  it('lists every problem of every input and sends nothing when any input is bad', async () => {
    const before = service.requests.length;
    const journal = createMemoryJournal();
    const bad = [input(demoProjectId(51)), { ...input(''), labelerEmail: 'nope' }, input(demoProjectId(51)), { ...input(demoProjectId(52)), targetAPI: { endpoint: 'ftp://x', secretKey: '' } }];
    const error = await autoLabelMany(newClient(), bad, { journal, concurrency: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'options.concurrency', message: 'must be an integer >= 1' },
      { path: 'inputs[1].projectId', message: 'must be a non-empty string' },
      { path: 'inputs[1].labelerEmail', message: 'must be an e-mail address such as name@example.com' },
      { path: 'inputs[2].projectId', message: `project ${demoProjectId(51)} is also inputs[0]: each project once per run` },
      { path: 'inputs[3].targetAPI.endpoint', message: `must use http or https, not ftp (project ${demoProjectId(52)})` },
      { path: 'inputs[3].targetAPI.secretKey', message: `must be a non-empty string (project ${demoProjectId(52)})` },
    ]);
    expect(service.requests.length).toBe(before);
    expect(journal.records).toEqual([]);
  });

  it('follows the rerun rules when the journal has projects in every state', async () => {
    const c = newClient();
    // A job really started by an earlier run, journaled as started.
    const earlier = await startAutoLabel(c, input(demoProjectId(53)), { allowInsecureEndpoint: true });
    const at = new Date().toISOString();
    const config = { endpoint: model.url, numberOfFilesPerRequest: 2, labelerEmail: 'many@example.com', role: null };
    const journal = createMemoryJournal([
      { type: 'run', at, url: service.url },
      { type: 'intent', at, projectId: demoProjectId(53), config },
      { type: 'started', at, projectId: demoProjectId(53), jobId: earlier.id },
      { type: 'intent', at, projectId: demoProjectId(54), config },
      { type: 'started', at, projectId: demoProjectId(54), jobId: 'job-that-was-delivered' },
      { type: 'outcome', at, projectId: demoProjectId(54), outcome: 'delivered', jobId: 'job-that-was-delivered' },
      { type: 'intent', at, projectId: demoProjectId(55), config },
      { type: 'outcome', at, projectId: demoProjectId(55), outcome: 'not-started', errors: ['[Network] HTTP 503'] },
      { type: 'intent', at, projectId: demoProjectId(56), config },
      { type: 'intent', at, projectId: demoProjectId(57), config },
      { type: 'unknown', at, projectId: demoProjectId(57), error: '[Network] connection lost' },
    ]);
    const projects = ids(53, 58);
    const result = await autoLabelMany(c, projects.map((p) => input(p)), { journal });

    expect(result.worklist.map((p) => p.action)).toEqual(['wait', 'skip', 'skip', 'skip', 'skip', 'start']);
    expect(result.outcomes.map((o) => [o.outcome, o.fromJournal])).toEqual([
      ['delivered', false],
      ['delivered', true],
      ['not-started', true],
      ['outcome-unknown', true],
      ['outcome-unknown', true],
      ['delivered', false],
    ]);
    expect(result.outcomes[0]!.jobId).toBe(earlier.id);
    expect(projects.map(started)).toEqual([1, 0, 0, 0, 0, 1]);

    const again = await autoLabelMany(c, projects.map((p) => input(p)), { journal, retryFailed: true });
    expect(again.worklist.map((p) => p.action)).toEqual(['skip', 'skip', 'start', 'skip', 'skip', 'skip']);
    expect(projects.map(started)).toEqual([1, 0, 1, 0, 0, 1]);

    const unknownToo = await autoLabelMany(c, projects.map((p) => input(p)), { journal, retryUnknown: true });
    expect(unknownToo.outcomes.map((o) => o.outcome)).toEqual(projects.map(() => 'delivered'));
    expect(projects.map(started)).toEqual([1, 0, 1, 1, 1, 1]);
  });

  it('journals unknown and does not start the project again without retryUnknown when the answer to the mutation is lost', async () => {
    const journal = createMemoryJournal();
    const [lost, fine] = [demoProjectId(59), demoProjectId(60)];
    service.dropAnswerFor.add(lost);
    const first = await autoLabelMany(newClient(), [input(lost), input(fine)], { journal });
    expect(first.outcomes.map((o) => o.outcome)).toEqual(['outcome-unknown', 'delivered']);
    expect(first.outcomes[0]!.error?.message).toMatch(/may have started/);
    expect(typesOf(journal.records, lost)).toEqual(['intent', 'unknown']);
    expect(started(lost)).toBe(1); // the service did start it: its id never arrived

    service.dropAnswerFor.clear();
    const rerun = await autoLabelMany(client, [input(lost), input(fine)], { journal });
    expect(rerun.outcomes.map((o) => [o.outcome, o.fromJournal])).toEqual([['outcome-unknown', true], ['delivered', true]]);
    expect([started(lost), started(fine)]).toEqual([1, 1]);
  });

  it('refuses a journal of another configuration unless force, sending nothing', async () => {
    const at = new Date().toISOString();
    const config = { endpoint: model.url, numberOfFilesPerRequest: 2, labelerEmail: 'many@example.com', role: null };
    const records: JournalRecord[] = [
      { type: 'run', at, url: 'https://other.example.com/graphql' },
      { type: 'intent', at, projectId: demoProjectId(1), config },
      { type: 'started', at, projectId: demoProjectId(1), jobId: 'job-1' },
      { type: 'outcome', at, projectId: demoProjectId(1), outcome: 'delivered', jobId: 'job-1' },
    ];
    const before = service.requests.length;
    const journal = createMemoryJournal(records);
    const error = await autoLabelMany(newClient(), [input(demoProjectId(1), { numberOfFilesPerRequest: 5 })], { journal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems.map((p) => p.path)).toEqual(['journal', 'input.options.numberOfFilesPerRequest', 'journal']);
    expect((error as ValidationError).problems.map((p) => p.message)).toEqual([
      `was written for the service at https://other.example.com/graphql; this run uses ${service.url}`,
      `1 project of the journal (${demoProjectId(1)}) was run with files per request 2; this run uses 5`,
      'use another journal file, or force to use this one anyway',
    ]);
    expect(service.requests.length).toBe(before);
    expect(journal.records).toHaveLength(4);

    const forced = await autoLabelMany(client, [input(demoProjectId(1), { numberOfFilesPerRequest: 5 })], { journal, force: true });
    expect(forced.outcomes.map((o) => [o.outcome, o.fromJournal])).toEqual([['delivered', true]]);
  });

  it('plans without sending or writing anything when dryRun is set', async () => {
    const before = service.requests.length;
    const journal = createMemoryJournal();
    const result = await autoLabelMany(newClient(), ids(1, 3).map((p) => input(p)), { journal, dryRun: true });
    expect(result.worklist.map((p) => p.action)).toEqual(['start', 'start', 'start']);
    expect(result.outcomes).toEqual([]);
    expect(service.requests.length).toBe(before);
    expect(journal.records).toEqual([]);
  });

  it('stops starting new jobs when the signal aborts, and a rerun starts each remaining project once', async () => {
    const journal = createMemoryJournal();
    const controller = new AbortController();
    const fresh = ids(61, 72);
    service.mutationDelayMs = 20;
    const first = await autoLabelMany(newClient(), fresh.map((p) => input(p)), {
      journal,
      concurrency: 2,
      signal: controller.signal,
      onEvent: (e) => e.event === 'started' && controller.abort(),
    });
    service.mutationDelayMs = 0;
    const kinds = first.outcomes.map((o) => o.outcome);
    expect(kinds.filter((k) => k === 'interrupted').length).toBeGreaterThan(0);
    expect(kinds.every((k) => k === 'interrupted')).toBe(true);
    const rerun = await autoLabelMany(client, fresh.map((p) => input(p)), { journal });
    expect(rerun.outcomes.map((o) => o.outcome)).toEqual(fresh.map(() => 'delivered'));
    for (const p of fresh) expect(started(p), p).toBe(1);
  });

  it('only starts the jobs when wait is false, and a rerun waits for them without starting any other', async () => {
    const journal = createMemoryJournal();
    const projects = ids(73, 75);
    const first = await autoLabelMany(newClient(), projects.map((p) => input(p)), { journal, wait: false });
    expect(first.outcomes.map((o) => [o.outcome, o.fromJournal])).toEqual(projects.map(() => ['started', false]));
    for (const p of projects) expect(typesOf(journal.records, p)).toEqual(['intent', 'started']);
    const later = await autoLabelMany(client, projects.map((p) => input(p)), { journal });
    expect(later.worklist.map((p) => p.action)).toEqual(['wait', 'wait', 'wait']);
    expect(later.outcomes.map((o) => [o.outcome, o.jobId])).toEqual(first.outcomes.map((o) => ['delivered', o.jobId]));
    expect(projects.map(started)).toEqual([1, 1, 1]);
  });

  it('writes no secret key into the journal or the result when the endpoint quotes it', async () => {
    const journal = createMemoryJournal();
    const leaky = { ...input(demoProjectId(76)), targetAPI: { endpoint: `${model.url}?key=${SECRET}`, secretKey: SECRET } };
    const result = await autoLabelMany(newClient(), [leaky], { journal });
    expect(result.outcomes[0]!.outcome).toBe('delivered');
    expect(JSON.stringify(journal.records)).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(journal.records.find((r) => r.type === 'intent')).toMatchObject({ config: { endpoint: `${model.url}?key=***` } });
  });
});
