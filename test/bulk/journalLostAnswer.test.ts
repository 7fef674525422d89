// The PostgreSQL journal after a write whose answer was lost: the database committed the record,
// then the connection broke before the worker heard so. A TCP proxy on loopback stands between the
// journal and the server; armed, it forwards the write (and, where the write is a transaction, its
// COMMIT) to the server, waits for the server's reply that the transaction ended (ReadyForQuery,
// idle: the commit is done), drops that reply and cuts the connection. The journal tries again on a
// new connection; it must find what it wrote instead of writing it twice. Through the journal's
// public calls only (append, claim), whatever statements they use.
import { randomUUID } from 'node:crypto';
import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresJournal } from '../../src/bulk/index.js';
import type { Journal } from '../../src/bulk/index.js';
import { startTestPostgres, queryPostgres } from '../support/postgres.js';

const pg = await startTestPostgres();
afterAll(() => pg.close());

/** ReadyForQuery with the status idle: 'Z', length 5, 'I' (the transaction, implicit or not, ended). */
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

interface LosingProxy {
  url: string;
  /** The next time a client sends a message holding `marker`, lose the answer that ends its transaction. */
  loseAnswerTo(marker: string): Promise<void>;
  close(): Promise<void>;
}

async function startLosingProxy(target: URL): Promise<LosingProxy> {
  let armed: { marker: string; done: () => void } | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let losing: (() => void) | undefined;
    client.on('data', (chunk) => {
      if (armed && chunk.includes(armed.marker)) {
        losing = armed.done;
        armed = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (losing && chunk.includes(READY_IDLE)) {
        // Committed on the server; the worker never hears it.
        losing();
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    loseAnswerTo: (marker) => new Promise<void>((resolve) => (armed = { marker, done: resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Rows of a query straight to the server (not through the proxy). */
const direct = <R extends Record<string, unknown>>(sql: string, values: unknown[]): Promise<R[]> => queryPostgres<R>(pg.url!, sql, values);

describe.skipIf(pg.skip !== undefined)(`the PostgreSQL journal when the answer to a write is lost${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  let proxy: LosingProxy;
  let journal: Journal | undefined;
  const schema = `lk_lost_${randomUUID().slice(0, 8)}`;
  const name = 'lost-answers';

  afterAll(async () => {
    await journal?.close();
    await proxy?.close();
  });

  async function openThroughProxy(): Promise<Journal> {
    proxy = await startLosingProxy(new URL(pg.url!));
    journal = openPostgresJournal({ url: proxy.url, name, schema, retryMs: 20_000 });
    await journal.open();
    return journal;
  }

  it('appends a record once when the commit succeeded and its answer was lost', async () => {
    const j = await openThroughProxy();
    const jobId = `job-${randomUUID()}`;
    const lost = proxy.loseAnswerTo(`INSERT INTO ${schema}.records`);
    await j.append({ type: 'started', at: new Date().toISOString(), projectId: 'p-append', jobId });
    await lost; // the proxy did drop an answer after the commit
    const rows = await direct<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.records WHERE run = $1 AND record->>'jobId' = $2`, [name, jobId]);
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('wins a claim once when the commit of its intent succeeded and the answer was lost', async () => {
    const j = journal ?? (await openThroughProxy());
    const lost = proxy.loseAnswerTo(`INSERT INTO ${schema}.records`);
    const config = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 1, labelerEmail: 'a@example.com', role: null };
    const result = await j.claim({ type: 'intent', at: new Date().toISOString(), projectId: 'p-claim', attempt: 1, config });
    await lost;
    // Its own intent, committed before the answer was lost, holds the claim: won, not "held by another".
    expect(result).toEqual({ won: true });
    const rows = await direct<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.records WHERE run = $1 AND type = 'intent' AND project_id = 'p-claim'`, [name]);
    expect(Number(rows[0]!.n)).toBe(1);
  });
});
