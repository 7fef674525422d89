import { afterEach, describe, expect, it } from 'vitest';
import { appendLabelItems, createLabelingClient, createLabelSet, deleteLabelSet, updateLabelSet } from '../../src/client/index.js';
import { NetworkError } from '../../src/client/errors.js';
import type { LabelingClient } from '../../src/client/index.js';
import { startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { productionSdl } from '../support/productionSchema.js';

const TOKEN = 'writes-token-SENTINEL-8b1d';

let server: MockServer | undefined;
let client: LabelingClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The four writes, each as one call. */
const writes = {
  createLabelSet: (c: LabelingClient) => createLabelSet(c, 'p1', { index: 1, name: 'S', labelItems: [{ id: 'a', labelName: 'A' }] }),
  updateLabelSet: (c: LabelingClient) => updateLabelSet(c, { id: '1', projectId: 'p1', labelSetSignature: 'abc', name: 'T' }),
  appendLabelItems: (c: LabelingClient) => appendLabelItems(c, { labelSetId: '1', labelItems: [{ labelName: 'X' }, { id: 'y', labelName: 'Y' }] }),
  deleteLabelSet: (c: LabelingClient) => deleteLabelSet(c, '1'),
};

describe('label-set writes when the answer is lost', () => {
  it.each(Object.entries(writes))('%s is sent once and says its outcome is unknown when the connection drops', async (_, write) => {
    server = await startMockServer({ validTokens: [TOKEN] });
    client = createLabelingClient({ url: server.url, token: TOKEN, retry: { maxAttempts: 5, initialDelayMs: 1 } });
    server.plan({ drop: true });
    const error = (await rejection(write(client))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.mutationOutcomeUnknown).toBe(true);
    expect(error.message).toMatch(/write may have reached the service .*no answer arrived.*read the label sets again/);
    expect(error.message).not.toContain('job');
    expect(JSON.stringify(error) + error.message).not.toContain(TOKEN);
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('never retries a write after a 503, and says a 429 did not run it', async () => {
    server = await startMockServer({ validTokens: [TOKEN] });
    client = createLabelingClient({ url: server.url, token: TOKEN, retry: { maxAttempts: 5, initialDelayMs: 1 } });
    server.plan({ status: 503 });
    expect(await rejection(writes.createLabelSet(client))).toMatchObject({ mutationOutcomeUnknown: true, status: 503 });
    server.plan({ status: 429 });
    expect(await rejection(writes.deleteLabelSet(client))).toMatchObject({ mutationOutcomeUnknown: false, status: 429 });
    expect(server.graphqlRequests()).toHaveLength(2);
  });
});

describe('label-set writes against the whole production schema', () => {
  it('runs every write with the service\'s own names', async () => {
    const typeDefs = productionSdl();
    const scalars = [...typeDefs.matchAll(/^scalar (\w+)/gm)].map((m) => m[1]!);
    server = await startMockServer({ typeDefs, validTokens: [TOKEN], mocks: Object.fromEntries(scalars.map((s) => [s, () => ({})])) });
    client = createLabelingClient({ url: server.url, token: TOKEN });
    const created = await writes.createLabelSet(client);
    expect(created).toMatchObject({ id: expect.any(String), index: expect.any(Number), labelItems: expect.any(Array) });
    expect(await writes.updateLabelSet(client)).toMatchObject({ id: expect.any(String) });
    expect(await writes.appendLabelItems(client)).toHaveLength(2);
    expect(await writes.deleteLabelSet(client)).toEqual(expect.any(Array));
    const requests = server.graphqlRequests().map((r) => r.json!);
    expect(requests.map((r) => r.operationName)).toEqual(['CreateLabelSet', 'UpdateProjectLabelSet', 'AppendLabelSetLabelItems', 'DeleteLabelSet']);
    // Today's words on the wire, the service's own field names.
    expect(requests[0]!.variables).toEqual({ projectId: 'p1', input: { index: 1, name: 'S', tagItems: [{ id: 'a', parentId: null, tagName: 'A', color: null, desc: null }] } });
    expect(requests[2]!.variables).toEqual({ input: { labelSetId: '1', tagItems: [{ tagName: 'X', color: null, desc: null }, { id: 'y', tagName: 'Y', color: null, desc: null }] } });
  });
});
