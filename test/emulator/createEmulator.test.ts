import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import { DEMO_GOLD } from '../../src/emulator/demoProject.js';
import type { Emulator, RunningEmulator } from '../../src/emulator/index.js';
import { createResolvers } from '../../src/emulator/resolvers.js';
import { emulatorSchemaSource } from '../../src/emulator/schemaSource.js';
import { JobRunner } from '../../src/emulator/jobRunner.js';
import { EmulatorStore } from '../../src/emulator/store.js';

const CABINET = 'query GetCabinet($projectId: ID!, $role: Role!) { getCabinet(projectId: $projectId, role: $role) { id } }';
const graphqlRequest = (token: string | null, body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://emulator.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== null && { authorization: `Bearer ${token}` }), ...headers },
    body: JSON.stringify(body),
  });

describe('createEmulator', () => {
  let emulator: Emulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('answers GraphQL in process when handle() gets a Request with the static token', async () => {
    emulator = createEmulator({ staticToken: 'in-process-token' });
    const res = await emulator.handle(graphqlRequest('in-process-token', { query: CABINET, variables: { projectId: DEMO_PROJECT_ID, role: 'LABELER' } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { getCabinet: { id: 'demo-project:labeler' } } });
  });

  it.each(['tags', 'labels'] as const)('has a resolver for every root field it serves in the %s generation', (generation) => {
    const schema = buildSchema(emulatorSchemaSource(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'), generation));
    const resolvers = createResolvers(new EmulatorStore(), new JobRunner(new EmulatorStore()), generation);
    expect(Object.keys(resolvers.Query).sort()).toEqual(Object.keys(schema.getQueryType()!.getFields()).sort());
    expect(Object.keys(resolvers.Mutation).sort()).toEqual(Object.keys(schema.getMutationType()!.getFields()).sort());
  });

  it('serves the bundled GraphiQL without the token when a browser on another host GETs /graphql', async () => {
    emulator = createEmulator();
    const res = await emulator.handle(new Request('http://emulator.test/graphql', { headers: { accept: 'text/html' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=["']?(https?:)?\/\//i); // nothing from outside: no network needed
    expect(html).not.toContain(emulator.token);
  });

  it('leaves the demo project out and keeps added projects when demoProject is false', async () => {
    emulator = createEmulator({ demoProject: false, staticToken: 't' });
    emulator.store.addProject({ id: 'p1', name: 'One', labelSets: [{ name: 'L', labels: [{ id: 'a', name: 'A' }] }], documents: [{ id: 'd', lines: ['x'] }] });
    const cabinet = async (projectId: string) => (await emulator!.handle(graphqlRequest('t', { query: CABINET, variables: { projectId, role: 'REVIEWER' } }))).json();
    expect(await cabinet('p1')).toEqual({ data: { getCabinet: { id: 'p1:reviewer' } } });
    expect(await cabinet(DEMO_PROJECT_ID)).toMatchObject({ data: null, errors: [{ message: 'no project has the id "demo-project"', extensions: { code: 'NOT_FOUND' } }] });
  });

  it('allows exactly the configured CORS origins when corsOrigins is given', async () => {
    emulator = createEmulator({ corsOrigins: ['https://app.example'] });
    const preflight = async (origin: string) =>
      (await emulator!.handle(new Request('http://emulator.test/graphql', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } }))).headers.get(
        'access-control-allow-origin',
      );
    expect(await preflight('https://app.example')).toBe('https://app.example');
    expect(await preflight('http://localhost:5173')).toBeNull();
  });

  it('accepts client credentials sent as HTTP Basic at the token route', async () => {
    emulator = createEmulator({ clientId: 'cid', clientSecret: 'c:secret' });
    const basic = Buffer.from(`cid:${encodeURIComponent('c:secret')}`).toString('base64');
    const res = await emulator.handle(
      new Request('http://emulator.test/api/oauth/token', { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const unsupported = await emulator.handle(new Request('http://emulator.test/api/oauth/token', { method: 'POST', body: 'grant_type=password' }));
    expect([unsupported.status, await unsupported.json()]).toEqual([400, { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' }]);
  });

  it('refuses the labels route without a token and names an unknown project', async () => {
    emulator = createEmulator({ staticToken: 't' });
    const get = (path: string, token?: string) => emulator!.handle(new Request(`http://emulator.test${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
    const anonymous = await get(`/emulator/projects/${DEMO_PROJECT_ID}/labels`);
    expect([anonymous.status, await anonymous.json()]).toEqual([401, { data: null, errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] }]);
    const unknown = await get('/emulator/projects/nope/labels', 't');
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'no project has the id "nope"' }]);
    // Before any job, the demo project holds its gold labels only: the reviewer copy, written by no job yet.
    const gold = await get(`/emulator/projects/${DEMO_PROJECT_ID}/labels`, 't');
    const body = (await gold.json()) as { projectId: string; note: string; copies: { labelerEmail: string; role: string; documents: { lines: { entities: unknown[] }[] }[] }[] };
    expect({ ...body, copies: body.copies.map((c) => [c.labelerEmail, c.role]) }).toEqual({ projectId: DEMO_PROJECT_ID, note: 'emulator-only route, not part of the labeling service', copies: [['', 'REVIEWER']] });
    const goldCount = Object.values(DEMO_GOLD).reduce((n, labels) => n + labels.length, 0);
    expect(body.copies[0]!.documents.flatMap((d) => d.lines.flatMap((l) => l.entities))).toHaveLength(goldCount);
  });
});

describe('startEmulator', () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await emu?.close();
    emu = undefined;
  });

  it('refuses an issued token from the moment it expires, while the static token still works', async () => {
    // Only Date is faked (sockets and timers stay real): the token's life is measured on a clock
    // that moves when the test moves it, so a loaded machine cannot expire it before the first answer.
    vi.useFakeTimers({ toFake: ['Date'] });
    const granted = Date.now();
    emu = await startEmulator({ clientId: 'cid', clientSecret: 'csecret', tokenTtlSeconds: 0.15 });
    const grant = await fetch(`${emu.baseUrl}/api/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'cid', client_secret: 'csecret' }) });
    const { access_token: issued, expires_in: expiresIn } = (await grant.json()) as { access_token: string; expires_in: number };
    expect(expiresIn).toBe(1); // a fraction of a second is announced as whole seconds, rounded up
    const ask = async (token: string) => (await fetch(emu!.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: CABINET, variables: { projectId: DEMO_PROJECT_ID, role: 'LABELER' } }) })).json();
    expect(await ask(issued)).toEqual({ data: { getCabinet: { id: 'demo-project:labeler' } } });
    vi.setSystemTime(granted + 149); // the last millisecond of its 150 ms life
    expect(await ask(issued)).toEqual({ data: { getCabinet: { id: 'demo-project:labeler' } } });
    vi.setSystemTime(granted + 150);
    expect(await ask(issued)).toEqual({ data: null, errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] });
    expect(await ask(emu.token)).toEqual({ data: { getCabinet: { id: 'demo-project:labeler' } } });
  });

  it('logs requests and job events without tokens, secrets or query text when log is given', async () => {
    const lines: string[] = [];
    emu = await startEmulator({ staticToken: 'static-SENTINEL-1', clientId: 'cid', clientSecret: 'client-SENTINEL-2', log: (l) => lines.push(l), model: { timeoutMs: 100, retries: 0 } });
    await fetch(`${emu.baseUrl}/api/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'cid', client_secret: 'client-SENTINEL-2' }) });
    const input = { projectId: DEMO_PROJECT_ID, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: 'http://127.0.0.1:9/', secretKey: 'model-SENTINEL-3' } };
    await fetch(emu.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer static-SENTINEL-1' },
      body: JSON.stringify({ query: 'mutation($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }', variables: { input } }),
    });
    await expect.poll(() => lines.some((l) => /job job-1 FAILED/.test(l)), { timeout: 5_000 }).toBe(true);
    expect(lines).toContain(`emulator listening on ${emu.url}`);
    expect(lines.some((l) => /^POST \/api\/oauth\/token 200 \d+ms$/.test(l))).toBe(true);
    expect(lines.some((l) => /^POST \/graphql 200 \d+ms$/.test(l))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/SENTINEL|mutation/);
  });

  it('ends running jobs FAILED, destroys keep-alive sockets and frees the port when closed', async () => {
    emu = await startEmulator({ model: { timeoutMs: 10_000 } });
    const { createServer } = await import('node:http');
    const hanging = createServer(() => {}); // a model that never answers
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const port = (hanging.address() as { port: number }).port;
    try {
      const input = { projectId: DEMO_PROJECT_ID, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: `http://127.0.0.1:${port}/`, secretKey: 's' } };
      const res = await fetch(emu.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.token}`, connection: 'keep-alive' },
        body: JSON.stringify({ query: 'mutation($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }', variables: { input } }),
      });
      const jobId = ((await res.json()) as { data: { autoLabelTokenBasedProject: { id: string } } }).data.autoLabelTokenBasedProject.id;
      const job = emu.emulator.store.jobs.get(jobId)!;
      await expect.poll(() => job.status).toBe('IN_PROGRESS');
      await emu.close();
      expect(job.status).toBe('FAILED');
      expect(job.errors.map((e) => e.stack)).toContain('the emulator stopped before the job ended');
      await expect(fetch(emu.url, { method: 'POST' })).rejects.toThrow();
      // The port is free again: a new emulator can take it.
      const again = await startEmulator({ port: Number(new URL(emu.url).port) });
      await again.close();
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});
