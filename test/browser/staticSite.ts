import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A tiny static site on its own loopback port: another origin than the emulator's. */
export interface StaticSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves fixed files on 127.0.0.1 (port 0).
 *
 * @param files - path → [content type, body]
 * @returns the origin and `close()` (destroys open sockets)
 */
export async function serveStaticSite(files: Record<string, [string, string]>): Promise<StaticSite> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' }).end(file[1]);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
