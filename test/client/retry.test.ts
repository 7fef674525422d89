import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLabelingClient, NetworkError } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

const input = {
  projectId: 'p1',
  labelerEmail: 'ann@example.com',
  options: { numberOfFilesPerRequest: 1 },
  targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'k3y-k3y' },
};

describe('createLabelingClient: retries', () => {
  let server: MockServer;
  let client: LabelingClient;
  beforeEach(async () => {
    server = await startMockServer();
    client = createLabelingClient({ url: server.url, token: 'test-token', retry: { initialDelayMs: 10, maxDelayMs: 2_000, maxAttempts: 3 } });
  });
  afterEach(async () => {
    client.close();
    await server.close();
  });

  it('retries a query after a 503', async () => {
    server.plan({ status: 503 });
    expect(await client.getCabinet('p', 'LABELER')).toEqual({ id: 'cabinet-p-LABELER' });
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it('retries a query after a 429 and waits at least its Retry-After', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '1' } });
    await client.getCabinet('p', 'LABELER');
    const [first, second] = server.graphqlRequests();
    expect(server.graphqlRequests()).toHaveLength(2);
    // Behaviour, not speed: the server asked for 1 s, so the retry must not come earlier
    // (the back-off without Retry-After would be ~10-25 ms here).
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it('retries a query after a dropped connection', async () => {
    server.plan({ drop: true });
    expect(await client.getCabinet('p', 'LABELER')).toEqual({ id: 'cabinet-p-LABELER' });
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it('gives up after maxAttempts with a NetworkError that carries the status', async () => {
    server.plan({ status: 502 }, { status: 503 }, { status: 504 });
    const error = (await client.getCabinet('p', 'LABELER').catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.status).toBe(504);
    expect(error.message).toMatch(/^\[Network\] HTTP 504 from http:\/\/127\.0\.0\.1:\d+\/graphql \(operation GetCabinet, request [0-9a-f-]{36}\)$/);
    expect(server.graphqlRequests()).toHaveLength(3);
  });

  it('does not wait for a Retry-After beyond maxDelayMs', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '3600' } });
    const error = (await client.getCabinet('p', 'LABELER').catch((e: unknown) => e)) as NetworkError;
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('never retries the mutation after a 503, and says its outcome is unknown', async () => {
    server.plan({ status: 503 });
    const error = (await client.startAutoLabel(input).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.mutationOutcomeUnknown).toBe(true);
    expect(error.message).toContain('a job may have started although its id never arrived: do not start another blindly');
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('never retries the mutation after a dropped connection', async () => {
    server.plan({ drop: true });
    const error = (await client.startAutoLabel(input).catch((e: unknown) => e)) as NetworkError;
    expect(error.mutationOutcomeUnknown).toBe(true);
    expect(server.graphqlRequests()).toHaveLength(1);
    expect(server.jobs.size).toBe(0);
  });

  it('says a refused mutation (429) did not start a job', async () => {
    server.plan({ status: 429 });
    const error = (await client.startAutoLabel(input).catch((e: unknown) => e)) as NetworkError;
    expect(error.mutationOutcomeUnknown).toBe(false);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('times a call out and aborts it on a signal', async () => {
    server.plan({ delayMs: 2_000 });
    const slow = (await client.getCabinet('p', 'LABELER', { timeoutMs: 100 }).catch((e: unknown) => e)) as NetworkError;
    expect(slow.code).toBe('TIMEOUT');
    server.plan({ delayMs: 2_000 });
    const controller = new AbortController();
    const pending = client.getCabinet('p', 'LABELER', { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 50);
    expect(((await pending) as NetworkError).code).toBe('ABORTED');
  });

  it('refuses a call whose signal is already aborted, sending nothing', async () => {
    const error = (await client.getJob('j', { signal: AbortSignal.abort() }).catch((e: unknown) => e)) as NetworkError;
    expect(error.code).toBe('ABORTED');
    expect(server.graphqlRequests()).toHaveLength(0);
  });
});
