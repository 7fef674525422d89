import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { readDocumentLabels, readLabelsOfDocuments } from '../../src/labels/index.js';
import type { TextLabel } from '../../src/labels/index.js';
import { startMockClient } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';

const answer = (nodes: unknown[], nextCursor: string | null) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ data: { getLabelsPaginated: { nodes, pageInfo: { nextCursor }, totalCount: 3 } } }),
});
/** Every page of an async iterator (Node 20 has no Array.fromAsync). */
async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
}
const label = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  l: 'per',
  layer: 0,
  start: { sentenceId: 0, tokenId: 1, charId: 0 },
  end: { sentenceId: 0, tokenId: 2, charId: 5 },
  labeledBy: 'LABELER',
  deleted: false,
  confidenceScore: 0.9,
  ...extra,
});

describe('readDocumentLabels', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ server, client, close } = await startMockClient({ retry: { maxAttempts: 1 } }));
  });
  afterEach(async () => {
    await close();
  });

  it('pages as the vendor does: { page: { skip: 0, take: 100 } } first, then { cursor } until it is null', async () => {
    server.plan(answer([label('a'), label('b')], 'c-2'), answer([label('c')], null));
    const pages: TextLabel[][] = [];
    for await (const page of readDocumentLabels(client, 'doc-1')) pages.push(page);
    expect(pages.map((p) => p.map((l) => l.id))).toEqual([['a', 'b'], ['c']]);
    const sent = server.graphqlRequests().map((r) => [r.json?.operationName, r.json?.variables]);
    expect(sent).toEqual([
      ['GetLabelsPaginated', { documentId: 'doc-1', input: { page: { skip: 0, take: 100 } } }],
      ['GetLabelsPaginated', { documentId: 'doc-1', input: { cursor: 'c-2' } }],
    ]);
  });

  it('lets fields the service adds through, and accepts absent or null optional fields', async () => {
    server.plan(answer([label('a', { hashCode: 'h', labeledByUserId: 7 }), { ...label('b'), labeledBy: null, deleted: undefined, confidenceScore: null }], null));
    const [page] = await collect(readDocumentLabels(client, 'doc-1'));
    expect(page![0]).toMatchObject({ id: 'a', hashCode: 'h', labeledByUserId: 7 });
    expect(page![1]).toMatchObject({ id: 'b', labeledBy: null, confidenceScore: null });
  });

  it('refuses a page size that is not a whole number from 1 before sending anything', async () => {
    for (const pageSize of [0, -1, 2.5, 2 ** 31]) {
      const error = await collect(readDocumentLabels(client, 'doc-1', { pageSize })).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'VALIDATION', problems: [{ path: 'options.pageSize', message: 'must be an integer from 1 to 2147483647' }] });
    }
    expect(server.graphqlRequests()).toHaveLength(0);
  });

  it.each([
    ['a node that is not an object', 'oops', /label 1 of document doc-1 is not an object/],
    ['a node without l', { ...label('x'), l: undefined }, /label 1 of document doc-1 lacks the string id or l/],
    ['a negative layer', label('x', { layer: -1 }), /has no layer/],
    ['an end without charId', label('x', { end: { sentenceId: 0, tokenId: 1 } }), /has no end \{ sentenceId tokenId charId \}/],
    ['an unknown labeledBy', label('x', { labeledBy: 'ROBOT' }), /has an unknown labeledBy "ROBOT"/],
    ['a confidence as text', label('x', { confidenceScore: '0.9' }), /confidenceScore that is not a number/],
  ])('rejects with BAD_RESPONSE for %s, naming the node', async (_, node, message) => {
    server.plan(answer([label('ok'), node], null));
    const error = await collect(readDocumentLabels(client, 'doc-1')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE', message: expect.stringMatching(message) });
  });
});

/**
 * A loopback GraphQL server that answers getLabelsPaginated by document (one page each), after
 * the delay given for that document, and counts the reads in flight and the connections closed
 * by the client before their answer.
 */
