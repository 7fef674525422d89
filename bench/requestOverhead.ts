import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { request as gqlRequest } from 'graphql-request';
import { print } from 'graphql';
import { GetCabinetLabelSetsByIdDocument } from '../generated/tags/graphql.js';
import { createLabelingClient, getLabelSets } from '../src/client/index.js';
import { labelSetsPayload, startFixedServer } from './support/fixedServer.js';
import { collectGarbage, median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

/**
 * 1. Request overhead: sequential getCabinetLabelSetsById calls (5 sets × 20 items) against a
 * fixed-response loopback server. Contenders run interleaved in rounds (tinybench runs tasks one
 * after another, which on a noisy 2-core machine favours whichever runs in a quiet moment), in a
 * rotating order, each after a full GC.
 */
export async function requestOverhead(): Promise<Figure[]> {
  const server = await startFixedServer(labelSetsPayload(5, 20));
  const query = print(GetCabinetLabelSetsByIdDocument as never);
  const body = JSON.stringify({ operationName: 'getCabinetLabelSetsById', query, variables: { cabinetId: 'c' } });
  const labelkit = createLabelingClient({ url: server.url, token: 't' });
  const urql = new Client({ url: server.url, exchanges: [cacheExchange, fetchExchange], requestPolicy: 'network-only' });
  // Plain urql as labelkit uses it: POST through fetchExchange (urql's defaults send a query as
  // GET, with __typename added by its cache exchange).
  const urqlPost = new Client({ url: server.url, exchanges: [fetchExchange], requestPolicy: 'network-only', preferGetMethod: false });
  const contenders: Record<string, () => Promise<unknown>> = {
    'raw fetch + JSON.parse': async () => {
      const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body });
      return JSON.parse(await res.text());
    },
    labelkit: () => getLabelSets(labelkit, 'c'),
    'graphql-request': () => gqlRequest(server.url, query, { cabinetId: 'c' }, { authorization: 'Bearer t' }),
    '@urql/core defaults': () => urql.query(GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' }).toPromise(),
    '@urql/core POST + fetchExchange': () => urqlPost.query(GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' }).toPromise(),
  };
  const rounds = smoke ? 3 : 30;
  const perRound = smoke ? 20 : 100;
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  // CPU time of this process per request (client and server together; the server's share is the
  // same for every contender): steadier than wall time when other processes compete for the cores.
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (const fn of Object.values(contenders)) for (let i = 0; i < 50; i++) await fn(); // warm-up
  const entries = Object.entries(contenders);
  for (let r = 0; r < rounds; r++) {
    // Each round starts with another contender, and a full GC before each one's turn, so that
    // no contender pays for the garbage of the one before it (urql's fetchExchange leaves an
    // aborted AbortSignal and an AbortError per request behind).
    for (let k = 0; k < entries.length; k++) {
      const [name, fn] = entries[(r + k) % entries.length]!;
      collectGarbage();
      const start = performance.now();
      const startCpu = process.cpuUsage();
      for (let i = 0; i < perRound; i++) await fn();
      const used = process.cpuUsage(startCpu);
      samples[name]!.push(((performance.now() - start) * 1000) / perRound);
      cpu[name]!.push((used.user + used.system) / perRound);
    }
  }
  labelkit.close();
  await server.close();
  const floor = median(samples['raw fetch + JSON.parse']!);
  const figures: Figure[] = [];
  for (const [name, list] of Object.entries(samples)) {
    figures.push({ bench: 'request overhead', name: `${name}: median per request`, value: median(list), unit: 'µs' });
  }
  const ratio = median(samples.labelkit!) / floor;
  // A reference only: the goal of ≤ 1.10× raw fetch is retired (issue 26); plain urql is the yardstick.
  figures.push({ bench: 'request overhead', name: 'labelkit / raw fetch (reference, goal retired)', value: ratio, unit: '×' });
  const vsGql = median(samples.labelkit!) / median(samples['graphql-request']!);
  figures.push({ bench: 'request overhead', name: 'labelkit / graphql-request', value: vsGql, unit: '×', goal: '≤ 1.00×', met: vsGql <= 1 });
  figures.push({ bench: 'request overhead', name: '@urql/core defaults (GET) / raw fetch', value: median(samples['@urql/core defaults']!) / floor, unit: '×' });
  const vsUrql = median(samples.labelkit!) / median(samples['@urql/core POST + fetchExchange']!);
  figures.push({ bench: 'request overhead', name: 'labelkit / @urql/core POST + fetchExchange', value: vsUrql, unit: '×', goal: '≤ 1.05×', met: vsUrql <= 1.05 });
  for (const [name, list] of Object.entries(cpu)) {
    figures.push({ bench: 'request overhead', name: `${name}: median CPU time per request`, value: median(list), unit: 'µs' });
  }
  const cpuFloor = median(cpu['raw fetch + JSON.parse']!);
  figures.push({ bench: 'request overhead', name: 'labelkit / raw fetch (CPU time)', value: median(cpu.labelkit!) / cpuFloor, unit: '×' });
  figures.push({ bench: 'request overhead', name: 'labelkit / graphql-request (CPU time)', value: median(cpu.labelkit!) / median(cpu['graphql-request']!), unit: '×' });
  figures.push({ bench: 'request overhead', name: 'labelkit / @urql/core POST + fetchExchange (CPU time)', value: median(cpu.labelkit!) / median(cpu['@urql/core POST + fetchExchange']!), unit: '×' });
  return figures;
}
