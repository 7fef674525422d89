/**
 * Profiles one contender of the request-overhead benchmark alone, for `node --cpu-prof`:
 * `npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/support/profileRequests.ts [labelkit|raw] [calls]`,
 * then `tsx bench/support/summarizeProfile.ts /tmp/prof/*.cpuprofile`.
 */
import { createLabelingClient, getLabelSets } from '../../src/client/index.js';
import { labelSetsPayload, startFixedServer } from './fixedServer.js';

const which = process.argv[2] ?? 'labelkit';
const calls = Number(process.argv[3] ?? 5000);
const server = await startFixedServer(labelSetsPayload(5, 20));
const client = createLabelingClient({ url: server.url, token: 't' });
const body = JSON.stringify({ operationName: 'getCabinetLabelSetsById', query: 'query', variables: { cabinetId: 'c' } });
const run =
  which === 'raw'
    ? async () => JSON.parse(await (await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text()) as unknown
    : () => getLabelSets(client, 'c');
const t = performance.now();
for (let i = 0; i < calls; i++) await run();
console.log(`${which}: ${(((performance.now() - t) * 1000) / calls).toFixed(0)} µs per call`);
client.close();
await server.close();
