import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, fetchExchange } from '@urql/core';
import { GetCabinetLabelSetsByIdDocument, GetCellsDocument, GetLabelsPaginatedDocument, GetProjectCabinetsDocument } from '../generated/tags/graphql.js';
import { createLabelingClient } from '../src/client/index.js';
import { writeExport } from '../src/export/index.js';
import { startAnswerServer } from './support/fixedServer.js';
import { collectGarbage, median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const bench = 'exporting labels';
/** Lines a document, words a line, labels a line: 100 labels a document, one page of each read. */
const LINES = 25;
const WORDS = 10;
const PER_LINE = 4;
const ITEMS = 12;

/** A document's shape in {@link exportAnswers}: lines, tokens a line, labels a line (at most 4: whole-token spans that do not meet). */
export interface AnswerShape {
  lines: number;
  words: number;
  perLine: number;
}

/**
 * The answers of the production reads an export makes, for `documents` documents of one reviewer
 * copy, each of the same `shape` (default: 25 lines of 10 tokens, 4 labels a line).
 */
export function exportAnswers(documents: number, shape: AnswerShape = { lines: LINES, words: WORDS, perLine: PER_LINE }): (body: string) => Buffer {
  const { lines, words, perLine } = shape;
  const cabinets = Buffer.from(
    JSON.stringify({ data: { getProjectCabinets: [{ id: 'cab-r', role: 'REVIEWER', status: 'IN_PROGRESS', documents: Array.from({ length: documents }, (_, d) => ({ id: `doc-${d}`, originId: `origin-${d}`, fileName: `doc-${d}.txt`, isCompleted: false })) }] } }),
  );
  const report = Buffer.from(JSON.stringify({ data: { getProjectsFinalReport: [] } }));
  const sets = Buffer.from(
    JSON.stringify({ data: { getCabinetLabelSetsById: [{ id: 'set-0', index: 0, name: 'Entities', signature: null, labelItems: Array.from({ length: ITEMS }, (_, i) => ({ id: `item-${i}`, parentId: null, labelName: `LABEL_${i}`, color: null, desc: null })) }] } }),
  );
  const cells = Buffer.from(
    JSON.stringify({
      data: {
        getCells: {
          nodes: Array.from({ length: lines }, (_, line) => {
            const tokens = Array.from({ length: words }, (_, w) => `word${(line * 7 + w) % 50}`);
            return { line, index: 0, content: tokens.join(' '), tokens, status: 'DISPLAYED' };
          }),
          pageInfo: { nextCursor: null },
          totalCount: lines,
        },
      },
    }),
  );
  // Four whole-token spans a line that do not meet: tokens 0-1, 3, 5-6, 8.
  const spans = [[0, 1], [3, 3], [5, 6], [8, 8]] as const;
  const labels = Buffer.from(
    JSON.stringify({
      data: {
        getLabelsPaginated: {
          nodes: Array.from({ length: lines * perLine }, (_, n) => {
            const sentenceId = Math.floor(n / perLine);
            const [from, to] = spans[n % perLine]!;
            const last = `word${(sentenceId * 7 + to) % 50}`;
            return {
              id: `item-${n % ITEMS}:0:${sentenceId}:${from}:0:${sentenceId}:${to}:${last.length - 1}:0`,
              l: `item-${n % ITEMS}`,
              layer: 0,
              start: { sentenceId, tokenId: from, charId: 0 },
              end: { sentenceId, tokenId: to, charId: last.length - 1 },
              hashCode: 'f3a9c1'.repeat(4),
              labeledBy: 'REVIEWER',
              confidenceScore: null,
              deleted: false,
              documentId: 'doc',
            };
          }),
          pageInfo: { nextCursor: null },
          totalCount: lines * perLine,
        },
      },
    }),
  );
  return (body) => {
    const name = /"operationName":"(\w+)"/.exec(body)?.[1];
    if (name === 'GetCells') return cells;
    if (name === 'GetLabelsPaginated') return labels;
    if (name === 'GetProjectCabinets') return cabinets;
    if (name === 'GetProjectsFinalReport') return report;
    return sets;
  };
}

/**
 * 8. Exporting labels: `writeExport` (jsonl: the file written, checkpoints fsynced, sha256) of a
 * reviewer copy of 1,000 documents × 100 labels (25 lines of 10 tokens), against plain
 * `@urql/core` (POST, fetchExchange) reading the same pages (cabinets, label sets, then `getCells`
 * and `getLabelsPaginated` of each document, one after the other) and doing nothing with them,
 * in interleaved rounds; the goal's ratio is the export reading one document after the other, as
 * urql does here (like with like), and the default's 4 ahead is shown beside it. Then memory: the heap after a full GC at 10 % and at 100 % of the
 * documents of an export: streamed, it must not grow with their number.
 */
export async function exportLabels(): Promise<Figure[]> {
  const documents = smoke ? 100 : 1_000;
  const server = await startAnswerServer(exportAnswers(documents));
  const client = createLabelingClient({ url: server.url, token: 't', timeoutMs: 120_000 });
  const urql = new Client({ url: server.url, exchanges: [fetchExchange], preferGetMethod: false, requestPolicy: 'network-only', fetchOptions: { headers: { authorization: 'Bearer t' } } });
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-export-'));
  const query = async <D, V extends object>(document: Parameters<typeof urql.query<D, V>>[0], variables: V): Promise<D> => {
    const result = await urql.query(document, variables).toPromise();
    if (result.error || !result.data) throw result.error ?? new Error('no data');
    return result.data;
  };
  let round = 0;
  const contenders = {
    urql: async () => {
      const { getProjectCabinets } = await query(GetProjectCabinetsDocument, { projectId: 'p' });
      await query(GetCabinetLabelSetsByIdDocument, { cabinetId: getProjectCabinets[0]!.id });
      let seen = 0;
      for (const doc of getProjectCabinets[0]!.documents) {
        const cells = (await query(GetCellsDocument, { documentId: doc.id, input: { page: { skip: 0, take: 100 } } })).getCells;
        const labels = (await query(GetLabelsPaginatedDocument, { documentId: doc.id, input: { page: { skip: 0, take: 100 } } })).getLabelsPaginated;
        seen += cells.nodes.length + labels.nodes.length;
      }
      return seen === documents * (LINES + LINES * PER_LINE) ? documents : -1;
    },
    export: async (onProgress?: (done: number) => void, readAhead?: number) => {
      const summary = await writeExport(client, ['p'], { format: 'jsonl', out: join(dir, `out-${round++}.jsonl`), ...(onProgress && { onProgress }), ...(readAhead !== undefined && { readAhead }) });
      return summary.lines === documents * LINES && Object.values(summary.spans).reduce((a, b) => a + b, 0) === documents * LINES * PER_LINE ? summary.documents : -1;
    },
    // One document after the other, as the urql contender reads: the goal compares like with like.
    sequential: () => contenders.export(undefined, 1),
  };
  try {
    for (const fn of Object.values(contenders)) if ((await fn()) !== documents) throw new Error('a contender did not read every document');
    const wall = { urql: [] as number[], export: [] as number[], sequential: [] as number[] };
    const rounds = smoke ? 2 : 7;
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 ? (['export', 'sequential', 'urql'] as const) : (['urql', 'sequential', 'export'] as const)) {
        collectGarbage();
        const start = performance.now();
        await contenders[name]();
        wall[name].push(performance.now() - start);
      }
    }
    const heap: number[] = [];
    const marks = new Set([Math.round(documents / 10), documents]);
    await contenders.export((done) => {
      if (!marks.has(done)) return;
      collectGarbage();
      heap.push(process.memoryUsage().heapUsed / 2 ** 20);
    });
    const ratio = median(wall.sequential) / median(wall.urql);
    const growth = heap[1]! - heap[0]!;
    const at = `${documents.toLocaleString('en')} documents × ${LINES * PER_LINE} labels`;
    return [
      { bench, name: `${at}: plain @urql/core reading the same pages, one document after the other`, value: median(wall.urql), unit: 'ms', range: [Math.min(...wall.urql), Math.max(...wall.urql)], runs: rounds },
      { bench, name: `${at}: writeExport, jsonl (file, checkpoints, sha256), 4 ahead`, value: median(wall.export), unit: 'ms', range: [Math.min(...wall.export), Math.max(...wall.export)], runs: rounds },
      { bench, name: `${at}: writeExport, readAhead 1 (one document after the other)`, value: median(wall.sequential), unit: 'ms', range: [Math.min(...wall.sequential), Math.max(...wall.sequential)], runs: rounds },
      { bench, name: `${at}: export, readAhead 1 / plain @urql/core`, value: ratio, unit: '×', goal: '≤ 1.3×', met: ratio <= 1.3 },
      { bench, name: `${at}: export, 4 ahead (the default) / plain @urql/core`, value: median(wall.export) / median(wall.urql), unit: '×' },
      { bench, name: `${at}: heap after GC at ${Math.round(documents / 10)} documents of an export`, value: heap[0]!, unit: 'MB' },
      { bench, name: `${at}: export's heap growth from ${Math.round(documents / 10)} to ${documents} documents`, value: growth, unit: 'MB', goal: '≤ 2 MB (flat)', met: growth <= 2 },
    ];
  } finally {
    client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
