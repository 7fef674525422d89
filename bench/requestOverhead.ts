import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { request as gqlRequest } from 'graphql-request';
import { print } from 'graphql';
import { createLabelingClient, GetCabinetLabelSetsByIdDocument } from '../src/client/index.js';
import { fetchTransport } from '../src/client/fetchTransport.js';
import { labelSetsPayload, startFixedServer } from './support/fixedServer.js';
import { median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

/**
 * 1. Request overhead: sequential getCabinetLabelSetsById calls (5 sets × 20 items) against a
 * fixed-response loopback server. Contenders run interleaved in rounds (tinybench runs tasks one
 * after another, which on a noisy 2-core machine favours whichever runs in a quiet moment).
 */
export async function requestOverhead(): Promise<Figure[]> {
  const server = await startFixedServer(labelSetsPayload(5, 20));
  const query = print(GetCabinetLabelSetsByIdDocument as never);
  const body = JSON.stringify({ operationName: 'getCabinetLabelSetsById', query, variables: { cabinetId: 'c' } });
  const labelkit = createLabelingClient({ url: server.url, token: 't' });
  const urql = new Client({ url: server.url, exchanges: [cacheExchange, fetchExchange], requestPolicy: 'network-only' });
  // The same urql Client with labelkit's transport in place of fetchExchange: the transport's own gain.
  const urqlLean = new Client({ url: server.url, exchanges: [cacheExchange, fetchTransport], requestPolicy: 'network-only' });
  const contenders: Record<string, () => Promise<unknown>> = {
    'raw fetch + JSON.parse': async () => {
      const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body });
      return JSON.parse(await res.text());
    },
    labelkit: () => labelkit.getLabelSets('c'),
    'graphql-request': () => gqlRequest(server.url, query, { cabinetId: 'c' }, { authorization: 'Bearer t' }),
    '@urql/core defaults': () => urql.query(GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' }).toPromise(),
    '@urql/core + fetchTransport': () => urqlLean.query(GetCabinetLabelSetsByIdDocument, { cabinetId: 'c' }).toPromise(),
  };
  const rounds = smoke ? 3 : 30;
  const perRound = smoke ? 20 : 100;
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (const fn of Object.values(contenders)) for (let i = 0; i < 50; i++) await fn(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(contenders)) {
      const start = performance.now();
      for (let i = 0; i < perRound; i++) await fn();
      samples[name]!.push(((performance.now() - start) * 1000) / perRound);
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
  figures.push({ bench: 'request overhead', name: 'labelkit / raw fetch', value: ratio, unit: '×', goal: '≤ 1.10×', met: ratio <= 1.1 });
  const vsGql = median(samples.labelkit!) / median(samples['graphql-request']!);
  figures.push({ bench: 'request overhead', name: 'labelkit / graphql-request', value: vsGql, unit: '×', goal: '≤ 1.00×', met: vsGql <= 1 });
  figures.push({ bench: 'request overhead', name: '@urql/core / raw fetch', value: median(samples['@urql/core defaults']!) / floor, unit: '×' });
  const transportGain = median(samples['@urql/core + fetchTransport']!) / median(samples['@urql/core defaults']!);
  figures.push({ bench: 'request overhead', name: '@urql/core: fetchTransport / fetchExchange', value: transportGain, unit: '×', goal: '< 1 (the transport must win)', met: transportGain < 1 });
  return figures;
}
