import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A front on 127.0.0.1 that passes requests to a service, can lose the answer of chosen
 * operations, and can let someone else write while a chosen request is in flight.
 */
export interface DroppingFront {
  /** The front's GraphQL endpoint. */
  url: string;
  /** The operation names of the GraphQL requests that reached the service, in order. */
  sent: string[];
  /** Operations the service runs but whose answer never arrives (the socket is destroyed). */
  dropAnswerOf: Set<string>;
  /**
   * Another user's change, run once when a request of this operation has arrived and before it
   * is passed on: it lands while that request is in flight.
   */
  meanwhile: Map<string, () => Promise<void>>;
  close(): Promise<void>;
}

/**
 * Starts the front (port 0) before a service.
 *
 * @param baseUrl - the service's origin, e.g. the emulator's `baseUrl`
 * @returns the front
 */
export async function startDroppingFront(baseUrl: string): Promise<DroppingFront> {
  const sockets = new Set<Socket>();
  const front = { url: '', sent: [] as string[], dropAnswerOf: new Set<string>(), meanwhile: new Map<string, () => Promise<void>>() };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let operationName = '';
    try {
      operationName = (JSON.parse(body) as { operationName?: string }).operationName ?? '';
    } catch {
      /* not JSON: the service answers it */
    }
    front.sent.push(operationName);
    const change = front.meanwhile.get(operationName);
    front.meanwhile.delete(operationName);
    await change?.();
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers.set(k, v);
    const answer = await fetch(new URL(req.url ?? '/', baseUrl), { method: req.method ?? 'GET', headers, ...(req.method === 'POST' && { body }) });
    const text = await answer.text();
    if (front.dropAnswerOf.has(operationName)) {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return Object.assign(front, {
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
