import { describe, expect, it } from 'vitest';
import { GetCabinetDocument } from '../../generated/tags/graphql.js';
import { createLabelingClient, ValidationError } from '../../src/client/index.js';

// The client keeps no list of bad ports (src/shared/badPorts.ts is the CLI's): it recognises
// fetch's own refusal when it happens (undici: `TypeError: fetch failed`, cause `bad port`).
describe('a client whose URL uses a port that fetch refuses to call', () => {
  it('rejects the request naming the URL option and the port, does not retry it, and keeps the token out', async () => {
    let calls = 0;
    const counted: typeof fetch = (input, init) => (calls++, fetch(input, init));
    const client = createLabelingClient({ url: 'http://127.0.0.1:6000/graphql', token: 'token-SENTINEL', fetch: counted, retry: { maxAttempts: 4, initialDelayMs: 1 } });
    const error = await client.request(GetCabinetDocument, { projectId: 'p', role: 'LABELER' }).catch((e: unknown) => e);
    client.close();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'options.url', message: expect.stringMatching(/^uses port 6000, which fetch refuses .*"bad port".*another port/) },
    ]);
    expect(calls).toBe(1);
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('SENTINEL');
  });

  it('is accepted when made, on a bad port too (nothing is sent until a request)', () => {
    createLabelingClient({ url: 'http://127.0.0.1:6001/graphql', token: 't' }).close();
    createLabelingClient({ url: 'http://127.0.0.1:6000/graphql', token: 't' }).close();
    createLabelingClient({ url: 'http://127.0.0.1:6000/graphql', token: 't', fetch: (input, init) => fetch(input, init) }).close();
  });
});