async function startDocumentServer(documents: Record<string, { labels: string[]; delayMs?: number; fail?: boolean }>) {
  const state = { inFlight: 0, maxInFlight: 0, asked: [] as string[], answered: [] as string[], abandoned: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const documentId = String((JSON.parse(body) as { variables: { documentId: string } }).variables.documentId);
      const doc = documents[documentId]!;
      state.asked.push(documentId);
      state.maxInFlight = Math.max(state.maxInFlight, ++state.inFlight);
      let answered = false;
      res.on('close', () => {
        state.inFlight--;
        if (answered) return;
        state.abandoned++;
        clearTimeout(timer); // a cut request leaves no timer behind
      });
      const timer = setTimeout(() => {
        answered = true;
        state.answered.push(documentId);
        const answer = doc.fail
          ? { errors: [{ message: `no document ${documentId}` }], data: null }
          : { data: { getLabelsPaginated: { nodes: doc.labels.map((id) => label(id)), pageInfo: { nextCursor: null }, totalCount: doc.labels.length } } };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      }, doc.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return { url, state, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

describe('readLabelsOfDocuments', () => {
  let server: Awaited<ReturnType<typeof startDocumentServer>> | undefined;
  let client: LabelingClient | undefined;
  afterEach(async () => {
    client?.close();
    await server?.close();
  });

  it('gives the documents in order, with progress after each, while reading 4 at once (a slow first one does not reorder them)', async () => {
    const delays = [300, 150, 200, 120, 0, 10]; // the first four overlap: each answers 120 ms or more after its request
    server = await startDocumentServer(Object.fromEntries(delays.map((delayMs, i) => [`d${i + 1}`, { labels: i === 1 ? [] : [`a${i + 1}`, `b${i + 1}`], delayMs }])));
    client = createLabelingClient({ url: server.url, token: 'test-token' });
    const progress: string[] = [];
    const docs: string[] = [];
    const ids = delays.map((_, i) => `d${i + 1}`);
    for await (const { documentId, labels } of readLabelsOfDocuments(client, ids, { onProgress: (done, total) => progress.push(`${done}/${total}`) })) {
      docs.push(`${documentId}:${labels.map((l) => l.id).join(',')}`);
    }
    expect(docs).toEqual(['d1:a1,b1', 'd2:', 'd3:a3,b3', 'd4:a4,b4', 'd5:a5,b5', 'd6:a6,b6']);
    expect(progress).toEqual(['1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
    expect(server.state.maxInFlight).toBe(4);
    expect(server.state.asked.slice(0, 4).sort()).toEqual(['d1', 'd2', 'd3', 'd4']);
  });

  it('reads one document after the other with readAhead: 1, and refuses a readAhead that is not a whole number from 1 before sending anything', async () => {
    server = await startDocumentServer({ d1: { labels: ['a'], delayMs: 20 }, d2: { labels: ['b'] }, d3: { labels: ['c'] } });
    client = createLabelingClient({ url: server.url, token: 'test-token' });
    const docs: string[] = [];
    for await (const { documentId } of readLabelsOfDocuments(client, ['d1', 'd2', 'd3'], { readAhead: 1 })) docs.push(documentId);
    expect(docs).toEqual(['d1', 'd2', 'd3']);
    expect(server.state.maxInFlight).toBe(1);
    for (const readAhead of [0, 1.5, Number.NaN]) {
      const error = await collect(readLabelsOfDocuments(client, ['d1'], { readAhead })).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'VALIDATION', problems: [{ path: 'options.readAhead', message: 'must be an integer >= 1' }] });
    }
    // Every problem at once, the call's options too (the signal is not handed to a request first).
    const error = await collect(readLabelsOfDocuments(client, ['d1'], { readAhead: 0, pageSize: 0, signal: 'stop' as unknown as AbortSignal, onProgress: 1 as never })).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'VALIDATION',
      problems: [
        { path: 'options.signal', message: 'must be an AbortSignal' },
        { path: 'options.onProgress', message: 'must be a function' },
        { path: 'options.pageSize', message: 'must be an integer from 1 to 2147483647' },
        { path: 'options.readAhead', message: 'must be an integer >= 1' },
      ],
    });
    expect(server.state.asked).toHaveLength(3);
  });

  it('ends with the first failure in order, after the documents before it, and aborts the reads ahead of it', async () => {
    server = await startDocumentServer({
      d1: { labels: ['a'], delayMs: 150 }, // long enough for the reads of d3 and d4 to reach the server
      d2: { labels: [], fail: true },
      d3: { labels: ['c'], delayMs: 5_000 },
      d4: { labels: ['d'], delayMs: 5_000 },
      d5: { labels: ['e'], delayMs: 5_000 },
    });
    client = createLabelingClient({ url: server.url, token: 'test-token' });
    const docs: string[] = [];
    const error = await (async () => {
      for await (const { documentId } of readLabelsOfDocuments(client!, ['d1', 'd2', 'd3', 'd4', 'd5'])) docs.push(documentId);
    })().catch((e: unknown) => e);
    expect(docs).toEqual(['d1']);
    expect(error).toMatchObject({ code: 'GRAPHQL', message: expect.stringContaining('no document d2') });
    // d3 and d4 (and d5, had its read begun while d1 was handed over) are cut before their answers.
    await expect.poll(() => server!.state.inFlight).toBe(0);
    expect(server.state.answered.sort()).toEqual(['d1', 'd2']);
    expect(server.state.abandoned).toBe(server.state.asked.length - 2);
    expect(server.state.abandoned).toBeGreaterThanOrEqual(2);
  });

  it('aborts the reads in flight when the caller stops early, and sends nothing more', async () => {
    const slow = (id: string) => ({ labels: [id], delayMs: 5_000 });
    // d1 answers after 150 ms, so that the reads of d2 to d4 have reached the server by then.
    server = await startDocumentServer({ d1: { labels: ['a'], delayMs: 150 }, d2: slow('b'), d3: slow('c'), d4: slow('d'), d5: slow('e'), d6: slow('f') });
    client = createLabelingClient({ url: server.url, token: 'test-token' });
    for await (const { documentId } of readLabelsOfDocuments(client, ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'])) if (documentId === 'd1') break;
    await expect.poll(() => server!.state.inFlight).toBe(0);
    expect(server.state.answered).toEqual(['d1']);
    // d2 to d4 (and d5, when its read, begun as d1 was handed over, reached the server) are cut
    // before their answers; d6 is never asked.
    expect(server.state.asked.slice(0, 4).sort()).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(server.state.asked.slice(4)).toEqual(server.state.asked.length === 5 ? ['d5'] : []);
    expect(server.state.abandoned).toBe(server.state.asked.length - 1);
  });
});
