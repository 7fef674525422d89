import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, JobFailedError, JobNotFoundError, JobTimeoutError } from '../../src/client/index.js';
import type { Job, LabelingClient } from '../../src/client/index.js';
import { mockJob, startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

describe('waitForJob / waitForJobs', () => {
  let server: MockServer;
  let client: LabelingClient;
  beforeEach(async () => {
    server = await startMockServer();
    client = createLabelingClient({
      url: server.url,
      token: 'test-token',
      poll: { intervalMs: 20, maxIntervalMs: 40 },
      retry: { initialDelayMs: 5, maxAttempts: 2 },
    });
  });
  afterEach(async () => {
    client.close();
    await server.close();
  });

  it('makes one getJobs request per tick for 200 waiting jobs', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `job-${i}`);
    for (const id of ids) server.jobs.set(id, mockJob(id, { status: 'IN_PROGRESS', progress: 10 }));
    const waiting = client.waitForJobs(ids, { timeoutMs: 10_000 });
    // Let the waiters see a few ticks, then end the jobs in two waves.
    await vi.waitFor(() => expect(server.graphqlRequests().length).toBeGreaterThanOrEqual(3));
    for (const id of ids.slice(0, 100)) server.jobs.set(id, mockJob(id, { status: 'DELIVERED', progress: 100 }));
    await vi.waitFor(() => expect(server.graphqlRequests().at(-1)!.json!.variables!.jobIds).toHaveLength(100));
    for (const id of ids.slice(100)) server.jobs.set(id, mockJob(id, { status: 'FAILED', progress: 40 }));
    const outcomes = await waiting;

    expect(outcomes.map((o) => o.outcome)).toEqual([...Array(100).fill('delivered'), ...Array(100).fill('failed')]);
    const requests = server.graphqlRequests();
    // Every request asked for all jobs still waiting, in one getJobs call: never one per job.
    for (const r of requests) {
      expect(r.json!.operationName).toBe('GetJobs');
      expect([200, 100]).toContain((r.json!.variables!.jobIds as string[]).length);
    }
    expect(requests.length).toBeLessThan(200);
  });

  it('resolves delivered and reports each change of status or progress once', async () => {
    server.jobs.set('j1', mockJob('j1', { status: 'QUEUED' }));
    const seen: Array<[string, number]> = [];
    const done = client.waitForJob('j1', { onProgress: (job: Job) => seen.push([job.status, job.progress]) });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    server.jobs.set('j1', mockJob('j1', { status: 'IN_PROGRESS', progress: 50 }));
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    server.jobs.set('j1', mockJob('j1', { status: 'DELIVERED', progress: 100, resultId: 'r1' }));
    const outcome = await done;
    expect(outcome).toMatchObject({ outcome: 'delivered', jobId: 'j1', job: { resultId: 'r1' } });
    expect(seen).toEqual([
      ['QUEUED', 0],
      ['IN_PROGRESS', 50],
      ['DELIVERED', 100],
    ]);
  });

  it('resolves failed with the job errors, and the throwing variant throws JobFailedError', async () => {
    const errors = [{ id: 'e1', stack: 'model answered 500', args: { batch: 1 } }];
    server.jobs.set('bad', mockJob('bad', { status: 'FAILED', progress: 30, errors }));
    expect(await client.waitForJob('bad')).toMatchObject({ outcome: 'failed', errors });
    const error = await client.waitForJobOrThrow('bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).message).toBe('[Job] job bad failed with 1 error: model answered 500');
  });

  it('times out with the last snapshot', async () => {
    server.jobs.set('slow', mockJob('slow', { status: 'IN_PROGRESS', progress: 42 }));
    const outcome = await client.waitForJob('slow', { timeoutMs: 150 });
    expect(outcome).toMatchObject({ outcome: 'timed-out', jobId: 'slow', job: { progress: 42 } });
    const error = await client.waitForJobOrThrow('slow', { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobTimeoutError);
    expect((error as Error).message).toBe('[Job] job slow did not end within 100 ms (last seen IN_PROGRESS, 42%)');
  });

  it('waits without limit when timeoutMs is Infinity or beyond what setTimeout holds', async () => {
    server.jobs.set('long', mockJob('long', { status: 'IN_PROGRESS', progress: 1 }));
    const forever = client.waitForJob('long', { timeoutMs: Infinity });
    const month = client.waitForJob('long', { timeoutMs: 30 * 24 * 3600_000 });
    await vi.waitFor(() => expect(server.graphqlRequests().length).toBeGreaterThanOrEqual(3));
    server.jobs.set('long', mockJob('long', { status: 'DELIVERED', progress: 100 }));
    expect((await Promise.all([forever, month])).map((o) => o.outcome)).toEqual(['delivered', 'delivered']);
    expect(await client.getJob('long', { timeoutMs: Infinity })).toMatchObject({ status: 'DELIVERED' });
  });

  it('polls at the interval of the wait when it is shorter than the client default', async () => {
    const slow = createLabelingClient({ url: server.url, token: 'test-token', poll: { intervalMs: 60_000 } });
    try {
      server.jobs.set('q', mockJob('q', { status: 'IN_PROGRESS' }));
      const pending = slow.waitForJob('q', { intervalMs: 20, maxIntervalMs: 20 });
      // With the client's 60 s interval the second request would come only after a minute.
      await vi.waitFor(() => expect(server.graphqlRequests().length).toBeGreaterThanOrEqual(3), { timeout: 5_000 });
      server.jobs.set('q', mockJob('q', { status: 'DELIVERED', progress: 100 }));
      expect(await pending).toMatchObject({ outcome: 'delivered' });
    } finally {
      slow.close();
    }
  });

  it('stops waiting on abort', async () => {
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS' }));
    const controller = new AbortController();
    const pending = client.waitForJob('j', { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 60);
    expect(await pending).toMatchObject({ code: 'ABORTED' });
  });

  it('turns a null job into not-found after the grace period', async () => {
    const outcome = await client.waitForJob('ghost', { notFoundGraceMs: 60 });
    expect(outcome).toEqual({ outcome: 'not-found', jobId: 'ghost', job: null });
    expect(server.graphqlRequests().length).toBeGreaterThanOrEqual(2);
    const error = await client.waitForJobOrThrow('ghost', { notFoundGraceMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobNotFoundError);
  });

  it('turns a job stuck in NONE into not-found, and tolerates null entries among live jobs', async () => {
    server.jobs.set('stuck', mockJob('stuck', { status: 'NONE' }));
    server.jobs.set('ok', mockJob('ok', { status: 'DELIVERED', progress: 100 }));
    const outcomes = await client.waitForJobs(['stuck', 'ok', 'missing'], { notFoundGraceMs: 60 });
    expect(outcomes.map((o) => o.outcome)).toEqual(['not-found', 'delivered', 'not-found']);
    expect(outcomes[0]!.job).toMatchObject({ status: 'NONE' });
  });

  it('keeps waiting through a transient failure', async () => {
    server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
    server.plan({ status: 503 }, { status: 503 }, { status: 503 });
    expect(await client.waitForJob('j')).toMatchObject({ outcome: 'delivered' });
    expect(server.graphqlRequests().length).toBe(4);
  });

  it('asks about a waiter that joins later in the same request as the others', async () => {
    server.jobs.set('a', mockJob('a', { status: 'IN_PROGRESS' }));
    server.jobs.set('b', mockJob('b', { status: 'IN_PROGRESS' }));
    const first = client.waitForJob('a');
    await vi.waitFor(() => expect(server.graphqlRequests().length).toBeGreaterThanOrEqual(2));
    const second = client.waitForJob('b');
    await vi.waitFor(() => expect(server.graphqlRequests().at(-1)!.json!.variables!.jobIds).toEqual(['a', 'b']));
    server.jobs.set('a', mockJob('a', { status: 'DELIVERED', progress: 100 }));
    server.jobs.set('b', mockJob('b', { status: 'DELIVERED', progress: 100 }));
    expect((await Promise.all([first, second])).map((o) => o.outcome)).toEqual(['delivered', 'delivered']);
    const asked = server.graphqlRequests().map((r) => (r.json!.variables!.jobIds as string[]).join(','));
    expect(asked.every((ids) => ids === 'a' || ids === 'a,b')).toBe(true);
  });

  it('backs the interval off to maxIntervalMs while nothing changes', async () => {
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS', progress: 5 }));
    const pending = client.waitForJob('j');
    await vi.waitFor(() => expect(server.graphqlRequests().length).toBeGreaterThanOrEqual(6), { timeout: 5_000 });
    server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
    await pending;
    const at = server.graphqlRequests().map((r) => r.receivedAt);
    // intervalMs 20 grows by half per quiet tick up to maxIntervalMs 40: the later gaps are at
    // least 40 ms (a lower bound, which a slow machine cannot break).
    expect(at[5]! - at[4]!).toBeGreaterThanOrEqual(39);
  });

  it('waits at least the Retry-After of a refused poll before asking again', async () => {
    server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
    // Both attempts of the first poll (retry.maxAttempts is 2) are refused with Retry-After.
    const busy = { status: 429, headers: { 'retry-after': '0.3' } };
    server.plan(busy, busy);
    expect(await client.waitForJob('j')).toMatchObject({ outcome: 'delivered' });
    const at = server.graphqlRequests().map((r) => r.receivedAt);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(290);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(290);
  });

  it('ends every wait when the client is closed, and aborts waitForJobs on a signal', async () => {
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS' }));
    const controller = new AbortController();
    const many = client.waitForJobs(['j', 'k'], { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await many).toMatchObject({ code: 'ABORTED', name: 'NetworkError' });
    const one = client.waitForJob('j').catch((e: unknown) => e);
    client.close();
    expect(await one).toMatchObject({ code: 'ABORTED', message: '[Network] the client was closed while waiting for job j' });
  });

  it('ends the other waits of waitForJobs when one of them fails', async () => {
    server.jobs.set('a', mockJob('a', { status: 'IN_PROGRESS', progress: 10 }));
    server.jobs.set('b', mockJob('b', { status: 'IN_PROGRESS', progress: 10 }));
    const error = await client
      .waitForJobs(['a', 'b'], {
        onProgress: (job) => {
          if (job.id === 'a') throw new Error('display failed');
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'display failed' });
    const asked = server.graphqlRequests().length;
    await new Promise((r) => setTimeout(r, 150)); // several intervals of 20-40 ms
    expect(server.graphqlRequests()).toHaveLength(asked);
  });

  it('ends the wait with the error when the failure is not transient', async () => {
    server.validTokens.clear();
    const error = await client.waitForJob('j').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'AUTH' });
  });
});
