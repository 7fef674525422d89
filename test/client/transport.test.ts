// The transport's rules (src/client/transport.ts), through a client over real HTTP: nothing is sent
// without Authorization, an error answer with GraphQL errors reaches urql as it came and any other
// is a failure with its status and the start of its body, and an error body is read only so far.
import type { Exchange } from '@urql/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GetCabinetDocument } from '../../generated/tags/graphql.js';
import { createLabelingClient } from '../../src/client/index.js';
import type { AuthSource, LabelingClient } from '../../src/client/index.js';
import { AuthError, NetworkError } from '../../src/client/errors.js';
import { MAX_ERROR_BODY_BYTES, readCapped } from '../../src/client/transport.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

describe('the transport', () => {
  let server: MockServer;
  let client: LabelingClient;
  const cabinet = () => client.request(GetCabinetDocument, { projectId: 'p', role: 'LABELER' }).catch((e: unknown) => e);
  beforeEach(async () => {
    server = await startMockServer();
    client = createLabelingClient({ url: server.url, token: 'test-token', retry: { maxAttempts: 1 } });
  });
  afterEach(async () => {
    client.close();
    await server.close();
  });

  it('sends nothing and rejects with an AuthError of the token phase when a request has no Authorization', async () => {
    // A token source whose exchange adds no header: the transport refuses what it would send.
    const noHeader: AuthSource = { problems: [], secrets: [], exchange: (): Exchange => ({ forward }) => forward };
    client.close();
    client = createLabelingClient({ url: server.url, auth: noHeader });
    const error = await cabinet();
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ phase: 'token', message: expect.stringMatching(/^\[Auth\] no access token; the request was not sent \(operation GetCabinet, request /) });
    expect(server.requests).toHaveLength(0);
  });

  it('passes GraphQL errors of an error status through, and rejects any other error answer with its status and body', async () => {
    server.plan({ status: 429, headers: { 'content-type': 'application/json' }, body: '{"errors":[{"message":"slow down"}]}' });
    const graphql = await cabinet();
    expect(graphql).toBeInstanceOf(NetworkError);
    expect(graphql).toMatchObject({ code: 'NETWORK', status: 429, message: expect.stringContaining(`HTTP 429 from ${server.url}: slow down`) });

    server.plan({ status: 503, headers: { 'content-type': 'application/json', 'retry-after': '7' }, body: '{"data":null}' });
    const other = (await cabinet()) as NetworkError;
    expect(other).toMatchObject({ code: 'NETWORK', status: 503, retryAfterMs: 7000 });
    // The error keeps a safe copy of its cause (src/client/safeCause.ts): the HttpStatusError's name and message.
    expect(other.cause).toMatchObject({ name: 'HttpStatusError', message: 'HTTP 503 Service Unavailable: {"data":null}' });
  });

  it(`reads at most ${MAX_ERROR_BODY_BYTES} bytes of an error body`, async () => {
    server.plan({ status: 502, statusText: '', body: 'x'.repeat(4 * 1024 * 1024) });
    const error = (await cabinet()) as NetworkError;
    expect(error).toMatchObject({ code: 'NETWORK', status: 502, cause: { name: 'HttpStatusError', message: expect.stringMatching(/^HTTP 502: x+/) } });
    // What the transport read of that body (the error's own copy of it is shorter still: safeCause.ts).
    server.plan({ status: 502, statusText: '', body: 'x'.repeat(4 * 1024 * 1024) });
    const text = await readCapped(await fetch(server.url, { method: 'POST', body: '{}' }), MAX_ERROR_BODY_BYTES);
    expect(text.length).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES);
    expect(text.length).toBeGreaterThan(MAX_ERROR_BODY_BYTES / 2);
  });
});
