import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientCredentials, createLabelingClient, getCabinet, getJob, isLabelkitError, startAutoLabel } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { startMockClient } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

const SECRET_KEY = 'secretKey-SENTINEL-91c2';
const TOKEN = 'token-SENTINEL-5d0e';

/** Every way an error reaches a person or a log. */
function everyView(error: unknown): string {
  const e = error as Error;
  return [
    e.message,
    e.stack ?? '',
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: false }),
    String(e),
    JSON.stringify(Object.fromEntries(Object.keys(e).map((k) => [k, (e as unknown as Record<string, unknown>)[k]]))),
  ].join('\n');
}

const input = (endpoint: string, secretKey = SECRET_KEY) => autoLabelInput({ endpoint, secretKey });

describe('errors never hold a secret', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ server, client, close } = await startMockClient({ token: TOKEN, retry: { initialDelayMs: 5, maxAttempts: 2 } }, { validTokens: [TOKEN] }));
  });
  afterEach(async () => {
    await close();
  });

  const cases: Array<[string, (s: MockServer) => void, (c: LabelingClient) => Promise<unknown>]> = [
    ['a validation error', () => {}, (c) => startAutoLabel(c, { ...input('ftp://x'), labelerEmail: SECRET_KEY })],
    [
      'a GraphQL error that echoes the variables',
      (s) =>
        s.plan({
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            errors: [
              {
                message: `Variable "$input" got invalid value { secretKey: "${SECRET_KEY}" }`,
                extensions: { code: 'BAD_USER_INPUT', value: { secretKey: SECRET_KEY }, auth: `Bearer ${TOKEN}` },
              },
            ],
          }),
        }),
      (c) => startAutoLabel(c, input('https://model.example.com/')),
    ],
    ['a lost connection during the mutation', (s) => s.plan({ drop: true }), (c) => startAutoLabel(c, input('https://model.example.com/'))],
    ['a 500 whose body quotes the secret', (s) => s.plan({ status: 500, body: `boom ${SECRET_KEY} ${TOKEN}` }), (c) => startAutoLabel(c, input('https://model.example.com/'))],
    [
      'a 500 without status text, whose body urql turns into the network error message',
      (s) => s.plan({ status: 500, statusText: '', body: `boom ${SECRET_KEY} ${TOKEN}` }),
      (c) => startAutoLabel(c, input('https://model.example.com/')),
    ],
    [
      'a query failing twice with a body that quotes the token',
      (s) => s.plan({ status: 502, statusText: '', body: `bad ${TOKEN}` }, { status: 502, statusText: '', body: `bad ${TOKEN}` }),
      (c) => getJob(c, 'j1'),
    ],
    ['a time-out of the mutation', (s) => s.plan({ delayMs: 1_000 }), (c) => startAutoLabel(c, input('https://model.example.com/'), { timeoutMs: 50 })],
    ['a refused token', (s) => s.validTokens.clear(), (c) => getCabinet(c, 'p', 'LABELER')],
  ];

  it.each(cases)('holds no secret in %s', async (_name, arrange, act) => {
    arrange(server);
    const error = await act(client).then(
      () => {
        throw new Error('expected a failure');
      },
      (e: unknown) => e,
    );
    expect(isLabelkitError(error)).toBe(true);
    const text = everyView(error);
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(TOKEN);
  });

  it('keeps the redacted server message readable', async () => {
    server.plan({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errors: [{ message: `bad secretKey ${SECRET_KEY}`, path: ['result'] }] }),
    });
    const error = (await startAutoLabel(client, input('https://model.example.com/')).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^\[GraphQL\] bad secretKey \*\*\* \(operation AutoLabelTokenBasedProjectMutation, request [0-9a-f-]{36}\)$/);
  });

  it('holds no client secret when the client-credentials login fails', async () => {
    const secret = 'client-secret-SENTINEL-aa11';
    const cc = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'nobody', clientSecret: secret }) });
    const error = await getCabinet(cc, 'p', 'LABELER').catch((e: unknown) => e);
    expect(everyView(error)).not.toContain(secret);
    cc.close();
  });
});
