import { Client, fetchExchange } from '@urql/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, getCabinet, getJob, getJobs, getLabelSets, getProjectLabelSets, startAutoLabel, VERSION } from '../../src/client/index.js';
import { ValidationError } from '../../src/client/errors.js';
import { GetCabinetDocument } from '../../generated/tags/graphql.js';
import type { LabelingClient } from '../../src/client/index.js';
import { startMockClient, startMockServer } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

describe('createLabelingClient: requests', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ server, client, close } = await startMockClient({ retry: { initialDelayMs: 5 } }));
  });
  afterEach(async () => {
    await close();
  });

  it('sends a JSON POST with operationName, query, variables and the identifying headers', async () => {
    await getCabinet(client, 'p1', 'LABELER');
    const [request] = server.graphqlRequests();
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.authorization).toBe('Bearer test-token');
    expect(request!.headers['x-labelkit-client']).toBe(`labelkit/${VERSION}`);
    expect(request!.headers['user-agent']).toBe(`labelkit/${VERSION}`);
    expect(request!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request!.json).toEqual({
      operationName: 'GetCabinet',
      query: expect.stringContaining('query GetCabinet($projectId: ID!, $role: Role!)'),
      variables: { projectId: 'p1', role: 'LABELER' },
    });
    expect(Object.keys(request!.json!).sort()).toEqual(['operationName', 'query', 'variables']);
  });

  it('reaches the network on every call (no document cache)', async () => {
    await getCabinet(client, 'p1', 'LABELER');
    await getCabinet(client, 'p1', 'LABELER');
    expect(server.graphqlRequests()).toHaveLength(2);
    const ids = server.graphqlRequests().map((r) => r.headers['x-request-id']);
    expect(new Set(ids).size).toBe(2);
  });

  it('maps getCabinet, getLabelSets (sorted by index) and getProjectLabelSets', async () => {
    expect(await getCabinet(client, 'p1', 'REVIEWER')).toEqual({ id: 'cabinet-p1-REVIEWER' });
    const sets = await getLabelSets(client, 'cabinet-1');
    expect(sets.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(sets[0]).toEqual({
      id: 'set-0',
      index: 0,
      name: 'Set 0',
      signature: 'ab12',
      labelItems: [
        { id: '0-root', parentId: null, labelName: 'ENTITY', color: '#ff0000', desc: null },
        { id: '0-child', parentId: '0-root', labelName: 'PERSON', color: null, desc: null },
      ],
    });
    expect(sets[1]!.signature).toBeNull();
    const viaProject = await getProjectLabelSets(client, 'p1', 'LABELER');
    expect(viaProject).toEqual(sets);
    const ops = server.graphqlRequests().map((r) => r.json!.operationName);
    expect(ops).toEqual(['GetCabinet', 'getCabinetLabelSetsById', 'GetCabinet', 'getCabinetLabelSetsById']);
    expect(server.graphqlRequests()[3]!.json!.variables).toEqual({ cabinetId: 'cabinet-p1-LABELER' });
  });

  it('starts auto-labeling with the specified mutation and returns the job at once', async () => {
    const job = await startAutoLabel(client, {
      projectId: 'p1',
      labelerEmail: 'ann@example.com',
      options: { numberOfFilesPerRequest: 2 },
      targetAPI: { endpoint: 'https://model.example.com/predict', secretKey: 's3cret-key' },
    });
    expect(job).toEqual({ id: 'job-1', status: 'QUEUED', progress: 0 });
    const [request] = server.graphqlRequests();
    expect(request!.json!.operationName).toBe('AutoLabelTokenBasedProjectMutation');
    expect(request!.json!.query).toMatch(/result: autoLabelTokenBasedProject\(input: \$input\)/);
    expect(request!.json!.variables).toEqual({
      input: {
        projectId: 'p1',
        labelerEmail: 'ann@example.com',
        options: { numberOfFilesPerRequest: 2, serviceProvider: 'CUSTOM' },
        targetAPI: { endpoint: 'https://model.example.com/predict', secretKey: 's3cret-key' },
      },
    });
  });

  it('reads jobs back, null where the service knows none', async () => {
    const started = await startAutoLabel(client, {
      projectId: 'p1',
      labelerEmail: 'ann@example.com',
      options: { numberOfFilesPerRequest: 0 },
      targetAPI: { endpoint: 'http://127.0.0.1:9/model', secretKey: 'k3y-value' },
    });
    const job = await getJob(client, started.id);
    expect(job).toMatchObject({ id: started.id, status: 'QUEUED', progress: 0, errors: [], resultId: null });
    expect(await getJob(client, 'nope')).toBeNull();
    const jobs = await getJobs(client, [started.id, 'nope']);
    expect(jobs.map((j) => j?.id ?? null)).toEqual([started.id, null]);
  });

  it('sends a clear-text model endpoint only when allowInsecureEndpoint is set', async () => {
    const input = {
      projectId: 'p1',
      labelerEmail: 'ann@example.com',
      options: { numberOfFilesPerRequest: 1 },
      targetAPI: { endpoint: 'http://model.internal:8080/predict', secretKey: 'k3y-value' },
    };
    const refused = await startAutoLabel(client, input).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).operationName).toBe('AutoLabelTokenBasedProjectMutation');
    expect(server.graphqlRequests()).toHaveLength(0);
    expect(await startAutoLabel(client, input, { allowInsecureEndpoint: true })).toMatchObject({ status: 'QUEUED' });
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('adds the extra headers of the options, but keeps its own identification', async () => {
    const custom = createLabelingClient({
      url: server.url,
      token: 'test-token',
      headers: { 'x-team': 'ner', 'x-labelkit-client': 'spoofed' },
    });
    await getJob(custom, 'j1');
    const [request] = server.graphqlRequests();
    expect(request!.headers['x-team']).toBe('ner');
    expect(request!.headers['x-labelkit-client']).toBe(`labelkit/${VERSION}`);
    custom.close();
  });

  it('leaves User-Agent to the browser in a web page', async () => {
    vi.stubGlobal('document', {});
    try {
      const inPage = createLabelingClient({ url: server.url, token: 'test-token' });
      await getJob(inPage, 'j1');
      inPage.close();
    } finally {
      vi.unstubAllGlobals();
    }
    const [request] = server.graphqlRequests();
    expect(request!.headers['user-agent']).not.toContain('labelkit');
    expect(request!.headers['x-labelkit-client']).toBe(`labelkit/${VERSION}`);
  });

  it('exports documents that work with a plain urql Client', async () => {
    const plain = new Client({ url: server.url, exchanges: [fetchExchange], preferGetMethod: false, fetchOptions: { headers: { authorization: 'Bearer test-token' } } });
    const result = await plain.query(GetCabinetDocument, { projectId: 'p9', role: 'REVIEWER' }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.getCabinet.id).toBe('cabinet-p9-REVIEWER');
  });
});

