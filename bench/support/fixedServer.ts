import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A loopback server that answers every POST with the same precomputed JSON body (keep-alive). */
export async function startFixedServer(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const payload = Buffer.from(body);
  return startAnswerServer(() => payload);
}

/**
 * A loopback server (keep-alive) that answers each POST with the JSON `answer` gives for the
 * request's body, `delayMs` after the request (a network's round trip; none by default);
 * `close()` destroys open sockets.
 */
export async function startAnswerServer(answer: (requestBody: string) => Buffer, delayMs = 0): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const payload = answer(Buffer.concat(chunks).toString('utf8'));
      const send = () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': payload.length });
        res.end(payload);
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A getCabinetLabelSetsById answer: `sets` label sets of `items` hierarchical items each. */
export function labelSetsPayload(sets: number, items: number): string {
  return JSON.stringify({
    data: {
      getCabinetLabelSetsById: Array.from({ length: sets }, (_, s) => ({
        id: `set-${s}`,
        index: s,
        name: `Set ${s}`,
        signature: 'ab'.repeat(32),
        // Each item hangs under the item i/10 places before it: a wide, several-level hierarchy.
        labelItems: Array.from({ length: items }, (_, i) => ({
          id: `${s}-${i}`,
          parentId: i === 0 ? null : `${s}-${Math.floor((i - 1) / 10)}`,
          labelName: `LABEL_${s}_${i}`,
          color: i % 2 ? '#ff0000' : null,
          desc: null, // every field the query selects: labelkit refuses an answer that lacks one
        })),
      })),
    },
  });
}
