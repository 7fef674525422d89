import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

// Item 5 of issue 19: the emulator's request log names the operation and the request id, logs
// what the client saw (an auth refusal answered 200 is "200 Unauthorized"), and never a secret.
const TOKEN = 'staticTOKENsentinel42';
const CLIENT_SECRET = 'clientSECRETsentinel43';
const MODEL_SECRET = 'modelSECRETsentinel44';
const CABINET = 'query GetCabinet($projectId: ID!, $role: Role!) { getCabinet(projectId: $projectId, role: $role) { id } }';
const START = 'mutation StartJob($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }';

let emu: RunningEmulator;
const lines: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({ staticToken: TOKEN, clientId: 'cid', clientSecret: CLIENT_SECRET, log: (l) => lines.push(l), model: { retries: 0 } });
});
afterAll(async () => {
  await emu?.close();
});

/** POSTs a GraphQL body and returns the one log line it produced. */
async function logged(body: Record<string, unknown>, headers: Record<string, string>): Promise<{ status: number; json: unknown; line: string }> {
  const before = lines.length;
  const res = await fetch(emu.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json: unknown = await res.json();
  const mine = lines.slice(before).filter((l) => l.startsWith('POST /graphql'));
  expect(mine).toHaveLength(1);
  return { status: res.status, json, line: mine[0]! };
}

describe('the emulator’s request log', () => {
  it('names the operation and the request id of a request', async () => {
    const { line } = await logged(
      { operationName: 'GetCabinet', query: CABINET, variables: { projectId: DEMO_PROJECT_ID, role: 'LABELER' } },
      { authorization: `Bearer ${TOKEN}`, 'x-request-id': 'req-0001' },
    );
    expect(line).toMatch(/^POST \/graphql 200 op=GetCabinet request=req-0001 \d+ms$/);
  });

  it('takes the operation name from the document when the body sends none', async () => {
    const { line } = await logged({ query: `# a comment first\n${CABINET}`, variables: { projectId: DEMO_PROJECT_ID, role: 'LABELER' } }, { authorization: `Bearer ${TOKEN}` });
    expect(line).toMatch(/^POST \/graphql 200 op=GetCabinet \d+ms$/);
  });

  it('logs a refused token as what the client saw, "200 Unauthorized", without the token', async () => {
    const wrong = 'wrongTOKENsentinel45';
    const { status, json, line } = await logged({ operationName: 'GetCabinet', query: CABINET, variables: { projectId: DEMO_PROJECT_ID, role: 'LABELER' } }, { authorization: `Bearer ${wrong}`, 'x-request-id': 'req-0002' });
    expect(status).toBe(200);
    expect(json).toMatchObject({ errors: [{ message: 'Unauthorized' }] });
    // The body of a refused request is not read (so its operation is not known).
    expect(line).toMatch(/^POST \/graphql 200 Unauthorized request=req-0002 \d+ms$/);
    expect(line).not.toContain('sentinel');
  });

  it('says when a 200 answer carries a GraphQL error, with its code', async () => {
    const { status, line } = await logged({ operationName: 'GetCabinet', query: CABINET, variables: { projectId: 'no-such-project', role: 'LABELER' } }, { authorization: `Bearer ${TOKEN}`, 'x-request-id': 'req-0003' });
    expect(status).toBe(200);
    expect(line).toMatch(/^POST \/graphql 200 GraphQL error NOT_FOUND op=GetCabinet request=req-0003 \d+ms$/);
  });

  it('never logs a secret, even when a request puts one where the log looks', async () => {
    const input = { projectId: DEMO_PROJECT_ID, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: 'http://127.0.0.1:9/', secretKey: MODEL_SECRET } };
    const normal = await logged({ operationName: 'StartJob', query: START, variables: { input } }, { authorization: `Bearer ${TOKEN}`, 'x-request-id': 'req-0004' });
    expect(normal.line).toMatch(/^POST \/graphql 200 op=StartJob request=req-0004 \d+ms$/);
    // The secretKey as the operation name (the service accepts any alphanumeric name), the token as the request id.
    const hostile = await logged({ operationName: MODEL_SECRET, query: START, variables: { input } }, { authorization: `Bearer ${TOKEN}`, 'x-request-id': TOKEN });
    expect(hostile.line).toMatch(/^POST \/graphql 200 op=\*\*\* request=\*\*\* \d+ms$/);
    await fetch(`${emu.baseUrl}/api/oauth/token`, { method: 'POST', headers: { 'x-request-id': CLIENT_SECRET }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'cid', client_secret: CLIENT_SECRET }) });
    await fetch(`${emu.baseUrl}/api/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'cid', client_secret: 'wrongSECRETsentinel46' }) });
    await expect.poll(() => lines.filter((l) => /^job job-\d+ FAILED/.test(l)).length).toBe(2);
    expect(lines).toContainEqual(expect.stringMatching(/^POST \/api\/oauth\/token 200 request=\*\*\* \d+ms$/));
    expect(lines).toContainEqual(expect.stringMatching(/^POST \/api\/oauth\/token 401 invalid_client \d+ms$/));
    expect(lines.join('\n')).not.toMatch(/sentinel/i);
  });
});
