import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

/** The service's observable rules, as data (STYLE practice 10), checked against the emulator. */
interface Rule {
  id: string;
  rule: string;
  check: (emu: RunningEmulator) => Promise<void>;
}

const post = (emu: RunningEmulator, body: unknown, token: string | null = emu.token) =>
  fetch(emu.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== null && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
const cabinetQuery = 'query GetCabinet($projectId: ID!, $role: Role!) { getCabinet(projectId: $projectId, role: $role) { id } }';
const unauthorized = { data: null, errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] };

const rules: Rule[] = [
  {
    id: 'auth-missing',
    rule: 'MUST answer a request without a Bearer token with Unauthorized / AuthenticationError',
    check: async (emu) => expect(await (await post(emu, { query: cabinetQuery, variables: { projectId: DEMO_PROJECT_ID, role: 'LABELER' } }, null)).json()).toEqual(unauthorized),
  },
  {
    id: 'auth-wrong',
    rule: 'MUST refuse a wrong token the same way',
    check: async (emu) => expect(await (await post(emu, { query: cabinetQuery, variables: { projectId: DEMO_PROJECT_ID, role: 'LABELER' } }, 'wrong')).json()).toEqual(unauthorized),
  },
  {
    id: 'operation-name-any',
    rule: 'MUST accept any alphanumeric operationName when the document holds one operation',
    check: async (emu) => {
      const body = await (await post(emu, { operationName: 'SomethingElse1', query: cabinetQuery, variables: { projectId: DEMO_PROJECT_ID, role: 'REVIEWER' } })).json();
      expect(body).toEqual({ data: { getCabinet: { id: 'demo-project:reviewer' } } });
    },
  },
  {
    id: 'no-get-queries',
    rule: 'MUST NOT execute queries sent as GET',
    check: async (emu) => {
      const res = await fetch(`${emu.url}?query=${encodeURIComponent('{ getJob(jobId: "x") { id } }')}`, { headers: { authorization: `Bearer ${emu.token}` } });
      expect(res.status).toBe(405);
    },
  },
  {
    id: 'unknown-job-null',
    rule: 'MUST answer null for unknown job ids',
    check: async (emu) => {
      const body = await (await post(emu, { query: 'query($ids: [String!]!) { getJobs(jobIds: $ids) { id } }', variables: { ids: ['nope'] } })).json();
      expect(body).toEqual({ data: { getJobs: [null] } });
    },
  },
  {
    id: 'bad-mutation-input',
    rule: 'MUST refuse bad auto-label input with a GraphQL error that lists every problem',
    check: async (emu) => {
      const query = 'mutation($input: AutoLabelTokenBasedProjectInput!) { result: autoLabelTokenBasedProject(input: $input) { id } }';
      const input = { projectId: 'nope', labelerEmail: 'x', options: { numberOfFilesPerRequest: -1 }, targetAPI: { endpoint: 'nope', secretKey: 'sekret-SENTINEL' } };
      const body = (await (await post(emu, { query, variables: { input } })).json()) as { errors: { message: string }[] };
      expect(body.errors[0]!.message).toBe(
        'invalid input: input.labelerEmail must be an e-mail address such as name@example.com; input.options.numberOfFilesPerRequest must be an integer >= 0 (0 sends all lines of a document in one request); input.targetAPI.endpoint must be an absolute http(s) URL; input.projectId unknown project nope',
      );
      expect(JSON.stringify(body)).not.toContain('sekret-SENTINEL');
    },
  },
  {
    id: 'cors-loopback',
    rule: 'SHOULD allow browser clients from loopback origins, and not from others',
    check: async (emu) => {
      const preflight = (origin: string) =>
        fetch(emu.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-request-id' } });
      expect((await preflight('http://localhost:5173')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    },
  },
];

describe('the emulator keeps the service contract', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(async () => {
    await emu.close();
  });

  it.each(rules.map((r) => [r.id, r.rule, r] as const))('%s: %s', async (_id, _rule, r) => {
    await r.check(emu);
  });
});

describe('emulator auth through the public client', () => {
  it('issues client-credentials tokens, expires them, and the client refreshes', async () => {
    const emu = await startEmulator({ clientId: 'cid', clientSecret: 'csecret-SENTINEL', tokenTtlSeconds: 0.2 });
    try {
      const client = createLabelingClient({ url: emu.url, clientCredentials: { clientId: 'cid', clientSecret: 'csecret-SENTINEL' } });
      expect(await client.getCabinet(DEMO_PROJECT_ID, 'LABELER')).toEqual({ id: 'demo-project:labeler' });
      await new Promise((r) => setTimeout(r, 250)); // the token has expired on the emulator
      expect(await client.getCabinet(DEMO_PROJECT_ID, 'REVIEWER')).toEqual({ id: 'demo-project:reviewer' });
      const bad = createLabelingClient({ url: emu.url, clientCredentials: { clientId: 'cid', clientSecret: 'wrong' } });
      const error = await bad.getCabinet(DEMO_PROJECT_ID, 'LABELER').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'AUTH' });
    } finally {
      await emu.close();
    }
  });

  it('frees its port on close', async () => {
    const emu = await startEmulator();
    await emu.close();
    await expect(fetch(emu.url, { method: 'POST' })).rejects.toThrow();
  });
});
