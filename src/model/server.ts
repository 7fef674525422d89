import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createModelHandler } from './handler.js';
import { createSampleModel } from './sampleModel.js';
import type { Predict } from './contract.js';

/** Options of {@link startModelServer}. */
export interface ModelServerOptions {
  /** @defaultValue 0 (a free port) */
  port?: number;
  /** @defaultValue '127.0.0.1' */
  host?: string;
  secretKey: string;
  /** @defaultValue the sample gazetteer model */
  predict?: Predict;
}

/** A running model endpoint. */
export interface RunningModelServer {
  /** The endpoint URL to give as `targetAPI.endpoint`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a fetch-style handler on node:http; `close()` destroys open sockets and frees the port.
 *
 * @param handler - a fetch-style handler
 * @param port - the port (0 for a free one)
 * @param host - the address to listen on
 * @returns the base URL and close()
 */
export async function serveFetchHandler(
  handler: (request: Request) => Promise<Response>,
  port: number,
  host: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void bridge(handler, req, res, host));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function bridge(handler: (r: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse, host: string): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${host}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(hasBody && { body: Buffer.concat(chunks) }) });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `internal error: ${error instanceof Error ? error.message : String(error)}` }));
  }
}

/**
 * Starts a model endpoint of the span contract on loopback.
 *
 * @param options - port, host, secret and prediction function (the sample model by default)
 * @returns the endpoint URL and close()
 * @example
 * ```ts
 * const model = await startModelServer({ secretKey: 'local-secret' });
 * console.log(model.url); // http://127.0.0.1:PORT/
 * await model.close();
 * ```
 */
export async function startModelServer(options: ModelServerOptions): Promise<RunningModelServer> {
  const handler = createModelHandler(options.predict ?? createSampleModel(), { secretKey: options.secretKey });
  const served = await serveFetchHandler(handler, options.port ?? 0, options.host ?? '127.0.0.1');
  return { url: `${served.url}/`, close: served.close };
}
