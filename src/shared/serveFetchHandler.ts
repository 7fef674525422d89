/**
 * The one node:http adapter of the project, used by the emulator (`startEmulator`) and the model
 * kit (`startModelServer`, and exported from `labelkit/model`). Node only: the client never
 * imports it.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';

/** A fetch-style handler served on a port. */
export interface ServedHandler {
  /** The origin, e.g. `http://127.0.0.1:4000` (IPv6 hosts in brackets), without a trailing slash. */
  url: string;
  /** The port taken (useful with port 0). */
  port: number;
  /** Stops listening, destroys open sockets (keep-alive ones included) and frees the port. */
  close(): Promise<void>;
}

const INTERNAL_ERROR = JSON.stringify({ errors: [{ message: 'internal error of the server' }] });

/**
 * Serves a fetch-style handler with `node:http`, through `@whatwg-node/server`'s
 * `createServerAdapter` (the adapter graphql-yoga itself runs on).
 *
 * @param handler - `(request: Request) => Promise<Response>`
 * @param port - 0 for a free port
 * @param host - the address to listen on, e.g. `127.0.0.1`
 * @returns the origin as `url`, the port and `close()`
 * @throws when the port cannot be taken (e.g. EADDRINUSE)
 * @remarks The request body reaches the handler as a stream that is read only when the handler
 * reads it, so a handler that answers from the headers alone (a missing token, a declared
 * `Content-Length` over a limit) never buffers the body. A handler that throws gets a generic
 * JSON 500 (never the error's text or stack). `close()` destroys every open socket, so a
 * client's keep-alive connection does not hold the port.
 * @example
 * ```ts
 * const served = await serveFetchHandler(async () => new Response('ok'), 0, '127.0.0.1');
 * console.log(await (await fetch(served.url)).text()); // ok
 * await served.close();
 * ```
 */
export async function serveFetchHandler(handler: (request: Request) => Promise<Response>, port: number, host: string): Promise<ServedHandler> {
  const adapter = createServerAdapter(async (request: Request) => {
    try {
      return await handler(request);
    } catch {
      return new Response(INTERNAL_ERROR, { status: 500, headers: { 'content-type': 'application/json' } });
    }
  });
  const server = createServer(adapter);
  const sockets = new Set<Socket>();
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
  return {
    url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
