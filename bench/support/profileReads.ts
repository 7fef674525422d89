/**
 * Profiles the labelkit contender of the reading-labels benchmark alone, for `node --cpu-prof`:
 * `npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/support/profileReads.ts [documents]`,
 * then `tsx bench/support/summarizeProfile.ts /tmp/prof/*.cpuprofile`.
 */
import { createLabelingClient } from '../../src/client/index.js';
import { readLabelsOfDocuments } from '../../src/labels/index.js';
import { startAnswerServer } from './fixedServer.js';

const documents = Number(process.argv[2] ?? 5000);
const nodes = Array.from({ length: 100 }, (_, n) => ({ id: `lbl-${n}`, l: `item-${n % 12}`, layer: 0, start: { sentenceId: n, tokenId: 1, charId: 0 }, end: { sentenceId: n, tokenId: 2, charId: 4 }, labeledBy: 'LABELER', deleted: false, confidenceScore: 0.5 }));
const page = Buffer.from(JSON.stringify({ data: { getLabelsPaginated: { nodes, pageInfo: { nextCursor: null }, totalCount: 100 } } }));
const server = await startAnswerServer(() => page);
const client = createLabelingClient({ url: server.url, token: 't' });
const ids = Array.from({ length: documents }, (_, i) => `doc-${i}`);
const t = performance.now();
let seen = 0;
for await (const doc of readLabelsOfDocuments(client, ids)) seen += doc.labels.length;
console.log(`${seen} labels: ${(((performance.now() - t) * 1000) / documents).toFixed(0)} µs per document`);
client.close();
await server.close();
