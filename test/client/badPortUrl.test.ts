import { describe, expect, it } from 'vitest';
import { createLabelingClient, ValidationError } from '../../src/client/index.js';

describe('a client whose URL uses a port that fetch refuses to call', () => {
  it('is refused when created, naming the URL option and the port, and keeps the token out', () => {
    let error: unknown;
    try {
      createLabelingClient({ url: 'http://127.0.0.1:6000/graphql', token: 'token-SENTINEL' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'options.url', message: expect.stringMatching(/^uses port 6000, which fetch refuses .*"bad port".*another port/) },
    ]);
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('SENTINEL');
  });

  it('is accepted on a port fetch calls, and on a bad port when the client is given its own fetch', () => {
    createLabelingClient({ url: 'http://127.0.0.1:6001/graphql', token: 't' }).close();
    createLabelingClient({ url: 'http://127.0.0.1:6000/graphql', token: 't', fetch: (input, init) => fetch(input, init) }).close();
  });
});
