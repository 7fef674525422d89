import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, getCabinet, getJob, startAutoLabel } from '../../src/client/index.js';
import { NetworkError } from '../../src/client/errors.js';
import type { LabelingClient } from '../../src/client/index.js';
import { advance, advanceUntil, track, until, useFakeClock } from '../support/fakeClock.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

const input = autoLabelInput();

// Fake time: back-off delays, Retry-After and time-outs pass in steps while the requests
// travel over real HTTP between them.
describe('createLabelingClient: retries', () => {
  let server: MockServer;
  let client: LabelingClient;
  /** Runs a call to its end while fake time passes; resolves with its result or its error. */
  const settle = async (promise: Promise<unknown>): Promise<unknown> => {
    const call = track(promise);
    await advanceUntil(call.settled, 'the call to settle');
    return call.value();
  };
  beforeEach(async () => {
    server = await startMockServer();
    useFakeClock();
    client = createLabelingClient({ url: server.url, token: 'test-token', retry: { initialDelayMs: 100, maxDelayMs: 2_000, maxAttempts: 3 } });
  });
  afterEach(async () => {
    vi.useRealTimers();
    client.close();
    await server.close();
  });

  it('retries a query after a 503', async () => {
    server.plan({ status: 503 });
    expect(await settle(getCabinet(client, 'p', 'LABELER'))).toEqual({ id: 'cabinet-p-LABELER' });
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it('retries a query after a 429 and waits at least its Retry-After', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '1' } });
    await settle(getCabinet(client, 'p', 'LABELER'));
    const [first, second] = server.graphqlRequests();
    expect(server.graphqlRequests()).toHaveLength(2);
    // The server asked for 1 s, so the retry must not come earlier (the back-off without
    // Retry-After would be 150-250 ms here). Date is fake: receivedAt is fake time.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1_000);
  });

  it('sends nothing more when the call times out while its retry waits for the Retry-After', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '2' } });
    const error = await settle(getCabinet(client, 'p', 'LABELER', { timeoutMs: 1_000 }));
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    // The wait ended with the call: no request comes at 2 s.
    await advance(3_000);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('retries a query after a dropped connection', async () => {
    server.plan({ drop: true });
    expect(await settle(getCabinet(client, 'p', 'LABELER'))).toEqual({ id: 'cabinet-p-LABELER' });
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it('gives up after maxAttempts with a NetworkError that carries the status', async () => {
    server.plan({ status: 502 }, { status: 503 }, { status: 504 });
    const error = (await settle(getCabinet(client, 'p', 'LABELER'))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.status).toBe(504);
    expect(error.message).toMatch(/^\[Network\] HTTP 504 from http:\/\/127\.0\.0\.1:\d+\/graphql \(operation GetCabinet, request [0-9a-f-]{36}\)$/);
    expect(server.graphqlRequests()).toHaveLength(3);
  });

  it('does not wait for a Retry-After beyond maxDelayMs', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '3600' } });
    const error = (await settle(getCabinet(client, 'p', 'LABELER'))) as NetworkError;
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('never retries the mutation after a 503, and says its outcome is unknown', async () => {
    server.plan({ status: 503 });
    const error = (await settle(startAutoLabel(client, input))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.mutationOutcomeUnknown).toBe(true);
    expect(error.message).toContain('a job may have started although its id never arrived: do not start another blindly');
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('never retries the mutation after a dropped connection', async () => {
    server.plan({ drop: true });
    const error = (await settle(startAutoLabel(client, input))) as NetworkError;
    expect(error.mutationOutcomeUnknown).toBe(true);
    expect(server.graphqlRequests()).toHaveLength(1);
    expect(server.jobs.size).toBe(0);
  });

  it('says a refused mutation (429) did not start a job', async () => {
    server.plan({ status: 429 });
    const error = (await settle(startAutoLabel(client, input))) as NetworkError;
    expect(error.mutationOutcomeUnknown).toBe(false);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('times a call out and aborts it on a signal', async () => {
    server.plan({ delayMs: 2_000 });
    const slow = (await settle(getCabinet(client, 'p', 'LABELER', { timeoutMs: 1_000 }))) as NetworkError;
    expect(slow.code).toBe('TIMEOUT');
    server.plan({ delayMs: 2_000 });
    const controller = new AbortController();
    const pending = track(getCabinet(client, 'p', 'LABELER', { signal: controller.signal }));
    await until(() => server.graphqlRequests().length === 2, 'the second request');
    controller.abort();
    await until(pending.settled, 'the abort');
    expect((pending.value() as NetworkError).code).toBe('ABORTED');
  });

  it('refuses a call whose signal is already aborted, sending nothing', async () => {
    const error = (await settle(getJob(client, 'j', { signal: AbortSignal.abort() }))) as NetworkError;
    expect(error.code).toBe('ABORTED');
    expect(server.graphqlRequests()).toHaveLength(0);
  });
});
