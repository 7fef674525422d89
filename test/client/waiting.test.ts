import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, getJob, waitForJob, waitForJobOrThrow, waitForJobs } from '../../src/client/index.js';
import { JobFailedError, JobNotFoundError, JobTimeoutError } from '../../src/client/errors.js';
import type { Job, LabelingClient } from '../../src/client/index.js';
import { advance, advanceUntil, track, until, useFakeClock } from '../support/fakeClock.js';
import { mockJob, startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

// Fake time (setTimeout and Date): the poller's intervals, back-off and time-outs pass in
// steps while the requests travel over real HTTP between them.
describe('waitForJob / waitForJobs', () => {
  let server: MockServer;
  let client: LabelingClient;
  const polls = () => server.graphqlRequests().length;
  beforeEach(async () => {
    server = await startMockServer();
    useFakeClock();
    client = createLabelingClient({
      url: server.url,
      token: 'test-token',
      poll: { intervalMs: 1_000, maxIntervalMs: 2_000 },
      retry: { initialDelayMs: 100, maxAttempts: 2 },
    });
  });
  afterEach(async () => {
    vi.useRealTimers();
    client.close();
    await server.close();
  });

  it('makes one getJobs request per tick for 200 waiting jobs', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `job-${i}`);
    for (const id of ids) server.jobs.set(id, mockJob(id, { status: 'IN_PROGRESS', progress: 10 }));
    const waiting = track(waitForJobs(client, ids, { timeoutMs: 600_000 }));
    // Let the waiters see a few ticks, then end the jobs in two waves.
    await advanceUntil(() => polls() >= 3, 'three polls');
    for (const id of ids.slice(0, 100)) server.jobs.set(id, mockJob(id, { status: 'DELIVERED', progress: 100 }));
    await advanceUntil(() => (server.graphqlRequests().at(-1)!.json!.variables!.jobIds as string[]).length === 100, 'a poll of the last 100');
    for (const id of ids.slice(100)) server.jobs.set(id, mockJob(id, { status: 'FAILED', progress: 40 }));
    await advanceUntil(waiting.settled, 'the wait to end');

    const outcomes = waiting.value() as { outcome: string }[];
    expect(outcomes.map((o) => o.outcome)).toEqual([...Array(100).fill('delivered'), ...Array(100).fill('failed')]);
    const requests = server.graphqlRequests();
    // Every request asked for all jobs still waiting, in one getJobs call: never one per job.
    for (const r of requests) {
      expect(r.json!.operationName).toBe('GetJobs');
      expect([200, 100]).toContain((r.json!.variables!.jobIds as string[]).length);
    }
    expect(requests.length).toBeLessThan(10);
  });

  it('resolves delivered and reports each change of status or progress once', async () => {
    server.jobs.set('j1', mockJob('j1', { status: 'QUEUED' }));
    const seen: Array<[string, number]> = [];
    const done = track(waitForJob(client, 'j1', { onProgress: (job: Job) => seen.push([job.status, job.progress]) }));
    await advanceUntil(() => seen.length === 1, 'the first report');
    server.jobs.set('j1', mockJob('j1', { status: 'IN_PROGRESS', progress: 50 }));
    await advanceUntil(() => seen.length === 2, 'the second report');
    server.jobs.set('j1', mockJob('j1', { status: 'DELIVERED', progress: 100, resultId: 'r1' }));
    await advanceUntil(done.settled, 'the wait to end');
    expect(done.value()).toMatchObject({ outcome: 'delivered', jobId: 'j1', job: { resultId: 'r1' } });
    expect(seen).toEqual([
      ['QUEUED', 0],
      ['IN_PROGRESS', 50],
      ['DELIVERED', 100],
    ]);
  });

  it('resolves failed with the job errors, and the throwing variant throws JobFailedError', async () => {
    const errors = [{ id: 'e1', stack: 'model answered 500', args: { batch: 1 } }];
    server.jobs.set('bad', mockJob('bad', { status: 'FAILED', progress: 30, errors }));
    const outcome = track(waitForJob(client, 'bad'));
    await advanceUntil(outcome.settled, 'the wait to end');
    expect(outcome.value()).toMatchObject({ outcome: 'failed', errors });
    const thrown = track(waitForJobOrThrow(client, 'bad'));
    await advanceUntil(thrown.settled, 'the second wait to end');
    expect(thrown.value()).toBeInstanceOf(JobFailedError);
    expect((thrown.value() as JobFailedError).message).toBe('[Job] job bad failed with 1 error: model answered 500');
  });

  it('times out with the last snapshot when the job is still running at timeoutMs', async () => {
    server.jobs.set('slow', mockJob('slow', { status: 'IN_PROGRESS', progress: 42 }));
    const outcome = track(waitForJob(client, 'slow', { timeoutMs: 5_000 }));
    await advance(4_900);
    expect(outcome.settled()).toBe(false);
    await advanceUntil(outcome.settled, 'the time-out');
    expect(outcome.value()).toMatchObject({ outcome: 'timed-out', jobId: 'slow', job: { progress: 42 } });
    const thrown = track(waitForJobOrThrow(client, 'slow', { timeoutMs: 3_000 }));
    await advanceUntil(thrown.settled, 'the second time-out');
    expect(thrown.value()).toBeInstanceOf(JobTimeoutError);
    expect((thrown.value() as Error).message).toBe('[Job] job slow did not end within 3000 ms (last seen IN_PROGRESS, 42%)');
  });

  it('waits without limit when timeoutMs is Infinity or beyond what setTimeout holds', async () => {
    server.jobs.set('long', mockJob('long', { status: 'IN_PROGRESS', progress: 1 }));
    const forever = track(waitForJob(client, 'long', { timeoutMs: Infinity }));
    const month = track(waitForJob(client, 'long', { timeoutMs: 30 * 24 * 3600_000 }));
    await advanceUntil(() => polls() >= 3, 'three polls');
    expect(forever.settled() || month.settled()).toBe(false);
    server.jobs.set('long', mockJob('long', { status: 'DELIVERED', progress: 100 }));
    await advanceUntil(() => forever.settled() && month.settled(), 'both waits to end');
    expect([forever.value(), month.value()].map((o) => (o as { outcome: string }).outcome)).toEqual(['delivered', 'delivered']);
    const job = track(getJob(client, 'long', { timeoutMs: Infinity }));
    await until(job.settled, 'getJob');
    expect(job.value()).toMatchObject({ status: 'DELIVERED' });
  });

  it('polls at the interval of the wait when it is shorter than the client default', async () => {
    const slow = createLabelingClient({ url: server.url, token: 'test-token', poll: { intervalMs: 60_000 } });
    try {
      server.jobs.set('q', mockJob('q', { status: 'IN_PROGRESS' }));
      const pending = track(waitForJob(slow, 'q', { intervalMs: 1_000, maxIntervalMs: 1_000 }));
      // With the client's 60 s interval the second request would come only after a minute.
      await advanceUntil(() => polls() >= 3, 'three polls', 5_000);
      server.jobs.set('q', mockJob('q', { status: 'DELIVERED', progress: 100 }));
      await advanceUntil(pending.settled, 'the wait to end', 5_000);
      expect(pending.value()).toMatchObject({ outcome: 'delivered' });
    } finally {
      slow.close();
    }
  });

  it('stops waiting on abort', async () => {
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS' }));
    const controller = new AbortController();
    const pending = track(waitForJob(client, 'j', { signal: controller.signal }));
    await advanceUntil(() => polls() >= 1, 'the first poll');
    controller.abort();
    await until(pending.settled, 'the wait to end');
    expect(pending.value()).toMatchObject({ code: 'ABORTED' });
  });

  it('turns a null job into not-found after the grace period', async () => {
    const outcome = track(waitForJob(client, 'ghost', { notFoundGraceMs: 3_000 }));
    await advanceUntil(outcome.settled, 'not-found');
    expect(outcome.value()).toEqual({ outcome: 'not-found', jobId: 'ghost', job: null });
    expect(polls()).toBeGreaterThanOrEqual(2);
    const thrown = track(waitForJobOrThrow(client, 'ghost', { notFoundGraceMs: 2_000 }));
    await advanceUntil(thrown.settled, 'the second not-found');
    expect(thrown.value()).toBeInstanceOf(JobNotFoundError);
  });

  it('turns a job stuck in NONE into not-found, and tolerates null entries among live jobs', async () => {
    server.jobs.set('stuck', mockJob('stuck', { status: 'NONE' }));
    server.jobs.set('ok', mockJob('ok', { status: 'DELIVERED', progress: 100 }));
    const outcomes = track(waitForJobs(client, ['stuck', 'ok', 'missing'], { notFoundGraceMs: 3_000 }));
    await advanceUntil(outcomes.settled, 'the waits to end');
    const list = outcomes.value() as { outcome: string; job: unknown }[];
    expect(list.map((o) => o.outcome)).toEqual(['not-found', 'delivered', 'not-found']);
    expect(list[0]!.job).toMatchObject({ status: 'NONE' });
  });

  it('keeps waiting through a transient failure', async () => {
    server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
    server.plan({ status: 503 }, { status: 503 }, { status: 503 });
    const outcome = track(waitForJob(client, 'j'));
    await advanceUntil(outcome.settled, 'the wait to end');
    expect(outcome.value()).toMatchObject({ outcome: 'delivered' });
    expect(polls()).toBe(4);
  });

  it('asks about a waiter that joins later in the same request as the others', async () => {
    server.jobs.set('a', mockJob('a', { status: 'IN_PROGRESS' }));
    server.jobs.set('b', mockJob('b', { status: 'IN_PROGRESS' }));
    const first = track(waitForJob(client, 'a'));
    await advanceUntil(() => polls() >= 2, 'two polls');
    const second = track(waitForJob(client, 'b'));
    await advanceUntil(() => (server.graphqlRequests().at(-1)!.json!.variables!.jobIds as string[]).join() === 'a,b', 'a poll of both');
    server.jobs.set('a', mockJob('a', { status: 'DELIVERED', progress: 100 }));
    server.jobs.set('b', mockJob('b', { status: 'DELIVERED', progress: 100 }));
    await advanceUntil(() => first.settled() && second.settled(), 'both waits to end');
    expect([first.value(), second.value()].map((o) => (o as { outcome: string }).outcome)).toEqual(['delivered', 'delivered']);
    const asked = server.graphqlRequests().map((r) => (r.json!.variables!.jobIds as string[]).join(','));
    expect(asked.every((ids) => ids === 'a' || ids === 'a,b')).toBe(true);
  });

  it('backs the interval off to maxIntervalMs while nothing changes', async () => {
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS', progress: 5 }));
    const pending = track(waitForJob(client, 'j'));
    await advanceUntil(() => polls() >= 6, 'six polls');
    server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
    await advanceUntil(pending.settled, 'the wait to end');
    const at = server.graphqlRequests().map((r) => r.receivedAt);
    // intervalMs 1000 grows by half per quiet tick (1500), up to maxIntervalMs 2000.
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(1_500);
    expect(at[5]! - at[4]!).toBeGreaterThanOrEqual(2_000);
    expect(at[5]! - at[4]!).toBeLessThan(2_200);
  });

  it('waits at least the Retry-After of a refused poll before asking again', async () => {
    server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
    // Both attempts of the first poll (retry.maxAttempts is 2) are refused with Retry-After.
    const busy = { status: 429, headers: { 'retry-after': '3' } };
    server.plan(busy, busy);
    const outcome = track(waitForJob(client, 'j'));
    await advanceUntil(outcome.settled, 'the wait to end');
    expect(outcome.value()).toMatchObject({ outcome: 'delivered' });
    const at = server.graphqlRequests().map((r) => r.receivedAt);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(3_000);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(3_000);
  });

  it('ends every wait when the client is closed, and aborts waitForJobs on a signal', async () => {
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS' }));
    const controller = new AbortController();
    const many = track(waitForJobs(client, ['j', 'k'], { signal: controller.signal }));
    controller.abort();
    await until(many.settled, 'the group to end');
    expect(many.value()).toMatchObject({ code: 'ABORTED', name: 'NetworkError' });
    const one = track(waitForJob(client, 'j'));
    client.close();
    await until(one.settled, 'the wait to end');
    expect(one.value()).toMatchObject({ code: 'ABORTED', message: '[Network] the client was closed while waiting for job j' });
  });

  it('ends the other waits of waitForJobs when one of them fails', async () => {
    server.jobs.set('a', mockJob('a', { status: 'IN_PROGRESS', progress: 10 }));
    server.jobs.set('b', mockJob('b', { status: 'IN_PROGRESS', progress: 10 }));
    const failed = track(
      waitForJobs(client, ['a', 'b'], {
        onProgress: (job) => {
          if (job.id === 'a') throw new Error('display failed');
        },
      }),
    );
    await advanceUntil(failed.settled, 'the group to end');
    expect(failed.value()).toMatchObject({ message: 'display failed' });
    const asked = polls();
    await advance(10_000); // several intervals
    expect(polls()).toBe(asked);
  });

  it('ends the wait with the error when the failure is not transient', async () => {
    server.validTokens.clear();
    const failed = track(waitForJob(client, 'j'));
    await advanceUntil(failed.settled, 'the wait to end');
    expect(failed.value()).toMatchObject({ code: 'AUTH' });
  });
});
