import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, getCabinet, getJob, startAutoLabel, waitForJob, waitForJobs } from '../../src/client/index.js';
import { NetworkError } from '../../src/client/errors.js';
import type { LabelingClient, LabelingClientOptions } from '../../src/client/index.js';
import { advance, track, until, useFakeClock } from '../support/fakeClock.js';
import { mockJob, startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

const jsonErrors = (status: number, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ errors: [{ message: status === 429 ? 'Too many requests' : 'Service unavailable' }] }),
});
const input = autoLabelInput();

describe('faults during calls and waits', () => {
  let server: MockServer;
  let client: LabelingClient;
  const make = (extra: Partial<LabelingClientOptions> = {}) =>
    (client = createLabelingClient({ url: server.url, token: 'test-token', poll: { intervalMs: 1_000, maxIntervalMs: 4_000 }, ...extra }));
  beforeEach(async () => {
    server = await startMockServer();
    useFakeClock();
  });
  afterEach(async () => {
    vi.useRealTimers();
    client.close();
    await server.close();
  });

  it('retries a query answered 503 with GraphQL errors in a JSON body', async () => {
    make({ retry: { maxAttempts: 2, initialDelayMs: 100 } });
    server.plan(jsonErrors(503));
    const call = track(getCabinet(client, 'p', 'LABELER'));
    await until(() => server.graphqlRequests().length === 1, 'the first request');
    await advance(500);
    await until(call.settled, 'the call to settle');
    expect(call.value()).toEqual({ id: 'cabinet-p-LABELER' });
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it.each([
    ['{"data":null}', 503],
    ['{"data":{}}', 502],
    ['{"message":"busy"}', 429],
  ])('retries a query answered %s with HTTP %i (the status decides, not the body)', async (body, status) => {
    make({ retry: { maxAttempts: 2, initialDelayMs: 100 } });
    server.plan({ status, headers: { 'content-type': 'application/json' }, body });
    const call = track(getCabinet(client, 'p', 'LABELER'));
    await until(() => server.graphqlRequests().length === 1, 'the first request');
    await advance(500);
    await until(call.settled, 'the call to settle');
    expect(call.value()).toEqual({ id: 'cabinet-p-LABELER' });
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it('gives a NetworkError with the status for a 404 whose body is JSON without errors', async () => {
    make({ retry: { maxAttempts: 3 } });
    server.plan({ status: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"no route"}' });
    const call = track(getJob(client, 'j'));
    await until(call.settled, 'the call to settle');
    expect(call.value()).toBeInstanceOf(NetworkError);
    expect(call.value()).toMatchObject({ code: 'NETWORK', status: 404 });
    expect(((call.value() as Error).cause as Error).message).toContain('no route');
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('gives a NetworkError with retryAfterMs for a mutation answered 429 with GraphQL errors', async () => {
    make();
    server.plan(jsonErrors(429, { 'retry-after': '3' }));
    const call = track(startAutoLabel(client, input));
    await until(call.settled, 'the call to settle');
    const error = call.value() as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'NETWORK', status: 429, retryAfterMs: 3_000, mutationOutcomeUnknown: false });
    expect(error.message).toMatch(/^\[Network\] HTTP 429 from .*: Too many requests/);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('keeps waiting through 429 and 503 answers with JSON bodies, honouring Retry-After', async () => {
    make({ retry: { maxAttempts: 1 } });
    server.jobs.set('j', mockJob('j', { status: 'DELIVERED', progress: 100 }));
    server.plan(jsonErrors(429, { 'retry-after': '5' }), jsonErrors(503));
    const wait = track(waitForJob(client, 'j', { timeoutMs: 60_000 }));
    await advance(100);
    await until(() => server.graphqlRequests().length === 1, 'the first poll');
    await advance(4_800);
    expect(server.graphqlRequests()).toHaveLength(1); // the server asked for 5 s
    await advance(300);
    await until(() => server.graphqlRequests().length === 2, 'the poll after Retry-After');
    await advance(12_000);
    await until(wait.settled, 'the wait to end');
    expect(wait.value()).toMatchObject({ outcome: 'delivered' });
    expect(server.graphqlRequests()).toHaveLength(3);
  });

  it('ends a wait at once with the HTTP error when the service answers 404', async () => {
    make({ retry: { maxAttempts: 3 } });
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS' }));
    server.plan({ status: 404, body: 'no such path' });
    const wait = track(waitForJob(client, 'j', { timeoutMs: 60_000 }));
    await advance(100);
    await until(wait.settled, 'the wait to end');
    expect(wait.value()).toBeInstanceOf(NetworkError);
    expect(wait.value()).toMatchObject({ code: 'NETWORK', status: 404 });
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('sends nothing more after close() during a backing-off poll', async () => {
    make({ retry: { maxAttempts: 4, initialDelayMs: 1_000 } });
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS' }));
    server.plan({ status: 503 }, { status: 503 }, { status: 503 });
    const wait = track(waitForJob(client, 'j', { timeoutMs: 600_000 }));
    await advance(100);
    await until(() => server.graphqlRequests().length === 1, 'the first poll');
    await advance(100); // the query's retry is now backing off (1–2.5 s)
    client.close();
    await until(wait.settled, 'the wait to end');
    expect(wait.value()).toMatchObject({ code: 'ABORTED', message: '[Network] the client was closed while waiting for job j' });
    await advance(60_000, 1_000);
    const late = track(getJob(client, 'j'));
    await until(late.settled, 'the call after close to settle');
    expect(late.value()).toMatchObject({ code: 'ABORTED' });
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('sends nothing more after close() while a query backs off between retries', async () => {
    make({ retry: { maxAttempts: 4, initialDelayMs: 1_000 } });
    server.plan({ status: 503 }, { status: 503 }, { status: 503 });
    const call = track(getCabinet(client, 'p', 'LABELER'));
    await until(() => server.graphqlRequests().length === 1, 'the first attempt');
    client.close();
    await until(call.settled, 'the call to end');
    expect(call.value()).toMatchObject({ code: 'ABORTED', message: expect.stringMatching(/^\[Network\] the client was closed during the call /) });
    await advance(30_000, 1_000);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('adds one abort listener for waitForJobs on 12 ids, and Node prints no MaxListenersExceededWarning', async () => {
    make();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const ids = Array.from({ length: 12 }, (_, i) => `job-${i}`);
      for (const id of ids) server.jobs.set(id, mockJob(id, { status: 'IN_PROGRESS' }));
      const controller = new AbortController();
      const wait = track(waitForJobs(client, ids, { signal: controller.signal, timeoutMs: 60_000 }));
      await advance(100);
      await until(() => server.graphqlRequests().length === 1, 'the first poll');
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      for (const id of ids) server.jobs.set(id, mockJob(id, { status: 'DELIVERED', progress: 100 }));
      await advance(2_000);
      await until(wait.settled, 'the wait to end');
      expect((wait.value() as Array<{ outcome: string }>).map((o) => o.outcome)).toEqual(Array(12).fill('delivered'));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
