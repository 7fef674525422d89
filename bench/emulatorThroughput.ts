import { createLabelingClient } from '../src/client/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { rawModelCaller, startModelProcess } from './support/rawModelCaller.js';
import type { RawProject } from './support/rawModelCaller.js';
import { median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-secret';
const WORDS = ['Ada Lovelace met', 'the team of Acme Corp in London on Monday', 'and wrote a note', 'about Grace Hopper', 'in March'];
/** The emulator's model concurrency, given explicitly so that the raw caller uses the same. */
const CONCURRENCY = 4;

function project(id: string, docs: number, linesPerDoc: number): RawProject {
  return {
    id,
    name: id,
    documents: Array.from({ length: docs }, (_, d) => ({
      id: `doc-${d}`,
      lines: Array.from({ length: linesPerDoc }, (_, i) => `${WORDS[i % WORDS.length]} (${d}/${i}).`),
    })),
  };
}

/**
 * 4. Emulator throughput: an auto-labeling job of the emulator against a raw caller that sends the
 * same batches to the same model with the same concurrency (see bench/support/rawModelCaller.ts).
 * The sample model runs in its own process, as a user's model does; the emulator and the raw
 * caller run in this one, one after the other, interleaved in rounds. The job's wall time is the
 * emulator's own: from the job's `createdAt` to its `updatedAt` when DELIVERED. Last, a job of
 * 1,000,000 lines (1,000 documents × 1,000 lines; 20 × 100 in smoke mode) at 50 lines per
 * request, with this process's peak RSS sampled every 100 ms while the job runs. The client
 * polls every 200 ms: each poll is a GraphQL request that the emulator serves on the event loop
 * that runs the job, and polling every 20 ms made the job measurably slower (the raw caller
 * has no such work).
 */
export async function emulatorThroughput(): Promise<Figure[]> {
  const model = await startModelProcess(SECRET);
  const emu = await startEmulator({ demoProject: false, model: { concurrency: CONCURRENCY } });
  const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 200, maxIntervalMs: 200 } });
  const figures: Figure[] = [];

  const runJob = async (p: RawProject, n: number): Promise<number> => {
    const job = await client.startAutoLabel({
      projectId: p.id,
      labelerEmail: 'bench@example.com',
      options: { numberOfFilesPerRequest: n },
      targetAPI: { endpoint: model.url, secretKey: SECRET },
    });
    const outcome = await client.waitForJob(job.id, { timeoutMs: 1_800_000 });
    if (outcome.outcome !== 'delivered') throw new Error(`the job at ${n} lines per request ended ${outcome.outcome}`);
    return Date.parse(outcome.job.updatedAt) - Date.parse(outcome.job.createdAt);
  };
  const add = (p: RawProject) =>
    emu.emulator.store.addProject({ ...p, documents: p.documents.map((d) => ({ id: d.id, lines: [...d.lines] })), labelSets: [{ name: 'E', labels: [{ id: 'p', name: 'PERSON' }, { id: 'o', name: 'ORGANIZATION' }, { id: 'l', name: 'LOCATION' }, { id: 'd', name: 'DATE' }] }] });

  const cases = smoke
    ? [{ n: 1, docs: 1, lines: 300 }, { n: 50, docs: 2, lines: 1_000 }, { n: 500, docs: 2, lines: 1_000 }]
    : [{ n: 1, docs: 2, lines: 1_000 }, { n: 50, docs: 20, lines: 1_000 }, { n: 500, docs: 20, lines: 1_000 }];
  const rounds = smoke ? 1 : 3;
  for (const { n, docs, lines } of cases) {
    const p = project(`bench-${n}`, docs, lines);
    add(p);
    const ours: number[] = [];
    const raw: number[] = [];
    for (let r = 0; r < rounds; r++) {
      ours.push(await runJob(p, n));
      raw.push((await rawModelCaller(p, n, model.url, SECRET, CONCURRENCY)).ms);
    }
    const total = docs * lines;
    const ratio = median(ours) / median(raw);
    figures.push({ bench: 'emulator throughput', name: `${total} lines, ${n}/request: emulator job wall time`, value: median(ours), unit: 'ms' });
    figures.push({ bench: 'emulator throughput', name: `${total} lines, ${n}/request: raw caller wall time`, value: median(raw), unit: 'ms' });
    figures.push({ bench: 'emulator throughput', name: `${total} lines, ${n}/request: emulator / raw caller`, value: ratio, unit: '×', goal: '≤ 1.2×', met: ratio <= 1.2 });
  }

  // The big job: one round (it takes a minute or more on each side).
  const bigDocs = smoke ? 10 : 1_000;
  const bigLines = smoke ? 100 : 1_000;
  const big = project('bench-big', bigDocs, bigLines);
  add(big);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const bigMs = await runJob(big, 50);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const bigRaw = await rawModelCaller(big, 50, model.url, SECRET, CONCURRENCY);
  const total = bigDocs * bigLines;
  const bigRatio = bigMs / bigRaw.ms;
  const mb = Math.round(peak / 2 ** 20);
  figures.push({ bench: 'emulator throughput', name: `${total} lines, 50/request: emulator job wall time`, value: bigMs, unit: 'ms' });
  figures.push({ bench: 'emulator throughput', name: `${total} lines, 50/request: raw caller wall time`, value: bigRaw.ms, unit: 'ms' });
  figures.push({ bench: 'emulator throughput', name: `${total} lines, 50/request: emulator / raw caller`, value: bigRatio, unit: '×', goal: '≤ 1.2×', met: bigRatio <= 1.2 });
  figures.push({ bench: 'emulator throughput', name: `${total} lines, 50/request: peak RSS of the emulator's process`, value: mb, unit: 'MB', goal: '≤ 512 MB', met: mb <= 512 });

  client.close();
  await emu.close();
  await model.close();
  return figures;
}
