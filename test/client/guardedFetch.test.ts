import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError } from '../../src/client/errors.js';
import { guardedFetch, MAX_ERROR_BODY_BYTES } from '../../src/client/executor.js';
import { HttpStatusError } from '../../src/client/toLabelkitError.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

describe('guardedFetch', () => {
  let server: MockServer;
  const fetchGuarded = guardedFetch(globalThis.fetch.bind(globalThis));
  const post = (headers: Record<string, string>) => fetchGuarded(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"query":"{__typename}"}' });
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends nothing and rejects with an AuthError of the token phase when a request has no Authorization', async () => {
    const error = await post({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ phase: 'token', message: '[Auth] no access token; the request was not sent' });
    expect(server.requests).toHaveLength(0);
  });

  it('passes GraphQL errors of an error status through, and rejects any other error answer with its status and body', async () => {
    server.plan({ status: 429, headers: { 'content-type': 'application/json' }, body: '{"errors":[{"message":"slow down"}]}' });
    const graphql = await post({ authorization: 'Bearer test-token' });
    expect([graphql.status, graphql.statusText, await graphql.json()]).toEqual([429, 'Too Many Requests', { errors: [{ message: 'slow down' }] }]);

    server.plan({ status: 503, headers: { 'content-type': 'application/json', 'retry-after': '7' }, body: '{"data":null}' });
    const other = await post({ authorization: 'Bearer test-token' }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(HttpStatusError);
    expect((other as HttpStatusError).message).toBe('HTTP 503 Service Unavailable: {"data":null}');
    expect([(other as HttpStatusError).response.status, (other as HttpStatusError).response.headers.get('retry-after')]).toEqual([503, '7']);
  });

  it(`reads at most ${MAX_ERROR_BODY_BYTES} bytes of an error body`, async () => {
    server.plan({ status: 502, statusText: '', body: 'x'.repeat(4 * 1024 * 1024) });
    const error = (await post({ authorization: 'Bearer test-token' }).catch((e: unknown) => e)) as HttpStatusError;
    expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 'HTTP 502: '.length);
    expect(error.message.length).toBeGreaterThan(MAX_ERROR_BODY_BYTES / 2);
  });
});
