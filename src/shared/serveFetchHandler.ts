/**
 * The one node:http adapter of the project, used by the emulator (`startEmulator`) and the model
 * kit (`startModelServer`, and exported from `labelkit/model`). Node only: the client never
 * imports it. Node built-ins only, so that the model kit installs with no dependency.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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
 * The request's body as a web stream that reads the socket only when the handler reads it
 * (`highWaterMark: 0`: nothing is pulled ahead).
 */
function lazyBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      async cancel() {
        await chunks?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A web `Request` for a node:http request; its signal aborts when the client goes away first. */
function toRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = lazyBody(req);
    init.duplex = 'half';
  }
  const host = req.headers.host;
  return new Request(new URL(req.url ?? '/', host ? `http://${host}` : origin), init);
}

/** Resolves when `res` may take more data; rejects when the client has gone away. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('the client closed the connection'));
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/**
 * Writes a web `Response` to a node:http response, streaming its body.
 *
 * @remarks Any fetch-style `Response` will do, not only Node's own: graphql-yoga answers with the
 * ponyfill of `@whatwg-node/fetch`, so the body is read through `getReader()` alone.
 */
async function send(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  const cookies = typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : [];
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' || cookies.length === 0) res.setHeader(name, value);
  });
  if (!response.body || req.method === 'HEAD') {
    res.end();
    await response.body?.cancel();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (!res.write(chunk.value)) await drained(res);
    }
    res.end();
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}

/**
 * Serves a fetch-style handler with `node:http`.
 *
 * @param handler - `(request: Request) => Promise<Response>`
 * @param port - 0 for a free port
 * @param host - the address to listen on, e.g. `127.0.0.1`
 * @returns the origin as `url`, the port and `close()`
 * @throws when the port cannot be taken (e.g. EADDRINUSE)
 * @remarks The request body reaches the handler as a stream that is read only when the handler
 * reads it, so a handler that answers from the headers alone (a missing token, a declared
 * `Content-Length` over a limit) never buffers the body. The request's URL is built from its
 * `Host` header; its `signal` aborts when the client disconnects before the answer is sent. A
 * handler that throws gets a generic JSON 500 (never the error's text or stack). `close()`
 * destroys every open socket, so a client's keep-alive connection does not hold the port.
 * @example
 * ```ts
 * const served = await serveFetchHandler(async () => new Response('ok'), 0, '127.0.0.1');
 * console.log(await (await fetch(served.url)).text()); // ok
 * await served.close();
 * ```
 */
export async function serveFetchHandler(handler: (request: Request) => Promise<Response>, port: number, host: string): Promise<ServedHandler> {
  let origin = '';
  const server = createServer((req, res) => {
    void (async () => {
      let response: Response;
      try {
        response = await handler(toRequest(req, res, origin));
      } catch {
        response = new Response(INTERNAL_ERROR, { status: 500, headers: { 'content-type': 'application/json' } });
      }
      try {
        await send(response, req, res);
      } catch {
        // The client went away mid-answer, or the body stream failed: nothing more can be said.
        res.destroy();
      }
    })();
  });
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
  origin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url: origin,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
