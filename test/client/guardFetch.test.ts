import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError } from '../../src/client/errors.js';
import { guardFetch, MAX_ERROR_BODY_BYTES } from '../../src/client/guardFetch.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

describe('guardFetch', () => {
  let server: MockServer;
  const fetchGuarded = guardFetch(globalThis.fetch.bind(globalThis));
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

  it('passes GraphQL errors of an error status through, and turns any other error body into text with the status', async () => {
    server.plan({ status: 429, headers: { 'content-type': 'application/json' }, body: '{"errors":[{"message":"slow down"}]}' });
    const graphql = await post({ authorization: 'Bearer test-token' });
    expect([graphql.status, graphql.statusText, await graphql.json()]).toEqual([429, 'Too Many Requests', { errors: [{ message: 'slow down' }] }]);

    server.plan({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"data":null}' });
    const other = await post({ authorization: 'Bearer test-token' });
    expect([other.status, other.headers.get('content-type'), await other.text()]).toEqual([503, 'text/plain; charset=utf-8', 'HTTP 503 Service Unavailable: {"data":null}']);
  });

  it(`reads at most ${MAX_ERROR_BODY_BYTES} bytes of an error body`, async () => {
    server.plan({ status: 502, statusText: '', body: 'x'.repeat(4 * 1024 * 1024) });
    const response = await post({ authorization: 'Bearer test-token' });
    expect((await response.text()).length).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 'HTTP 502: '.length);
  });
});
