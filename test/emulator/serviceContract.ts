import { expect } from 'vitest';

/** Where the contract is checked: a GraphQL endpoint and what it takes to call it. */
export interface ContractTarget {
  /** e.g. http://127.0.0.1:4000/graphql */
  url: string;
  token: string;
  /** A project that exists, with a label set. */
  projectId: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

/** One observable rule of the service (STYLE practice 10). */
export interface ContractRule {
  id: string;
  level: 'MUST' | 'SHOULD';
  rule: string;
  /** Starts work on the target (a job): run only against the emulator. */
  emulatorOnly?: boolean;
  check: (t: ContractTarget) => Promise<void>;
}

const SENTINEL = 'contract-secret-SENTINEL-91c2';

/** POSTs a GraphQL body as the service's clients do. */
export async function gql(t: ContractTarget, body: Record<string, unknown>, authorization: string | null = `Bearer ${t.token}`) {
  const res = await fetch(t.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization !== null && { authorization }) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] } };
}

const CABINET = 'query GetCabinet($projectId: ID!, $role: Role!) { getCabinet(projectId: $projectId, role: $role) { id } }';
const LABEL_SETS =
  'query getCabinetLabelSetsById($cabinetId: ID!) { getCabinetLabelSetsById(cabinetId: $cabinetId) { id index name signature tagItems { id parentId tagName color type } arrowLabelRequired } }';
const MUTATION = 'mutation AutoLabelTokenBasedProjectMutation($input: AutoLabelTokenBasedProjectInput!) { result: autoLabelTokenBasedProject(input: $input) { id status progress } }';

const expectUnauthorized = (json: Awaited<ReturnType<typeof gql>>['json']) => {
  expect(json.data ?? null).toBeNull();
  expect(json.errors).toEqual([expect.objectContaining({ message: 'Unauthorized', extensions: expect.objectContaining({ type: 'AuthenticationError' }) })]);
};

const cabinetId = async (t: ContractTarget, role = 'LABELER') => {
  const { json } = await gql(t, { operationName: 'GetCabinet', query: CABINET, variables: { projectId: t.projectId, role } });
  return (json.data?.getCabinet as { id: string }).id;
};

