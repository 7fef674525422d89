import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientCredentials, createLabelingClient, getCabinet, getJob, refreshingToken, startAutoLabel } from '../../src/client/index.js';
import { AuthError } from '../../src/client/errors.js';
import type { LabelingClient } from '../../src/client/index.js';
import { advanceUntil, track, until, useFakeClock } from '../support/fakeClock.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

const SECRET = 'client-secret-SENTINEL-7f3a';

describe('createLabelingClient: auth', () => {
  let server: MockServer;
  let client: LabelingClient | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    client?.close();
    await server.close();
  });

  it('calls getToken and refreshes through it after an Unauthorized answer', async () => {
    server = await startMockServer({ validTokens: [] });
    let n = 0;
    client = createLabelingClient({ url: server.url, auth: refreshingToken(async () => `dyn-${++n}`) });
    server.validTokens.add('dyn-2');
    expect(await getCabinet(client, 'p', 'LABELER')).toEqual({ id: 'cabinet-p-LABELER' });
    expect(n).toBe(2);
    expect(server.graphqlRequests().map((r) => r.headers.authorization)).toEqual(['Bearer dyn-1', 'Bearer dyn-2']);
  });

  it('fetches a client-credentials token with a form POST to {origin}/api/oauth/token', async () => {
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET });
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    await getCabinet(client, 'p', 'LABELER');
    const tokenRequest = server.requests.find((r) => r.path === '/api/oauth/token')!;
    expect(tokenRequest.method).toBe('POST');
    expect(tokenRequest.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequest.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'cid',
      client_secret: SECRET,
    });
    expect(server.graphqlRequests()[0]!.headers.authorization).toBe('Bearer issued-1');
  });

  it('shares one refresh among many calls that fail together', async () => {
    // The token endpoint takes 500 ms (fake time), so that the 20 refusals overlap the refresh.
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET, tokenDelayMs: 500 });
    useFakeClock();
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    const warmUp = track(getCabinet(client, 'warm-up', 'LABELER'));
    await advanceUntil(warmUp.settled, 'the warm-up call');
    expect(server.tokenRequests).toBe(1);
    server.validTokens.clear(); // every token expires at once
    const all = track(Promise.all(Array.from({ length: 20 }, (_, i) => getCabinet(client!, `p${i}`, 'LABELER'))));
    await advanceUntil(all.settled, 'the 20 calls');
    expect((all.value() as { id: string }[]).map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => `cabinet-p${i}-LABELER`));
    expect(server.tokenRequests).toBe(2);
  });

  it('shares one refresh among 50 calls refused with HTTP 401 whose answers trickle in', async () => {
    // No token delay: the refusals arrive over time, some after the refresh has finished.
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET, authFailure: 'http401' });
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    await getJob(client, 'warm-up');
    server.validTokens.clear();
    const jobs = await Promise.all(Array.from({ length: 50 }, (_, i) => getJob(client!, `j${i}`)));
    expect(jobs).toEqual(Array(50).fill(null));
    expect(server.tokenRequests).toBe(2);
    const refused = server.graphqlRequests().filter((r) => r.headers.authorization === 'Bearer issued-1');
    expect(refused).toHaveLength(51);
  });

  it('gives an AuthError when the refreshed client-credentials token is refused as well', async () => {
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET, acceptIssuedTokens: false });
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    const error = (await getCabinet(client, 'p', 'LABELER').catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain('even after a refresh');
    expect(server.tokenRequests).toBe(2);
    expect(server.graphqlRequests().map((r) => r.headers.authorization)).toEqual(['Bearer issued-1', 'Bearer issued-2']);
  });

  it('gives an AuthError with a scrubbed cause when getToken throws', async () => {
    server = await startMockServer();
    client = createLabelingClient({
      url: server.url,
      auth: refreshingToken(() => {
        throw new Error('vault is sealed');
      }),
    });
    const error = (await getCabinet(client, 'p', 'LABELER').catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toMatch(/^\[Auth\] getToken\(\) failed; no access token \(operation GetCabinet, request [0-9a-f-]{36}\)$/);
    expect((error.cause as Error).message).toBe('vault is sealed');
    expect(server.graphqlRequests()).toHaveLength(0);
  });

  it('refuses a token that cannot go into a header (a line break, a control character) with an AuthError that does not quote it, sending nothing', async () => {
    server = await startMockServer({ clientId: 'cid', clientSecret: SECRET });
    const bad = 'tok\u0007en-SENTINEL';
    client = createLabelingClient({ url: server.url, auth: refreshingToken(() => bad) });
    const fromGetToken = (await getCabinet(client, 'p', 'LABELER').catch((e: unknown) => e)) as AuthError;
    expect(fromGetToken).toMatchObject({ code: 'AUTH', phase: 'token', message: expect.stringContaining('getToken() returned a token that cannot go into the Authorization header') });
    client.close();
    server.tokenPlan({ respond: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: 'line\nbreak-SENTINEL', expires_in: 3600 }) }) });
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }), retry: { maxAttempts: 1 } });
    const fromEndpoint = (await getCabinet(client, 'p', 'LABELER').catch((e: unknown) => e)) as AuthError;
    expect(fromEndpoint).toMatchObject({ code: 'AUTH', phase: 'token', message: expect.stringContaining('cannot go into the Authorization header') });
    for (const error of [fromGetToken, fromEndpoint]) expect(JSON.stringify({ ...error, message: error.message, cause: String(error.cause) })).not.toContain('SENTINEL');
    expect(server.graphqlRequests()).toHaveLength(0);
  });

  it('re-sends a mutation refused as Unauthorized once after the refresh, starting one job', async () => {
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET });
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    await getJob(client, 'warm-up');
    server.validTokens.clear();
    const job = await startAutoLabel(client, {
      projectId: 'p1',
      labelerEmail: 'ann@example.com',
      options: { numberOfFilesPerRequest: 1 },
      targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'k3y-k3y' },
    });
    expect(job.status).toBe('QUEUED');
    expect(server.jobs.size).toBe(1);
    const mutations = server.graphqlRequests().filter((r) => r.json!.operationName === 'AutoLabelTokenBasedProjectMutation');
    expect(mutations.map((r) => r.headers.authorization)).toEqual(['Bearer issued-1', 'Bearer issued-2']);
  });

  it('refreshes on HTTP 401 as well', async () => {
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET, authFailure: 'http401' });
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    await getCabinet(client, 'p', 'LABELER');
    server.validTokens.clear();
    await getCabinet(client, 'p', 'LABELER');
    expect(server.tokenRequests).toBe(2);
  });

  it('refreshes before a known expiry, without a failed request', async () => {
    // Issued for 120 s: refreshed 30 s before, so after 90 s. Date is fake; the clock jumps.
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: SECRET, expiresIn: 120 });
    useFakeClock();
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    const first = track(getCabinet(client, 'p', 'LABELER'));
    await until(first.settled, 'the first call');
    vi.setSystemTime(Date.now() + 89_000);
    const second = track(getCabinet(client, 'p', 'LABELER'));
    await until(second.settled, 'the second call');
    expect(server.tokenRequests).toBe(1);
    vi.setSystemTime(Date.now() + 2_000);
    const third = track(getCabinet(client, 'p', 'LABELER'));
    await until(third.settled, 'the third call');
    expect(server.tokenRequests).toBe(2);
    expect(server.graphqlRequests().map((r) => r.headers.authorization)).toEqual(['Bearer issued-1', 'Bearer issued-1', 'Bearer issued-2']);
  });

  it('throws an AuthError when a static token is refused, without sending it again (there is nothing to refresh)', async () => {
    server = await startMockServer({ validTokens: [] });
    client = createLabelingClient({ url: server.url, token: 'expired-token-SENTINEL' });
    const error = (await getCabinet(client, 'p', 'LABELER').catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe('AUTH');
    expect(error.operationName).toBe('GetCabinet');
    expect(error.message).toMatch(/^\[Auth\] the service refused the access token/);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('throws an AuthError naming the token endpoint when the client credentials are wrong', async () => {
    server = await startMockServer({ validTokens: [], clientId: 'cid', clientSecret: 'right' });
    client = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: SECRET }) });
    const error = (await getCabinet(client, 'p', 'LABELER').catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain('/api/oauth/token refused the client credentials (HTTP 401)');
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(server.graphqlRequests()).toHaveLength(0);
  });
});
