import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, createRequest, fetchExchange } from '@urql/core';
import type { Exchange, Operation } from '@urql/core';
import { retryExchange } from '@urql/exchange-retry';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GetJobDocument } from '../../generated/graphql.js';
import { labelkitAuthExchange } from '../../src/client/auth.js';
import { asFirstAuthAttempt, CHECKED_AGAINST, uniqueRequests, withRetryDelay } from '../../src/client/urqlInternals.js';
import { advance, track, until, useFakeClock } from '../support/fakeClock.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

// Each helper of urqlInternals.ts leans on urql behaviour that is not a documented API. These
// tests exercise that behaviour directly with urql's own Client, so that an upgrade that
// changes it fails here (and the version check below names what to re-read).
const repoRoot = join(import.meta.dirname, '..', '..');
const installed = (name: string) => (JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('urqlInternals', () => {
  let server: MockServer;
  const headers = { authorization: 'Bearer test-token' };
  const clientWith = (exchanges: Exchange[]) =>
    new Client({ url: server.url, exchanges, preferGetMethod: false, requestPolicy: 'network-only', fetchOptions: { headers } });
  beforeEach(async () => {
    server = await startMockServer();
    useFakeClock();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await server.close();
  });

  it('names the urql versions installed, so that an upgrade points at this module', () => {
    for (const [name, version] of Object.entries(CHECKED_AGAINST)) expect(installed(name), name).toBe(version);
  });

  it('sends two identical queries in flight twice with uniqueRequests, where urql keys would share one', async () => {
    const urql = clientWith([fetchExchange]);
    const run = (request: ReturnType<typeof createRequest>) => track(urql.executeRequestOperation(urql.createRequestOperation('query', request)).toPromise());
    server.plan({ delayMs: 1_000 }, { delayMs: 1_000 });
    const unique = uniqueRequests();
    const ours = [run(unique(GetJobDocument, { jobId: 'j' })), run(unique(GetJobDocument, { jobId: 'j' }))];
    await advance(1_500);
    await until(() => ours.every((c) => c.settled()), 'both calls');
    expect(server.graphqlRequests()).toHaveLength(2);

    // urql's own keys (a hash of document and variables): the second call shares the first request.
    server.plan({ delayMs: 1_000 }, { delayMs: 1_000 });
    const theirs = [run(createRequest(GetJobDocument, { jobId: 'j' })), run(createRequest(GetJobDocument, { jobId: 'j' }))];
    await advance(1_500);
    await until(() => theirs.every((c) => c.settled()), 'both shared calls');
    expect(server.graphqlRequests()).toHaveLength(3);
  });

  it('makes the retry exchange wait at least the seeded delay with withRetryDelay', async () => {
    const urql = clientWith([
      retryExchange({ initialDelayMs: 10, maxDelayMs: 60_000, maxNumberAttempts: 2, retryIf: () => true, retryWith: (_e, op: Operation) => withRetryDelay(op, 5_000) }),
      fetchExchange,
    ]);
    server.plan({ status: 503 });
    const call = track(urql.executeRequestOperation(urql.createRequestOperation('query', uniqueRequests()(GetJobDocument, { jobId: 'j' }))).toPromise());
    await until(() => server.graphqlRequests().length === 1, 'the first attempt');
    await advance(4_900);
    expect(server.graphqlRequests()).toHaveLength(1); // without the seed: 15–25 ms
    await advance(3_500); // the seed times a jitter of 1.5–2.5, over 1.5: 5–8.3 s
    await until(call.settled, 'the retry');
    expect(server.graphqlRequests()).toHaveLength(2);
  });

  it.each([
    ['with asFirstAuthAttempt, goes through the token check again', true, ['Bearer test-token']],
    ['as urql re-sends it, goes out without Authorization', false, [undefined]],
  ])('a retry of an operation whose token request failed, %s', async (_name, fresh, sent) => {
    let calls = 0;
    const source = async () => {
      if (++calls === 1) throw new Error('token endpoint down');
      return { value: 'test-token' };
    };
    const urql = new Client({
      url: server.url,
      preferGetMethod: false,
      requestPolicy: 'network-only',
      exchanges: [
        retryExchange({ initialDelayMs: 10, maxNumberAttempts: 2, retryIf: () => true, retryWith: (_e, op: Operation) => (fresh ? asFirstAuthAttempt(op) : op) }),
        labelkitAuthExchange(source),
        fetchExchange,
      ],
    });
    const call = track(urql.executeRequestOperation(urql.createRequestOperation('query', uniqueRequests()(GetJobDocument, { jobId: 'j' }))).toPromise());
    await advance(1_000);
    await until(call.settled, 'the call');
    expect(server.graphqlRequests().map((r) => r.headers.authorization)).toEqual(sent);
  });
});