/** The labeling service's contract as seen from a client, as data. */
export const serviceContract: ContractRule[] = [
  {
    id: 'post-json',
    level: 'MUST',
    rule: 'MUST answer a JSON POST to /graphql with a JSON GraphQL result',
    check: async (t) => {
      const { status, json } = await gql(t, { operationName: 'GetCabinet', query: CABINET, variables: { projectId: t.projectId, role: 'LABELER' } });
      expect(status).toBe(200);
      expect(json).toEqual({ data: { getCabinet: { id: expect.any(String) } } });
    },
  },
  {
    id: 'auth-missing',
    level: 'MUST',
    rule: 'MUST answer a request without Authorization with the GraphQL error Unauthorized / AuthenticationError',
    check: async (t) => expectUnauthorized((await gql(t, { query: CABINET, variables: { projectId: t.projectId, role: 'LABELER' } }, null)).json),
  },
  {
    id: 'auth-wrong',
    level: 'MUST',
    rule: 'MUST answer a wrong Bearer token the same way, without echoing it',
    check: async (t) => {
      const { json, text } = await gql(t, { query: CABINET, variables: { projectId: t.projectId, role: 'LABELER' } }, `Bearer ${SENTINEL}`);
      expectUnauthorized(json);
      expect(text).not.toContain(SENTINEL);
    },
  },
  {
    id: 'auth-bearer-only',
    level: 'MUST',
    rule: 'MUST NOT accept the token under another scheme than Bearer',
    check: async (t) => expectUnauthorized((await gql(t, { query: CABINET, variables: { projectId: t.projectId, role: 'LABELER' } }, `Basic ${t.token}`)).json),
  },
  {
    id: 'operation-name-any',
    level: 'MUST',
    rule: 'MUST accept any alphanumeric operationName when the document holds one operation',
    check: async (t) => {
      const { json } = await gql(t, { operationName: 'AnyOtherName42', query: CABINET, variables: { projectId: t.projectId, role: 'LABELER' } });
      expect(json).toEqual({ data: { getCabinet: { id: await cabinetId(t) } } });
    },
  },
  {
    id: 'operation-name-selects',
    level: 'SHOULD',
    rule: 'SHOULD use operationName to pick the operation when the document holds several',
    check: async (t) => {
      const query = `query A { getJob(jobId: "a") { id } } query B { getJobs(jobIds: ["b"]) { id } }`;
      expect((await gql(t, { operationName: 'B', query })).json).toEqual({ data: { getJobs: [null] } });
    },
  },
  {
    id: 'no-get-queries',
    level: 'MUST',
    rule: 'MUST NOT run a query sent as GET',
    check: async (t) => {
      const res = await fetch(`${t.url}?query=${encodeURIComponent('{ getJob(jobId: "x") { id } }')}`, { headers: { authorization: `Bearer ${t.token}`, accept: 'application/json' } });
      expect(res.status).toBe(405);
      expect(((await res.json()) as { data?: unknown }).data).toBeUndefined();
    },
  },
  {
    id: 'cabinet-per-role',
    level: 'MUST',
    rule: 'MUST give a project one cabinet per role, and the label sets through either',
    check: async (t) => {
      const [labeler, reviewer] = [await cabinetId(t, 'LABELER'), await cabinetId(t, 'REVIEWER')];
      expect(labeler).not.toBe(reviewer);
      expect(await cabinetId(t, 'LABELER')).toBe(labeler);
      const sets = async (id: string) => (await gql(t, { query: LABEL_SETS, variables: { cabinetId: id } })).json.data?.getCabinetLabelSetsById;
      expect(await sets(reviewer)).toEqual(await sets(labeler));
    },
  },
  {
    id: 'label-set-shape',
    level: 'MUST',
    rule: 'MUST answer label sets ordered by a zero-based index, at most 5, with hex signatures and parentIds that name items of the set',
    check: async (t) => {
      const { json } = await gql(t, { query: LABEL_SETS, variables: { cabinetId: await cabinetId(t) } });
      const sets = json.data?.getCabinetLabelSetsById as { index: number; signature: string | null; tagItems: { id: string; parentId: string | null; type: string }[] }[];
      expect(sets.length).toBeGreaterThan(0);
      expect(sets.length).toBeLessThanOrEqual(5);
      expect(sets.map((s) => s.index)).toEqual(sets.map((_, i) => i));
      for (const set of sets) {
        if (set.signature !== null) expect(set.signature).toMatch(/^[0-9a-f]{64}$/);
        const ids = new Set(set.tagItems.map((i) => i.id));
        for (const item of set.tagItems) if (item.parentId !== null) expect(ids).toContain(item.parentId);
        for (const item of set.tagItems) expect(['SPAN', 'ARROW', 'ALL']).toContain(item.type);
      }
    },
  },
  {
    id: 'unknown-cabinet-error',
    level: 'MUST',
    rule: 'MUST answer an unknown cabinet with a GraphQL error, not an empty list',
    check: async (t) => {
      const { json } = await gql(t, { query: LABEL_SETS, variables: { cabinetId: 'no-such-cabinet' } });
      expect(json.errors?.[0]?.message).toMatch(/no-such-cabinet/);
      expect(json.data ?? null).toBeNull();
    },
  },
  {
    id: 'unknown-job-null',
    level: 'MUST',
    rule: 'MUST answer null for an unknown job id (getJob) and null in place (getJobs)',
    check: async (t) => {
      expect((await gql(t, { query: '{ getJob(jobId: "no-such-job") { id } }' })).json).toEqual({ data: { getJob: null } });
      expect((await gql(t, { query: '{ getJobs(jobIds: ["no-such-job", "no-such-job-2"]) { id } }' })).json).toEqual({ data: { getJobs: [null, null] } });
    },
  },
  {
    id: 'syntax-error-shape',
    level: 'MUST',
    rule: 'MUST answer a document that does not parse with errors[] and no data',
    check: async (t) => {
      const { json } = await gql(t, { query: '{ getJob(jobId: ' });
      expect(json.errors?.[0]?.message).toMatch(/Syntax Error/);
      expect(json.data).toBeUndefined();
    },
  },
  {
    id: 'mutation-bad-input',
    level: 'MUST',
    rule: 'MUST refuse bad auto-label input with a GraphQL error that names every bad field, and MUST NOT echo the secret',
    check: async (t) => {
      const input = { projectId: 'no-such-project', labelerEmail: 'not-an-email', options: { numberOfFilesPerRequest: -1, serviceProvider: 'SPACY' }, targetAPI: { endpoint: 'not a url', secretKey: SENTINEL } };
      const { json, text } = await gql(t, { operationName: 'AutoLabelTokenBasedProjectMutation', query: MUTATION, variables: { input } });
      expect(json.data ?? null).toBeNull();
      const message = json.errors?.map((e) => e.message).join('\n') ?? '';
      for (const field of ['projectId', 'labelerEmail', 'numberOfFilesPerRequest', 'serviceProvider', 'endpoint']) expect(message).toContain(field);
      expect(text).not.toContain(SENTINEL);
    },
  },
  {
    id: 'mutation-secret-wrong-type',
    level: 'MUST',
    rule: 'MUST NOT echo a secretKey of the wrong type in the GraphQL error that refuses it',
    check: async (t) => {
      const input = { projectId: t.projectId, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: 'http://127.0.0.1:9/', secretKey: 918273645546 } };
      const { json, text } = await gql(t, { query: MUTATION, variables: { input } });
      expect(json.errors?.[0]?.message).toMatch(/input\.targetAPI\.secretKey/);
      expect(text).not.toContain('918273645546');
    },
  },
  {
    id: 'mutation-returns-at-once',
    level: 'MUST',
    rule: 'MUST answer a good auto-label input at once with the job (status QUEUED, progress 0), before calling the model',
    emulatorOnly: true,
    check: async (t) => {
      const input = { projectId: t.projectId, labelerEmail: 'contract@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: 'http://127.0.0.1:9/unreachable', secretKey: SENTINEL } };
      const { json, text } = await gql(t, { operationName: 'Anything', query: MUTATION, variables: { input } });
      expect(json).toEqual({ data: { result: { id: expect.any(String), status: 'QUEUED', progress: 0 } } });
      expect(text).not.toContain(SENTINEL);
      const id = (json.data?.result as { id: string }).id;
      const job = await gql(t, { query: `{ getJob(jobId: "${id}") { id status progress createdAt updatedAt resultId errors { id stack args } } }` });
      expect(job.json.data?.getJob).toMatchObject({ id, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    },
  },
  {
    id: 'oauth-client-credentials',
    level: 'MUST',
    rule: 'MUST issue {access_token, token_type, expires_in} for client credentials at /api/oauth/token, and refuse a wrong secret',
    check: async (t) => {
      const grant = (secret: string) =>
        fetch(t.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: secret }),
        });
      const ok = await grant(t.clientSecret);
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { access_token: string; token_type: string; expires_in: number };
      expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number) });
      expect((await gql({ ...t, token: body.access_token }, { query: CABINET, variables: { projectId: t.projectId, role: 'LABELER' } })).json.data).toBeTruthy();
      const bad = await grant(SENTINEL);
      expect(bad.status).toBe(401);
      expect(await bad.text()).not.toContain(SENTINEL);
    },
  },
  {
    id: 'cors-loopback',
    level: 'SHOULD',
    rule: 'SHOULD let browser pages on loopback origins call /graphql, and no other origin',
    emulatorOnly: true,
    check: async (t) => {
      const preflight = (origin: string) =>
        fetch(t.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
      const local = await preflight('http://localhost:5173');
      expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(local.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
      expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    },
  },
];
