import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

/**
 * A secret with every character that changes form on the wire (`"`, `\`, `&`, `+`, `%`, non-ASCII).
 * Its core `SENTINEL` survives JSON escaping and percent-encoding unchanged, so grepping a text for
 * `SENTINEL` finds any form of any part of the secret that is 8 characters or more long.
 */
const SECRET = 'SENTINEL"q\\&+%é€-tail';
const CORE = 'SENTINEL';
/** The same for a secret that travels to a model: an HTTP header carries Latin-1 at most (`é`, not `€`). */
const MODEL_SECRET = 'SENTINEL"q\\&+%é-tail';
const MUTATION = 'mutation Start($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }';
const input = (targetAPI: Record<string, unknown>) => ({ projectId: DEMO_PROJECT_ID, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI });

describe('the emulator keeps secrets out of its answers, job errors and logs', () => {
  let emu: RunningEmulator;
  const logs: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ staticToken: 'tok', clientId: 'cid', clientSecret: 'client-secret-1', log: (line) => logs.push(line), model: { retries: 0 } });
  });
  afterAll(async () => {
    await emu.close();
  });

  const post = async (body: string) => {
    const res = await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok' }, body });
    return { status: res.status, text: await res.text() };
  };

  it('does not quote a malformed JSON body when the JSON breaks right after a secret', async () => {
    const body = JSON.stringify({ query: MUTATION, variables: { input: input({ endpoint: 'http://127.0.0.1:9/', secretKey: SECRET }) } });
    const answer = await post(body.slice(0, body.indexOf(CORE) + 20));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
  });

  it.each([
    ['an object', { value: SECRET }, CORE],
    ['a number', 987654321987, '987654321987'],
    ['a list', [SECRET], CORE],
    ['a boolean-like string in an object', { nested: { deeper: SECRET } }, CORE],
  ])('does not echo a secretKey of the wrong type: %s', async (_kind, secretKey, needle) => {
    const answer = await post(JSON.stringify({ query: MUTATION, variables: { input: input({ endpoint: 'http://127.0.0.1:9/', secretKey }) } }));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('at \\"input.targetAPI.secretKey\\"');
    expect(answer.text).not.toContain(needle);
  });

  it.each(['secretkey', 'SECRETKEY', 'secret_key', 'clientSecret', 'client_secret', 'token', 'apiToken'])('does not echo the value of a misspelled or unknown secret-like key: %s', async (key) => {
    const answer = await post(JSON.stringify({ query: MUTATION, variables: { input: input({ endpoint: 'http://127.0.0.1:9/', secretKey: 'the-right-key', [key]: SECRET }) } }));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(`Field \\"${key}\\" is not defined`);
    expect(answer.text).not.toContain(CORE);
  });

  it('does not echo a secretKey written inline in the query with the wrong type', async () => {
    const literal = `{ projectId: "${DEMO_PROJECT_ID}", labelerEmail: "a@example.com", options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: "http://127.0.0.1:9/", secretKey: { v: ${JSON.stringify(SECRET)} } } }`;
    const answer = await post(JSON.stringify({ query: `mutation { autoLabelTokenBasedProject(input: ${literal}) { id } }` }));
    expect(answer.text).toContain('String cannot represent a non string value');
    expect(answer.text).not.toContain(CORE);
  });

  it.each(['12', 'true', '[7]', 'SHORT'])('does not echo a short inline secretKey literal of the wrong type: %s', async (value) => {
    const literal = `{ projectId: "${DEMO_PROJECT_ID}", labelerEmail: "a@example.com", options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: "http://127.0.0.1:9/", secretKey: ${value} } }`;
    const answer = await post(JSON.stringify({ query: `mutation { autoLabelTokenBasedProject(input: ${literal}) { id } }` }));
    expect((JSON.parse(answer.text) as { errors: { message: string }[] }).errors.map((e) => e.message)).toEqual(['String cannot represent a non string value: ***']);
  });

  it('does not echo a short secretKey variable of the wrong type', async () => {
    const answer = await post(JSON.stringify({ query: MUTATION, variables: { input: input({ endpoint: 'http://127.0.0.1:9/', secretKey: 12 }) } }));
    expect((JSON.parse(answer.text) as { errors: { message: string }[] }).errors.map((e) => e.message)).toEqual([
      'Variable "$input" got invalid value *** at "input.targetAPI.secretKey"; String cannot represent a non string value (value not shown: it holds a secret)',
    ]);
  });

  it('does not echo client credentials at the token route, whatever their encoding', async () => {
    const tokenUrl = `${emu.baseUrl}/api/oauth/token`;
    const form = await fetch(tokenUrl, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'cid', client_secret: SECRET }) });
    const basic = await fetch(tokenUrl, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`cid:${SECRET}`).toString('base64')}` }, body: 'grant_type=client_credentials' });
    expect([form.status, basic.status]).toEqual([401, 400]);
    for (const text of [await form.text(), await basic.text()]) expect(text).not.toContain(CORE);
  });

  describe('job errors read back with getJob', () => {
    let model: Server;
    let modelUrl = '';
    let answer = '';
    beforeAll(async () => {
      model = createServer((_req, res) => res.writeHead(400, { 'content-type': 'text/plain' }).end(answer));
      await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
      modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
      model.closeAllConnections();
      await new Promise((resolve) => model.close(resolve));
    });

    const jobErrorsFor = async (modelAnswer: string, secretKey = MODEL_SECRET) => {
      answer = modelAnswer;
      const started = JSON.parse((await post(JSON.stringify({ query: MUTATION, variables: { input: input({ endpoint: modelUrl, secretKey }) } }))).text) as { data: { autoLabelTokenBasedProject: { id: string } } };
      const jobId = started.data.autoLabelTokenBasedProject.id;
      const read = async () => JSON.parse((await post(JSON.stringify({ query: `{ getJob(jobId: "${jobId}") { status errors { stack args } } }` }))).text) as { data: { getJob: { status: string } } };
      await expect.poll(async () => (await read()).data.getJob.status).toBe('FAILED');
      return JSON.stringify(await read());
    };

    it('redacts a secret that straddles the 200-character cut of a model answer', async () => {
      // 188 characters before the secret: a cut at 200 keeps its first 12 characters.
      const text = await jobErrorsFor(`${'x'.repeat(188)}${MODEL_SECRET} was refused`);
      expect(text).toContain('the model answered HTTP 400');
      expect(text).toContain('x*** was refu…'); // redacted first, then cut
      expect(text).not.toContain(CORE);
    });

    it('redacts a secret the model echoes JSON-escaped or percent-encoded', async () => {
      const text = await jobErrorsFor(`{"error":"bad key ${JSON.stringify(MODEL_SECRET).slice(1, -1)}","form":"key=${encodeURIComponent(MODEL_SECRET)}"}`);
      expect(text).toContain('bad key ***');
      expect(text).not.toContain(CORE);
    });

    it('says a secretKey outside Latin-1 cannot be sent, without quoting it', async () => {
      const text = await jobErrorsFor('unused', SECRET);
      expect(text).toContain('the secretKey cannot travel in the Authorization header');
      expect(text).not.toContain(CORE);
    });
  });

  it('logged every request and job above without any part of a secret (runs last)', () => {
    // The request lines' format: `METHOD PATH STATUS [what the client saw] [op=NAME] [request=ID] Nms`.
    expect(logs.filter((l) => /^POST \/graphql \d{3}( Unauthorized| (\d+ )?GraphQL errors?( [A-Z_]+)?)?( op=\w+)?( request=\S+)? \d+ms$/.test(l)).length).toBeGreaterThan(10);
    expect(logs.some((l) => /^job job-\d+ FAILED/.test(l))).toBe(true);
    expect(logs.join('\n')).not.toContain(CORE);
  });
});
