import { parse } from 'graphql';
import type { TypedDocumentNode } from '@urql/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as tags from 'labelkit/documents';
import * as labels from 'labelkit/documents/labels';
import { createLabelingClient, isLabelkitError } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { mockJob, startMockClient } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

/** An importer's own operation, as its codegen would type it (graphql's `parse` stands in for the generated object). */
const JobStatusDocument = parse('query JobStatus($jobId: String!) { job: getJob(jobId: $jobId) { id status } }') as unknown as TypedDocumentNode<
  { job: { id: string; status: string } | null },
  { jobId: string }
>;
/** An operation without variables. */
const QueryTypeDocument = parse('query QueryType { __schema { queryType { name } } }') as unknown as TypedDocumentNode<{ __schema: { queryType: { name: string } } }, Record<string, never>>;
/** A mutation of the importer's with a secret in its variables. */
const StartDocument = parse('mutation Start($input: AutoLabelTokenBasedProjectInput!) { started: autoLabelTokenBasedProject(input: $input) { id } }') as unknown as TypedDocumentNode<
  { started: { id: string } },
  { input: { projectId: string; labelerEmail: string; options: { numberOfFilesPerRequest: number }; targetAPI: { endpoint: string; secretKey: string } } }
>;
const startInput = {
  projectId: 'p1',
  labelerEmail: 'ann@example.com',
  options: { numberOfFilesPerRequest: 1 },
  targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'req-s3cret-key' },
};
const answer = (data: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) });

describe('client.request', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ server, client, close } = await startMockClient({ retry: { initialDelayMs: 5, maxAttempts: 3 } }));
  });
  afterEach(async () => {
    await close();
  });

  it('runs a document of labelkit/documents and resolves with its data', async () => {
    const data = await client.request(tags.GetCabinetDocument, { projectId: 'p1', role: 'REVIEWER' });
    expect(data).toEqual({ getCabinet: { id: 'cabinet-p1-REVIEWER' } });
    const [sent] = server.graphqlRequests();
    expect(sent!.headers.authorization).toBe('Bearer test-token');
    expect(sent!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent!.json).toMatchObject({ operationName: 'GetCabinet', variables: { projectId: 'p1', role: 'REVIEWER' } });
  });

  it("runs an importer's own document, aliases and all, and one without variables", async () => {
    server.jobs.set('j1', mockJob('j1', { status: 'IN_PROGRESS' }));
    expect(await client.request(JobStatusDocument, { jobId: 'j1' })).toEqual({ job: { id: 'j1', status: 'IN_PROGRESS' } });
    expect(await client.request(JobStatusDocument, { jobId: 'nope' })).toEqual({ job: null });
    expect(await client.request(QueryTypeDocument)).toEqual({ __schema: { queryType: { name: 'Query' } } });
    expect(server.graphqlRequests().map((r) => r.json?.operationName)).toEqual(['JobStatus', 'JobStatus', 'QueryType']);
    expect(server.graphqlRequests()[2]!.json!.variables).toEqual({});
  });

  it('rejects with BAD_RESPONSE, without a retry, when the data lacks a selected field', async () => {
    server.plan(answer({}));
    await expect(client.request(JobStatusDocument, { jobId: 'j1' })).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      operationName: 'JobStatus',
      message: expect.stringMatching(/^\[Protocol\] the answer's data lacks job \(operation JobStatus, request /),
    });
    server.plan(answer({ job: { id: 'j1' } }));
    await expect(client.request(JobStatusDocument, { jobId: 'j1' })).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: expect.stringContaining('lacks job.status') });
    // Fields of a fragment count too (getJobs selects ...JobFields).
    server.plan(answer({ getJobs: [{ id: 'j1', status: 'QUEUED' }] }));
    await expect(client.request(tags.GetJobsDocument, { jobIds: ['j1'] })).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: expect.stringContaining('lacks getJobs[0].progress') });
    expect(server.graphqlRequests()).toHaveLength(3);
  });

  it('retries a query after a 503 through request(), and never retries a mutation', async () => {
    // What this proves is which operations request() retries. Retry-After: 0 only keeps the test
    // quick: that the wait honours a non-zero Retry-After is proved in fake time by retry.test.ts
    // ("waits at least its Retry-After").
    server.plan({ status: 503, headers: { 'retry-after': '0' } });
    server.jobs.set('j1', mockJob('j1'));
    expect(await client.request(JobStatusDocument, { jobId: 'j1' })).toEqual({ job: { id: 'j1', status: 'QUEUED' } });
    expect(server.graphqlRequests()).toHaveLength(2);
    server.plan({ status: 503 });
    const error = await client.request(StartDocument, { input: startInput }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK', status: 503, mutationOutcomeUnknown: true, operationName: 'Start' });
    expect(server.graphqlRequests()).toHaveLength(3);
  });

  it('redacts a secret of the variables from every error', async () => {
    server.plan({ respond: (r) => ({ status: 500, body: `upstream said: ${r.body}` }) });
    const error = await client.request(StartDocument, { input: startInput }).catch((e: unknown) => e);
    expect(isLabelkitError(error)).toBe(true);
    expect(server.graphqlRequests()[0]!.body).toContain('req-s3cret-key');
    const views = [String(error), (error as Error).stack, JSON.stringify(error), String((error as Error).cause), ((error as Error).cause as Error | undefined)?.stack];
    for (const view of views) expect(view ?? '').not.toContain('req-s3cret-key');
    expect(String((error as Error).cause)).toContain('***');
  });

  it('rejects with GRAPHQL for errors of the service, ABORTED for a signal and TIMEOUT for its time-out', async () => {
    const wrong = parse('query Wrong { getCabinet(projectId: "p", role: LABELER) { nope } }') as unknown as TypedDocumentNode<{ getCabinet: { nope: string } }, Record<string, never>>;
    await expect(client.request(wrong)).rejects.toMatchObject({ code: 'GRAPHQL', operationName: 'Wrong' });
    const controller = new AbortController();
    controller.abort();
    await expect(client.request(JobStatusDocument, { jobId: 'j1' }, { signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    server.plan({ hang: true });
    await expect(client.request(JobStatusDocument, { jobId: 'j1' }, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(client.request(JobStatusDocument, { jobId: 'j1' }, { timeoutMs: -1 })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('refuses a subscription before anything is sent', async () => {
    const subscription = parse('subscription S { jobs { id } }') as unknown as TypedDocumentNode<unknown, Record<string, never>>;
    await expect(client.request(subscription)).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('document: must hold a query or a mutation') });
    expect(server.graphqlRequests()).toHaveLength(0);
  });
});

describe('client.request in both schema generations', () => {
  it.each(['tags', 'labels'] as const)('runs the documents of the %s generation against an emulator of it', async (generation) => {
    const emu = await startEmulator({ schemaGeneration: generation });
    const client = createLabelingClient({ url: emu.url, token: emu.token });
    const documents = generation === 'tags' ? tags : labels;
    try {
      const { getCabinet } = await client.request(documents.GetCabinetDocument, { projectId: 'demo-project', role: 'LABELER' });
      const { getCabinetLabelSetsById } = await client.request(documents.GetCabinetLabelSetsByIdDocument, { cabinetId: getCabinet.id });
      expect(getCabinetLabelSetsById[0]!.labelItems.map((i) => i.labelName)).toContain('PERSON');
    } finally {
      client.close();
      await emu.close();
    }
  });
});