/** The same auto-labeling input, for identical mutations. */
const sameInput = {
  projectId: 'p1',
  labelerEmail: 'ann@example.com',
  options: { numberOfFilesPerRequest: 1 },
  targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'k3y-k3y' },
};

describe('createLabelingClient: identical calls at the same time', () => {
  it('sends each mutation, shares one request among identical queries in flight (urql deduplicates them), and answers each call', async () => {
    const server = await startMockServer();
    const client = createLabelingClient({ url: server.url, token: 'test-token' });
    try {
      const jobs = await Promise.all([startAutoLabel(client, sameInput), startAutoLabel(client, sameInput)]);
      expect(new Set(jobs.map((j) => j.id)).size).toBe(2);
      const cabinets = await Promise.all([getCabinet(client, 'p', 'LABELER'), getCabinet(client, 'p', 'LABELER')]);
      expect(cabinets).toEqual([{ id: 'cabinet-p-LABELER' }, { id: 'cabinet-p-LABELER' }]);
      expect(server.graphqlRequests().map((r) => r.json?.operationName)).toEqual(['AutoLabelTokenBasedProjectMutation', 'AutoLabelTokenBasedProjectMutation', 'GetCabinet']);
      // Once the first is answered, the same query is sent again (no cache).
      expect(await getCabinet(client, 'p', 'LABELER')).toEqual({ id: 'cabinet-p-LABELER' });
      expect(server.graphqlRequests()).toHaveLength(4);
    } finally {
      client.close();
      await server.close();
    }
  });
});

describe('createLabelingClient: an identical mutation waiting for its turn', () => {
  it('says nothing was sent, and that its outcome is known, when it ends before the first one answers', async () => {
    const server = await startMockServer();
    const client = createLabelingClient({ url: server.url, token: 'test-token' });
    try {
      server.plan({ hang: true });
      const first = startAutoLabel(client, sameInput, { timeoutMs: 2_000 }).catch((e: unknown) => e);
      const second = await startAutoLabel(client, sameInput, { timeoutMs: 300 }).catch((e: unknown) => e);
      expect(second).toMatchObject({ code: 'TIMEOUT', mutationOutcomeUnknown: false });
      expect((second as Error).message).toMatch(/^\[Network\] no answer within 300 ms; nothing was sent \(operation AutoLabelTokenBasedProjectMutation, request /);
      // The first one was sent and is lost to its own time-out: its outcome is unknown.
      expect(await first).toMatchObject({ code: 'TIMEOUT', mutationOutcomeUnknown: true });
      expect(server.graphqlRequests()).toHaveLength(1);
    } finally {
      client.close();
      await server.close();
    }
  });
});
