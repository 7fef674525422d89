import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A fetch-style handler served on a port. */
export interface ServedHandler {
  /** e.g. `http://127.0.0.1:4000` (IPv6 hosts in brackets). */
  origin: string;
  port: number;
  /** Stops listening, destroys open sockets (keep-alive ones included) and frees the port. */
  close(): Promise<void>;
}

async function bridge(handler: (r: Request) => Promise<Response>, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const method = req.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(new URL(req.url ?? '/', origin), { method, headers, ...(hasBody && { body: Buffer.concat(chunks) }) });
    const response = await handler(request);
    const body = method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, key) => {
      // Node computes Content-Length itself from the buffered body (and leaves it off a 204).
      if (key !== 'set-cookie' && key !== 'content-length') out[key] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    res.writeHead(response.status, out);
    res.end(body);
  } catch {
    // The handler (yoga) answers its own errors; this is only reached when the bridge breaks.
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ errors: [{ message: 'internal error of the emulator' }] }));
  }
}

/**
 * Serves a fetch-style handler with `node:http` (the thin adapter of STYLE practice 9).
 *
 * @param handler - `(request: Request) => Promise<Response>`
 * @param port - 0 for a free port
 * @param host - the address to listen on, e.g. `127.0.0.1`
 * @returns the origin and `close()`
 * @throws when the port cannot be taken (e.g. EADDRINUSE)
 * @remarks Bodies are buffered (the emulator's answers are small JSON). `close()` destroys every
 * open socket, so a client's keep-alive connection does not hold the port.
 */
export async function serveFetchHandler(handler: (request: Request) => Promise<Response>, port: number, host: string): Promise<ServedHandler> {
  const sockets = new Set<Socket>();
  let origin = '';
  const server = createServer((req, res) => void bridge(handler, origin, req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    origin,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
