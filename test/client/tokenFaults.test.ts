import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientCredentials, createLabelingClient, getCabinet, getJob, getJobs, getLabelSets, isLabelkitError, refreshingToken, startAutoLabel } from '../../src/client/index.js';
import { AuthError, NetworkError } from '../../src/client/errors.js';
import type { LabelingClient } from '../../src/client/index.js';
import { advance, track, until, useFakeClock } from '../support/fakeClock.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

const SECRET = 'client-secret-SENTINEL-3b9f';
const input = autoLabelInput();

describe('the token request under faults', () => {
  let server: MockServer;
  let client: LabelingClient;
  beforeEach(async () => {
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET });
    useFakeClock();
  });
  afterEach(async () => {
    vi.useRealTimers();
    client.close();
    await server.close();
  });

  it('fails the call naming the token endpoint when the token request hangs, then asks again and recovers', async () => {
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET, tokenTimeoutMs: 2_000 }), retry: { maxAttempts: 1 } });
    server.tokenPlan({ hang: true });
    const first = track(getCabinet(client, 'p', 'LABELER'));
    await until(() => server.tokenRequests === 1, 'the first token request');
    await advance(2_000);
    await until(first.settled, 'the first call to settle');
    const error = first.value() as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'TIMEOUT', phase: 'token' });
    expect(error.message).toMatch(/token endpoint http:\/\/127\.0\.0\.1:\d+\/api\/oauth\/token .*2000 ms.*GetCabinet/);
    expect(server.graphqlRequests()).toHaveLength(0);

    // The endpoint has recovered: the failed request was forgotten, the next call asks again.
    const second = track(getCabinet(client, 'p', 'LABELER'));
    await until(second.settled, 'the second call to settle');
    expect(second.value()).toEqual({ id: 'cabinet-p-LABELER' });
    expect(server.tokenRequests).toBe(2);
    expect(server.graphqlRequests().map((r) => r.headers.authorization)).toEqual(['Bearer issued-1']);
  });

  it('times a hung getToken out within half the call time-out by default', async () => {
    let calls = 0;
    server.validTokens.add('dyn-2');
    client = createLabelingClient({
      url: server.url,
      timeoutMs: 8_000,
      retry: { maxAttempts: 1 },
      auth: refreshingToken(() => (++calls === 1 ? new Promise<string>(() => {}) : 'dyn-2')),
    });
    const first = track(getJob(client, 'j'));
    await advance(4_000);
    await until(first.settled, 'the first call to settle');
    expect(first.value()).toMatchObject({ name: 'NetworkError', code: 'TIMEOUT', phase: 'token' });
    expect((first.value() as Error).message).toContain('getToken() did not return a token within 4000 ms');
    const second = track(getJob(client, 'j'));
    await until(second.settled, 'the second call to settle');
    expect(second.value()).toBeNull();
  });

  it('treats a token endpoint answering 500 as a network fault of that endpoint, and retries the query through it', async () => {
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }), retry: { maxAttempts: 1 } });
    server.tokenPlan({ status: 500 });
    const failed = track(getCabinet(client, 'p', 'LABELER'));
    await until(failed.settled, 'the call to settle');
    const error = failed.value() as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'NETWORK', status: 500, phase: 'token', mutationOutcomeUnknown: false });
    expect(error.message).toMatch(/the token endpoint http:\/\/127\.0\.0\.1:\d+\/api\/oauth\/token answered HTTP 500 /);
    expect(error.message).not.toContain('refused the client credentials');

    const retrying = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }), retry: { maxAttempts: 2, initialDelayMs: 100 } });
    try {
      server.tokenPlan({ status: 503 });
      const recovered = track(getCabinet(retrying, 'p', 'LABELER'));
      await until(() => server.tokenRequests === 2, 'the first token request of the retrying client');
      await advance(1_000); // the back-off: 100 ms times a jitter of 1.5–2.5
      await until(recovered.settled, 'the retried call to settle');
      expect(recovered.value()).toEqual({ id: 'cabinet-p-LABELER' });
      expect(server.tokenRequests).toBe(3);
    } finally {
      retrying.close();
    }
  });

  it('keeps refused client credentials an AuthError of the token phase', async () => {
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: 'wrong-secret' }), retry: { maxAttempts: 3 } });
    const failed = track(getCabinet(client, 'p', 'LABELER'));
    await until(failed.settled, 'the call to settle');
    expect(failed.value()).toBeInstanceOf(AuthError);
    expect(failed.value()).toMatchObject({ phase: 'token', status: 401 });
    expect(server.tokenRequests).toBe(1); // not retried: the credentials are wrong
  });

  it('sends no call without Authorization after a failed first token request', async () => {
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }), retry: { maxAttempts: 1 } });
    server.tokenPlan({ status: 500 });
    const first = track(getCabinet(client, 'p', 'LABELER'));
    await until(first.settled, 'the first call to settle');
    expect(isLabelkitError(first.value())).toBe(true);
    // Five calls, the mutation among them, after the failure.
    const later = [
      track(getCabinet(client, 'a', 'LABELER')),
      track(getJob(client, 'j')),
      track(getJobs(client, ['j', 'k'])),
      track(getLabelSets(client, 'c')),
      track(startAutoLabel(client, input)),
    ];
    await until(() => later.every((t) => t.settled()), 'the five calls to settle');
    const sent = server.graphqlRequests();
    expect(sent).toHaveLength(5);
    expect(sent.map((r) => r.headers.authorization)).toEqual(Array(5).fill('Bearer issued-1'));
    expect(server.jobs.size).toBe(1);
  });
});
