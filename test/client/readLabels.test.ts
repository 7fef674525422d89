import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLabelingClient, readDocumentLabels, readLabelsOfDocuments } from '../../src/client/index.js';
import type { LabelingClient, TextLabel } from '../../src/client/index.js';
import { startMockServer } from '../support/mockServer.js';
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
  beforeEach(async () => {
    server = await startMockServer();
    client = createLabelingClient({ url: server.url, token: 'test-token', retry: { maxAttempts: 1 } });
  });
  afterEach(async () => {
    client.close();
    await server.close();
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

describe('readLabelsOfDocuments', () => {
  it('reads one document after the other, with progress after each', async () => {
    const server = await startMockServer();
    const client = createLabelingClient({ url: server.url, token: 'test-token' });
    try {
      server.plan(answer([label('a')], null), answer([], null), answer([label('b'), label('c')], null));
      const progress: string[] = [];
      const docs: string[] = [];
      for await (const { documentId, labels } of readLabelsOfDocuments(client, ['d1', 'd2', 'd3'], { onProgress: (done, total) => progress.push(`${done}/${total}`) })) {
        docs.push(`${documentId}:${labels.map((l) => l.id).join('')}`);
      }
      expect(docs).toEqual(['d1:a', 'd2:', 'd3:bc']);
      expect(progress).toEqual(['1/3', '2/3', '3/3']);
    } finally {
      client.close();
      await server.close();
    }
  });
});
