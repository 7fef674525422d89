import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Client } from '@urql/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BODY_EXCERPT_CHARS, fetchTransport } from '../../src/client/fetchTransport.js';
import { GetCabinetDocument } from '../../generated/graphql.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A loopback server whose next answers the test decides. */
async function startServer() {
  const handlers: Handler[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handlers.shift()!(req, res, body));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    next: (handler: Handler) => handlers.push(handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('fetchTransport', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let client: Client;
  beforeEach(async () => {
    server = await startServer();
    client = new Client({ url: server.url, exchanges: [fetchTransport], preferGetMethod: false, requestPolicy: 'network-only' });
  });
  afterEach(() => server.close());
  const query = () => client.query(GetCabinetDocument, { projectId: 'p1', role: 'LABELER' }).toPromise();

  it('POSTs operationName, query and variables once and resolves with the parsed data when the answer is JSON', async () => {
    const seen: { method?: string; body?: string; headers?: IncomingMessage['headers'] } = {};
    server.next((req, res, body) => {
      Object.assign(seen, { method: req.method, body, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"getCabinet":{"id":"c1"}}}');
    });
    const result = await query();
    expect(result.error).toBeUndefined();
    expect(result.data).toEqual({ getCabinet: { id: 'c1' } });
    expect(seen.method).toBe('POST');
    expect(seen.headers!['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body!)).toEqual({
      operationName: 'GetCabinet',
      query: expect.stringContaining('query GetCabinet($projectId: ID!, $role: Role!)'),
      variables: { projectId: 'p1', role: 'LABELER' },
    });
  });

  it('aborts the request when the operation is torn down before the answer', async () => {
    let closed!: Promise<void>;
    const held = new Promise<void>((resolve) =>
      server.next((_req, res) => {
        closed = new Promise<void>((done) => res.on('close', () => done()));
        resolve(); // the server holds the request and never answers
      }),
    );
    const subscription = client.query(GetCabinetDocument, { projectId: 'p1', role: 'LABELER' }).subscribe(() => {});
    await held;
    subscription.unsubscribe();
    await closed; // the client closed the connection of the unanswered request
  });

  it('fails with the status text and keeps the response when a non-2xx answer is not JSON', async () => {
    server.next((_req, res) => res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' }).end('<html>proxy error</html>'));
    const result = await query();
    expect(result.data).toBeUndefined();
    expect(result.error?.networkError?.message).toBe('Bad Gateway');
    expect((result.error?.response as Response).status).toBe(502);
  });

  it(`keeps the first ${BODY_EXCERPT_CHARS} characters of a text answer that is not JSON as the message`, async () => {
    server.next((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5_000)));
    const result = await query();
    expect(result.error?.networkError?.message).toBe('x'.repeat(BODY_EXCERPT_CHARS));
  });

  it('passes GraphQL errors through with the response when a 4xx answer is a GraphQL response', async () => {
    server.next((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"errors":[{"message":"bad variables"}]}'));
    const result = await query();
    expect(result.error?.graphQLErrors.map((e) => e.message)).toEqual(['bad variables']);
    expect((result.error?.response as Response).status).toBe(400);
  });

  it('fails with a network error when the body is cut off mid-way', async () => {
    server.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":{"getCa', () => res.socket?.destroy());
    });
    const result = await query();
    expect(result.data).toBeUndefined();
    expect(result.error?.networkError).toBeInstanceOf(Error);
    expect(result.error?.graphQLErrors).toEqual([]);
  });
});
