import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';

/** The error a one-attempt getCabinet ends with against `url`. */
async function failureAt(url: string): Promise<Error & { code?: string }> {
  const client = createLabelingClient({ url, token: 'token-SENTINEL', retry: { maxAttempts: 1 } });
  try {
    return await client.getCabinet('demo-project', 'LABELER').then(
      () => {
        throw new Error('expected getCabinet to fail');
      },
      (error: unknown) => error as Error & { code?: string },
    );
  } finally {
    client.close();
  }
}

describe('a client whose URL uses a port that fetch refuses to call', () => {
  it('says so in its network error, naming the port, and keeps the token out', async () => {
    const failure = await failureAt('http://127.0.0.1:6000/graphql');
    expect(failure.code).toBe('NETWORK');
    expect(failure.message).toContain('could not reach http://127.0.0.1:6000/graphql: the URL uses port 6000, which fetch refuses to call');
    expect(`${failure.message} ${JSON.stringify(failure)}`).not.toContain('SENTINEL');
  });

  it('does not say it when the port is one fetch calls (nothing listens there: refused by the system)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const failure = await failureAt(`http://127.0.0.1:${port}/graphql`);
    expect(failure.code).toBe('NETWORK');
    expect(failure.message).toContain(`could not reach http://127.0.0.1:${port}/graphql (ECONNREFUSED)`);
    expect(failure.message).not.toContain('fetch refuses');
  });
});
