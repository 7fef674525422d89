import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { advance, until, useFakeClock } from '../support/fakeClock.js';
import { mockJob, startMockServer } from '../support/mockServer.js';
import type { MockServer, RecordedRequest } from '../support/mockServer.js';
import { argv, fakeIo } from '../support/fakeIo.js';

// The CLI in process (main with an in-memory Io) against a mock service on 127.0.0.1 that
// misbehaves: it echoes secrets in every wire form, answers 404 or 429 during a wait.
const MODEL_SECRET = 'ms"q\\&+%é€Zx-4d2e';
const TOKEN = 'tok"\\&+%Cli-77a1';

function wireForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const jsonAscii = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [secret, json, jsonAscii, JSON.stringify(json).slice(1, -1), encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
}
const echo = (r: RecordedRequest) => [r.body, r.headers.authorization ?? '', ...wireForms(MODEL_SECRET), ...wireForms(TOKEN)].join(' | ');

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ validTokens: [TOKEN] });
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const env = () => ({ LABELKIT_URL: server.url, LABELKIT_TOKEN: TOKEN, LABELKIT_MODEL_SECRET: MODEL_SECRET });
const autoLabel = (...more: string[]) =>
  argv('auto-label', '--project', 'p1', '--labeler-email', 'ann@example.com', '--endpoint', 'https://model.example.com/', '--files-per-request', '1', ...more);

describe('labelkit output under a server that echoes secrets', () => {
  const answers: Array<[string, number, (r: RecordedRequest) => { status: number; headers?: Record<string, string>; body: string; statusText?: string }]> = [
    ['a GraphQL error', 1, (r) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errors: [{ message: echo(r), extensions: { request: r.body } }] }) })],
    ['a 500 text body', 4, (r) => ({ status: 500, statusText: '', body: echo(r) })],
    ['a 200 HTML page', 4, (r) => ({ status: 200, headers: { 'content-type': 'text/html' }, body: `<html>${echo(r)}</html>` })],
  ];
  const flagSets = [[], ['--verbose'], ['--json'], ['--verbose', '--json']];

  it.each(answers)('prints no form of the model secret or the token when the service answers %s', async (_name, code, respond) => {
    for (const flags of flagSets) {
      server.plan({ respond });
      const io = fakeIo(env());
      expect(await main(autoLabel(...flags), io), flags.join(' ')).toBe(code);
      const printed = io.out() + io.err();
      expect(printed).toMatch(/labelkit: \[/);
      for (const form of [...wireForms(MODEL_SECRET), ...wireForms(TOKEN)]) expect(printed, `${flags.join(' ')} leaks ${form}`).not.toContain(form);
    }
  });
});

describe('labelkit jobs --wait under faults', () => {
  it('exits 4 at once (not 6 after the time-out) when the service answers 404 during a wait', async () => {
    server.jobs.set('j404', mockJob('j404', { status: 'IN_PROGRESS' }));
    server.plan({ status: 404, body: 'no such path' });
    const io = fakeIo(env());
    expect(await main(argv('jobs', 'j404', '--wait', '--timeout', '10m', '--interval', '100ms'), io)).toBe(4);
    expect(io.err()).toMatch(/labelkit: \[Network\] HTTP 404 from /);
  });

  it('waits through a 429 with a JSON body and exits 0 when the job is delivered', async () => {
    useFakeClock();
    server.jobs.set('j429', mockJob('j429', { status: 'DELIVERED', progress: 100 }));
    const busy = { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '2' }, body: JSON.stringify({ errors: [{ message: 'Too many requests' }] }) };
    // Every attempt of the first poll (the client retries a query up to 4 times) is refused.
    server.plan(busy, busy, busy, busy);
    const io = fakeIo(env());
    let code: number | undefined;
    void main(argv('jobs', 'j429', '--wait', '--timeout', '10m', '--interval', '1s'), io).then((c) => (code = c));
    await until(() => server.graphqlRequests().filter((r) => r.json?.variables?.jobIds !== undefined).length >= 1, 'the first poll');
    await advance(30_000, 500);
    await until(() => code !== undefined, 'the command to end');
    expect(code).toBe(0);
    expect(io.out()).toContain('j429 DELIVERED 100%');
  });
});

describe('labelkit with client credentials under a failing token endpoint', () => {
  it('exits 4 naming the token endpoint, and never prints the client secret, when it answers 503', async () => {
    useFakeClock();
    const busy = { status: 503, statusText: '', body: `down; got client_secret=${encodeURIComponent(MODEL_SECRET)}` };
    server.tokenPlan(busy, busy, busy, busy);
    const io = fakeIo({ LABELKIT_URL: server.url, LABELKIT_CLIENT_ID: 'cid', LABELKIT_CLIENT_SECRET: MODEL_SECRET });
    let code: number | undefined;
    void main(argv('cabinet', '--project', 'p', '--role', 'labeler', '--verbose'), io).then((c) => (code = c));
    await advance(30_000, 500);
    await until(() => code !== undefined, 'the command to end');
    expect(code).toBe(4);
    expect(io.err()).toMatch(/^labelkit: \[Network\] .*token endpoint http:\/\/127\.0\.0\.1:\d+\/api\/oauth\/token .*HTTP 503 .*\(hint: the token endpoint/);
    expect(io.err()).toContain('"phase":"token"');
    for (const form of wireForms(MODEL_SECRET)) expect(io.out() + io.err()).not.toContain(form);
    expect(server.graphqlRequests().some((r) => r.headers.authorization === undefined)).toBe(false);
  });
});
