import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLabelingClient } from '../src/client/index.js';
import { writeExport, writeRelease } from '../src/export/index.js';
import type { SplitShare } from '../src/export/index.js';
import { exportAnswers } from './exportLabels.js';
import { startAnswerServer } from './support/fixedServer.js';
import { collectGarbage, median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const bench = 'dataset release';
/** 10 lines of 10 tokens a document (100 tokens), 4 labels a line. */
const SHAPE = { lines: 10, words: 10, perLine: 4 };
const SPLITS: SplitShare[] = [
  { name: 'train', share: 0.8 },
  { name: 'dev', share: 0.1 },
  { name: 'test', share: 0.1 },
];

/** A project of `documents` documents served as production answers, and what its calls count. */
async function project(documents: number) {
  const answer = exportAnswers(documents, SHAPE);
  let calls = 0;
  const server = await startAnswerServer((body) => {
    calls++;
    return answer(body);
  });
  const client = createLabelingClient({ url: server.url, token: 't', timeoutMs: 120_000 });
  return {
    client,
    calls: () => calls,
    close: async () => {
      client.close();
      await server.close();
    },
  };
}

/**
 * 11. A dataset release (issue 42): `writeRelease` (jsonl, 3 splits, the manifest, the card; its
 * journal and checkpoints fsynced, every file read back for its SHA-256) of 1,000 documents × 100
 * tokens, against `writeExport` (jsonl, one file, its checkpoints) of the same project, in
 * interleaved rounds in one run; each is checked to read the same pages once (the calls counted).
 * Then memory: the live heap (after a full GC) at every tenth of the documents, its peak, for
 * 1,000 and for 10,000 documents, of the release and of the export: neither keeps anything per
 * document but its plan (the release writes manifest.json's documents from its journal).
 */
export async function release(): Promise<Figure[]> {
  const documents = smoke ? 100 : 1_000;
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-bench-release-'));
  let round = 0;
  const contenders = {
    export: async (p: Awaited<ReturnType<typeof project>>, onProgress?: (done: number, total: number) => void) => {
      const summary = await writeExport(p.client, ['p'], { format: 'jsonl', out: join(dir, `export-${round++}.jsonl`), ...(onProgress && { onProgress }) });
      return summary.documents;
    },
    release: async (p: Awaited<ReturnType<typeof project>>, onProgress?: (done: number, total: number) => void) => {
      const manifest = await writeRelease(p.client, ['p'], { format: 'jsonl', out: join(dir, `release-${round++}`), splits: SPLITS, seed: '7', created: '2026-11-29', ...(onProgress && { onProgress }) });
      return manifest.files.reduce((n, f) => n + f.documents, 0);
    },
  };
  try {
    const p = await project(documents);
    const wall = { export: [] as number[], release: [] as number[] };
    /** CPU time of this process (the writer, and the answer server beside it), which a loaded machine blurs less than wall time. */
    const cpu = { export: [] as number[], release: [] as number[] };
    const calls = { export: 0, release: 0 };
    const load: [number, number] = [loadavg()[0]!, 0];
    try {
      for (const name of ['export', 'release'] as const) {
        const before = p.calls();
        if ((await contenders[name](p)) !== documents) throw new Error(`${name} did not write every document`);
        calls[name] = p.calls() - before;
      }
      if (calls.export !== calls.release) throw new Error(`the release made ${calls.release} calls, the export ${calls.export}: not the same pages`);
      const rounds = smoke ? 2 : 7;
      for (let r = 0; r < rounds; r++) {
        for (const name of r % 2 ? (['release', 'export'] as const) : (['export', 'release'] as const)) {
          collectGarbage();
          const start = performance.now();
          const used = process.cpuUsage();
          await contenders[name](p);
          wall[name].push(performance.now() - start);
          const { user, system } = process.cpuUsage(used);
          cpu[name].push((user + system) / 1000);
        }
      }
      load[1] = loadavg()[0]!;
    } finally {
      await p.close();
    }
    // The live heap at every tenth of the documents (after a full GC): its peak.
    const peakHeap = async (name: 'export' | 'release', n: number) => {
      const q = await project(n);
      try {
        let peak = 0;
        const step = Math.max(1, Math.round(n / 10));
        await contenders[name](q, (done) => {
          if (done % step !== 0) return;
          collectGarbage();
          peak = Math.max(peak, process.memoryUsage().heapUsed / 2 ** 20);
        });
        return peak;
      } finally {
        await q.close();
        // The files written so far, removed (10,000 documents are tens of MB).
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir);
      }
    };
    const sizes = smoke ? [100, 1_000] : [1_000, 10_000];
    const heapLoad: [number, number] = [loadavg()[0]!, 0];
    const heap = { export: [] as number[], release: [] as number[] };
    for (const n of sizes) for (const name of ['export', 'release'] as const) heap[name].push(await peakHeap(name, n));
    heapLoad[1] = loadavg()[0]!;
    const ratio = median(wall.release) / median(wall.export);
    const growth = { export: heap.export[1]! - heap.export[0]!, release: heap.release[1]! - heap.release[0]! };
    const at = `${documents.toLocaleString('en')} documents × ${SHAPE.lines * SHAPE.words} tokens`;
    const [small, large] = sizes.map((n) => n.toLocaleString('en'));
    const range = (v: number[]): [number, number] => [Math.min(...v), Math.max(...v)];
    return [
      { bench, name: `${at}: writeExport, jsonl, one file (${calls.export} calls)`, value: median(wall.export), unit: 'ms', range: range(wall.export), runs: wall.export.length, load },
      { bench, name: `${at}: writeRelease, jsonl, 3 splits + manifest + card (${calls.release} calls: the same pages, once)`, value: median(wall.release), unit: 'ms', range: range(wall.release), runs: wall.release.length, load },
      { bench, name: `${at}: release / single export, wall time`, value: ratio, unit: '×', goal: '≤ 1.1×', met: ratio <= 1.1, load },
      { bench, name: `${at}: release / single export, CPU time (${median(cpu.release).toFixed(0)} / ${median(cpu.export).toFixed(0)} ms)`, value: median(cpu.release) / median(cpu.export), unit: '×', load },
      { bench, name: `peak live heap of an export at ${large} documents (${heap.export[0]!.toFixed(2)} MB at ${small})`, value: heap.export[1]!, unit: 'MB', load: heapLoad },
      { bench, name: `peak live heap of a release at ${large} documents (${heap.release[0]!.toFixed(2)} MB at ${small})`, value: heap.release[1]!, unit: 'MB', load: heapLoad },
      { bench, name: `release's heap growth ${small} → ${large} documents, beyond the export's (${growth.release.toFixed(2)} − ${growth.export.toFixed(2)} MB)`, value: growth.release - growth.export, unit: 'MB', goal: '≤ 2 MB (flat)', met: growth.release - growth.export <= 2, load: heapLoad },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
