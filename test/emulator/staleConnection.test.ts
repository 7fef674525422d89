// The emulator's model calls keep connections alive; a model server that closes an idle one just as
// the next call reuses it (its keep-alive time-out) resets that call before any answer. The request
// never reached the model, so the call is sent once more on a new connection (Node's advice for
// req.reusedSocket and ECONNRESET), not failed: a job with retries 0 failed on it in CI
// ("the model could not be reached (ECONNRESET)"). A server that resets the second request of
// every connection stands in for the race, on loopback.
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callModel, createModelAgents } from '../../src/emulator/callModel.js';
import { JobAbort } from '../../src/emulator/jobAbort.js';

const served = new WeakMap<Socket, number>();
let answered = 0;
let resets = 0;
const server = createServer((req, res) => {
  const n = (served.get(req.socket) ?? 0) + 1;
  served.set(req.socket, n);
  if (n > 1) {
    resets++;
    req.socket.destroy(); // closed as it was reused: no answer
    return;
  }
  req.resume();
  req.on('end', () => {
    answered++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: n }));
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/predict`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a model call on a kept-alive connection the server just closed', () => {
  it('is sent again on a new connection and answers, once per call', async () => {
    const agents = createModelAgents(1);
    const stop = new JobAbort(new AbortController().signal);
    const call = () => callModel({ endpoint: url, secretKey: 'k', request: { id: 'p', name: 'p', documents: [] }, timeoutMs: 5_000, stop, agents });
    try {
      expect(await call()).toEqual({ ok: 1 });
      expect(await call()).toEqual({ ok: 1 }); // its first try reused the connection and was reset
      expect(await call()).toEqual({ ok: 1 });
    } finally {
      agents.http.destroy();
    }
    expect(answered).toBe(3);
    expect(resets).toBe(2);
  });
});
