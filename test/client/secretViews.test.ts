import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientCredentials, createLabelingClient, getCabinet, getJob, isLabelkitError, refreshingToken, startAutoLabel } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { startMockClient } from '../support/mockServer.js';
import type { MockServer, RecordedRequest } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

// Sentinels with the characters that an encoder changes: `"` and `\` (JSON), `&`, `+`, `%`
// (URL and form encoding) and non-ASCII (\uXXXX, UTF-8 percent-encoding). An access token
// travels in a header, which only carries ASCII.
const SECRET_KEY = 'sk"q\\&+%é€Zx-91c2';
const CLIENT_SECRET = 'cs"\\&+%ß漢-Cs42aa';
const TOKEN = 'tok"\\&+%Tk81-5d0e';

/** Every form of a secret on the wire, computed here independently of the redactor. */
function wireForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const jsonAscii = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [
    secret,
    json,
    jsonAscii,
    JSON.stringify(json).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    Buffer.from(`cid:${secret}`).toString('base64'),
  ];
}

/** Every view of an error and of each link of its cause chain. */
function everyView(error: unknown): string {
  const out: string[] = [];
  let link: unknown = error;
  for (let depth = 0; link !== undefined && link !== null && depth < 10; depth++) {
    const e = link as Error;
    out.push(String(e.message), String(e), e.stack ?? '', inspect(e, { showHidden: true, depth: 20 }), JSON.stringify(e) ?? '');
    link = (e as { cause?: unknown }).cause;
  }
  return out.join('\n');
}

function expectNoSecret(error: unknown, secrets: string[]): void {
  expect(isLabelkitError(error)).toBe(true);
  const text = everyView(error);
  for (const secret of secrets) for (const form of wireForms(secret)) expect(text, `leaks ${form}`).not.toContain(form);
}

/** An answer that quotes everything the request carried, in every form. */
const echo = (r: RecordedRequest, secrets: string[]) =>
  [r.body, r.headers.authorization ?? '', ...secrets.flatMap(wireForms)].join(' | ');

const input = autoLabelInput({ secretKey: SECRET_KEY });
const json = { 'content-type': 'application/json' };

describe('every view of every error holds no secret in any form', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ server, client, close } = await startMockClient({ token: TOKEN, retry: { maxAttempts: 1 } }, { validTokens: [TOKEN], clientId: 'cid', clientSecret: CLIENT_SECRET }));
  });
  afterEach(async () => {
    await close();
  });

  const mutationCases: Array<[string, (r: RecordedRequest) => { status: number; headers?: Record<string, string>; body: string; statusText?: string }]> = [
    ['a GraphQL error (200) that quotes the request', (r) => ({ status: 200, headers: json, body: JSON.stringify({ errors: [{ message: `bad input ${echo(r, [SECRET_KEY, TOKEN])}`, extensions: { request: r.body, input: r.json?.variables } }] }) })],
    ['a 400 with GraphQL errors that quote the request', (r) => ({ status: 400, headers: json, body: JSON.stringify({ errors: [{ message: echo(r, [SECRET_KEY, TOKEN]) }] }) })],
    ['a 429 with GraphQL errors that quote the request', (r) => ({ status: 429, headers: json, body: JSON.stringify({ errors: [{ message: echo(r, [SECRET_KEY, TOKEN]) }] }) })],
    ['a 500 text body (no status text) that quotes the request', (r) => ({ status: 500, statusText: '', body: echo(r, [SECRET_KEY, TOKEN]) })],
    ['a 200 HTML page that quotes the request', (r) => ({ status: 200, headers: { 'content-type': 'text/html' }, body: `<html>${echo(r, [SECRET_KEY, TOKEN])}</html>` })],
  ];

  it.each(mutationCases)('redacts the secret key and the token when the service answers %s', async (_name, respond) => {
    server.plan({ respond });
    const error = await startAutoLabel(client, input).catch((e: unknown) => e);
    expectNoSecret(error, [SECRET_KEY, TOKEN]);
  });

  it('keeps the client secret out of every view of the credential source an app may log', () => {
    const source = clientCredentials({ clientId: 'cid', clientSecret: CLIENT_SECRET });
    for (const view of [inspect(source, { depth: 10 }), JSON.stringify(source), String(Object.values(source))]) expect(view).not.toContain(CLIENT_SECRET);
    expect(source.secrets).toEqual([CLIENT_SECRET]); // still there for the redactor
  });

  it('redacts the token from a query error that quotes the Authorization header', async () => {
    server.plan({ respond: (r) => ({ status: 503, statusText: '', body: echo(r, [TOKEN]) }) });
    const error = await getJob(client, 'j1').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK', status: 503 });
    expectNoSecret(error, [TOKEN]);
  });

  it.each([
    ['401', 401],
    ['500', 500],
  ])('redacts the client secret when the token endpoint answers %s quoting the form body and a Basic header', async (_name, status) => {
    server.tokenPlan({ respond: (r) => ({ status, statusText: '', body: `${echo(r, [CLIENT_SECRET])} Basic ${Buffer.from(`cid:${CLIENT_SECRET}`).toString('base64')}` }) });
    const cc = createLabelingClient({ url: server.url, auth: clientCredentials({ clientId: 'cid', clientSecret: CLIENT_SECRET }), retry: { maxAttempts: 1 } });
    try {
      const error = await getCabinet(cc, 'p', 'LABELER').catch((e: unknown) => e);
      expect(error).toMatchObject({ phase: 'token' });
      expectNoSecret(error, [CLIENT_SECRET]);
    } finally {
      cc.close();
    }
  });

  it('redacts the cause chain of a getToken that throws with a known token and a Bearer value', async () => {
    server.validTokens.clear();
    let calls = 0;
    const unknown = 'unseen-token-Qm9v4r';
    const dyn = createLabelingClient({
      url: server.url,
      retry: { maxAttempts: 1 },
      auth: refreshingToken(() => {
        if (++calls === 1) return TOKEN;
        throw new Error(`vault refused to renew ${TOKEN}`, { cause: new Error(`upstream said: Authorization: Bearer ${unknown}`) });
      }),
    });
    try {
      const error = await getCabinet(dyn, 'p', 'LABELER').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'AUTH', phase: 'token' });
      expect(everyView(error)).toContain('vault refused to renew ***');
      expect(everyView(error)).toContain('Bearer ***');
      expectNoSecret(error, [TOKEN, unknown]);
    } finally {
      dyn.close();
    }
  });
});
