// The PostgreSQL journal's per-project statements (a claim, the records' insert) are prepared once
// per connection, not parsed by the server at each project; and behind a pooler that loses them the
// journal falls back to unnamed statements without running one twice. Counted at the driver: the
// Parse messages it sends (each is a parse and plan on the server).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openPostgresJournal } from '../../src/bulk/index.js';
import type { JournalRecord } from '../../src/bulk/index.js';
import { startTestPostgres, queryPostgres } from '../support/postgres.js';

const server = await startTestPostgres();
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

const unique = (prefix: string) => `${prefix}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
type Conn = { parsedStatements: Record<string, string> };

/** Claims `n` projects one after the other as a start slot does, each followed by its `started` record. */
async function claimInTurn(journal: ReturnType<typeof openPostgresJournal>, n: number, from = 0) {
  const slot: { last?: JournalRecord } = {};
  const won: boolean[] = [];
  for (let i = from; i < from + n; i++) {
    const projectId = `p${i}`;
    const claim = await journal.claim(
      { type: 'intent', at: new Date().toISOString(), projectId, attempt: 1, config: { endpoint: 'http://127.0.0.1:1/model', numberOfFilesPerRequest: 0, labelerEmail: 'a@example.com', role: null } },
      { after: slot.last ? [slot.last] : [] },
    );
    won.push(claim.won);
    const started = { type: 'started' as const, at: new Date().toISOString(), projectId, jobId: randomUUID() };
    slot.last = started;
    await journal.append(started);
  }
  return won;
}

describe.skipIf(server.skip !== undefined)(`the journal's prepared statements${server.skip ? ` (skipped: ${server.skip})` : ''}`, () => {
  it('parses the claim and the records insert once per connection, not once per project', async () => {
    const parse = vi.spyOn(pg.Connection.prototype, 'parse');
    const schema = unique('lk_prep');
    const journal = openPostgresJournal({ url: server.url!, name: 'prepared', schema, connections: 2 });
    await journal.open();
    await journal.append({ type: 'run', at: new Date().toISOString(), url: 'http://127.0.0.1:1/graphql' });
    parse.mockClear();
    expect(await claimInTurn(journal, 30)).toEqual(Array.from({ length: 30 }, () => true));
    await journal.close();
    // 30 claims and 30 `started` records (carried by the claims or written alone): before, a Parse each.
    const parses = parse.mock.calls.length;
    expect(parses).toBeGreaterThan(0);
    expect(parses).toBeLessThanOrEqual(2 * 2);
    const rows = await queryPostgres<{ type: string; n: number }>(server.url!, `SELECT type, count(*)::int AS n FROM ${schema}.records GROUP BY type ORDER BY type`);
    expect(rows).toEqual([{ type: 'intent', n: 30 }, { type: 'run', n: 1 }, { type: 'started', n: 30 }]);
  });

  it('sends them unnamed once the server says a name is taken (a pooler that lost track), each claim still committed once', async () => {
    const connections = new Set<Conn>();
    const realParse = pg.Connection.prototype.parse;
    const spy = vi.spyOn(pg.Connection.prototype, 'parse').mockImplementation(function (this: Conn, ...args: Parameters<typeof realParse>) {
      connections.add(this);
      return realParse.apply(this, args);
    });
    const schema = unique('lk_prep_lost');
    const journal = openPostgresJournal({ url: server.url!, name: 'lost', schema, connections: 2 });
    await journal.open();
    await journal.append({ type: 'run', at: new Date().toISOString(), url: 'http://127.0.0.1:1/graphql' });
    expect(await claimInTurn(journal, 5)).toEqual([true, true, true, true, true]);
    // The driver forgets what it prepared, the server does not (as when a pooler hands this
    // connection's statements to a server connection that has them already): the next Parse of a name is refused (42P05).
    for (const c of connections) for (const k of Object.keys(c.parsedStatements)) delete c.parsedStatements[k];
    spy.mockClear();
    expect(await claimInTurn(journal, 10, 5)).toEqual(Array.from({ length: 10 }, () => true));
    // From the refusal on, every statement is unnamed (one Parse each, no name).
    const names = spy.mock.calls.map(([m]) => (m as { name?: string }).name ?? '');
    expect(names.some((n) => n.startsWith('labelkit_'))).toBe(true);
    expect(names.slice(names.findIndex((n) => n.startsWith('labelkit_')) + 1).filter((n) => n !== '')).toEqual([]);
    await journal.close();
    const rows = await queryPostgres<{ type: string; n: number }>(server.url!, `SELECT type, count(*)::int AS n FROM ${schema}.records GROUP BY type ORDER BY type`);
    expect(rows).toEqual([{ type: 'intent', n: 15 }, { type: 'run', n: 1 }, { type: 'started', n: 15 }]);
  });
});
