import { createLabelingClient } from '../src/client/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { createModelHandler, createSampleModel, serveFetchHandler } from '../src/model/index.js';
import { smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-secret';
const WORDS = ['Ada Lovelace met', 'the team of Acme Corp in London on Monday', 'and wrote a note', 'about Grace Hopper', 'in March'];

/**
 * 4. Emulator throughput: auto-label a 20,000-line project with the sample model at several
 * batch sizes. Overhead = wall time of the job / time during which at least one model call was
 * in flight (the model's busy time), so 1.0 means the emulator adds nothing around its model.
 */
export async function emulatorThroughput(): Promise<Figure[]> {
  const docs = smoke ? 2 : 20;
  const linesPerDoc = 1_000;
  const emu = await startEmulator({ demoProject: false });
  emu.emulator.store.addProject({
    id: 'bench',
    labelSets: [{ name: 'E', labels: [{ id: 'p', name: 'PERSON' }, { id: 'o', name: 'ORGANIZATION' }, { id: 'l', name: 'LOCATION' }, { id: 'd', name: 'DATE' }] }],
    documents: Array.from({ length: docs }, (_, d) => ({
      id: `doc-${d}`,
      lines: Array.from({ length: linesPerDoc }, (_, i) => `${WORDS[i % WORDS.length]} (${d}/${i}).`),
    })),
  });
  const predict = createSampleModel();
  const inner = createModelHandler(predict, { secretKey: SECRET });
  let inFlight = 0;
  let busySince = 0;
  let busyMs = 0;
  let modelRequests = 0;
  const model = await serveFetchHandler(
    async (request) => {
      modelRequests++;
      if (inFlight++ === 0) busySince = performance.now();
      try {
        return await inner(request);
      } finally {
        if (--inFlight === 0) busyMs += performance.now() - busySince;
      }
    },
    0,
    '127.0.0.1',
  );
  const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 10, maxIntervalMs: 10 } });
  const figures: Figure[] = [];
  for (const n of [0, 1, 50, 500]) {
    modelRequests = 0;
    busyMs = 0;
    const t = performance.now();
    const job = await client.startAutoLabel({
      projectId: 'bench',
      labelerEmail: `n${n}@example.com`,
      options: { numberOfFilesPerRequest: n },
      targetAPI: { endpoint: `${model.url}/`, secretKey: SECRET },
    });
    const outcome = await client.waitForJob(job.id, { timeoutMs: 300_000 });
    const wall = performance.now() - t;
    if (outcome.outcome !== 'delivered') throw new Error(`job at ${n} lines per request ended ${outcome.outcome}`);
    const lines = docs * linesPerDoc;
    const overhead = wall / busyMs;
    figures.push({ bench: 'emulator throughput', name: `${lines} lines, ${n}/request: wall time`, value: wall, unit: 'ms' });
    figures.push({ bench: 'emulator throughput', name: `${lines} lines, ${n}/request: model requests`, value: modelRequests, unit: 'req' });
    figures.push({ bench: 'emulator throughput', name: `${lines} lines, ${n}/request: lines per second`, value: Math.round(lines / (wall / 1000)), unit: 'lines/s' });
    figures.push({
      bench: 'emulator throughput',
      name: `${lines} lines, ${n}/request: overhead (wall / model busy)`,
      value: overhead,
      unit: '×',
      ...(n >= 50 && { goal: '≤ 1.2×', met: overhead <= 1.2 }),
    });
  }
  client.close();
  await model.close();
  await emu.close();
  return figures;
}
