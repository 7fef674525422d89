// What --ci costs: labelkit eval of 1,000 documents × 100 labels (the library's evaluateProject
// against the emulator over loopback HTTP, as the command runs it) with 1,000 bootstrap resamples
// side by side with the same eval without them, in alternating order; and the bootstrap alone.
import { createLabelingClient } from '../src/client/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { bootstrapF1, DocumentCounts, evaluateProject, mulberry32, Scorer } from '../src/eval/index.js';
import type { EvalSpan } from '../src/eval/index.js';
import { collectGarbage, median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const bench = 'eval --ci';
const LABELS = 100;
const LINES = 5;
const WORDS = 12;
const MODEL = 'model@example.com';

/** The project: each line `WORDS` words; gold spans on 4 of them, the model right on most, with a confidence each. */
export async function evalCi(): Promise<Figure[]> {
  const documents = smoke ? 100 : 1000;
  const emu = await startEmulator({ demoProject: false });
  const random = mulberry32(35);
  const line = Array.from({ length: WORDS }, (_, i) => `word${i}`).join(' ');
  const at = (w: number) => ({ start_char: line.indexOf(`word${w} `.trimEnd()), end_char: line.indexOf(`word${w}`) + `word${w}`.length });
  const names = Array.from({ length: LABELS }, (_, i) => `L${i}`);
  emu.emulator.store.addProject({
    id: 'bench',
    labelSets: [{ name: 'Many', labels: names.map((name, i) => ({ id: `l${i}`, name, color: '#3b82f6' })) }],
    documents: Array.from({ length: documents }, (_, d) => ({ id: `d${d}`, name: `d${d}.txt`, lines: Array.from({ length: LINES }, () => line) })),
  });
  let spans = 0;
  for (let d = 0; d < documents; d++) {
    const gold = [];
    for (let l = 0; l < LINES; l++) {
      const predicted = [];
      for (const w of [0, 3, 6, 9]) {
        const label = names[Math.floor(random() * LABELS)]!;
        gold.push({ line: l, label, ...at(w) });
        spans++;
        const r = random();
        if (r < 0.8) predicted.push({ label, ...at(w), confidence_score: Math.round(random() * 100) / 100 }); // found
        else if (r < 0.9) predicted.push({ label: names[Math.floor(random() * LABELS)]!, ...at(w), confidence_score: Math.round(random() * 100) / 100 }); // a label, maybe wrong
        if (random() < 0.2) predicted.push({ label: names[Math.floor(random() * LABELS)]!, ...at(w + 1), confidence_score: Math.round(random() * 100) / 100 }); // spurious
      }
      emu.emulator.store.setLineLabels('bench', { labelerEmail: MODEL, role: 'LABELER' }, `d${d}`, l, predicted);
    }
    emu.emulator.store.setReviewLabels('bench', `d${d}`, gold);
  }
  const client = createLabelingClient({ url: emu.url, token: emu.token });
  const rounds = smoke ? 2 : 5; // each full round reads 2 × 2,000 copies: about a minute on a loaded 2-core machine
  const wall = { plain: [] as number[], ci: [] as number[] };
  try {
    const plain = () => evaluateProject(client, 'bench', { labelerEmail: MODEL });
    const ci = () => evaluateProject(client, 'bench', { labelerEmail: MODEL, ci: { seed: 1 } });
    const first = await ci(); // warm-up, and a check that both score the same
    if ((await plain()).micro.f1 !== first.micro.f1 || first.intervals?.resamples !== 1000 || first.micro.gold !== spans) throw new Error('the two evals disagree');
    for (let r = 0; r < rounds; r++) {
      for (const name of r % 2 ? (['ci', 'plain'] as const) : (['plain', 'ci'] as const)) {
        collectGarbage();
        const start = performance.now();
        await (name === 'ci' ? ci() : plain());
        wall[name].push(performance.now() - start);
      }
    }
  } finally {
    client.close();
    await emu.close();
  }
  // The bootstrap alone, on counts of the same shape (no reading, no matching).
  const counts = new DocumentCounts();
  const scorer = new Scorer();
  const span = (token: number, labelId: string): EvalSpan => ({ documentId: 'd', start: { sentenceId: 0, tokenId: token, charId: 0 }, end: { sentenceId: 0, tokenId: token, charId: 0 }, labelId, layer: 0 });
  for (let d = 0; d < documents; d++) {
    const g = Array.from({ length: LINES * 4 }, (_, i) => span(i, names[Math.floor(random() * LABELS)]!));
    counts.add(scorer.add(g, g.filter(() => random() < 0.8)));
  }
  const alone: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    bootstrapF1(counts, scorer.report().labels, { seed: r });
    alone.push(performance.now() - start);
  }
  const ratio = median(wall.ci) / median(wall.plain);
  const shape = `${documents.toLocaleString('en')} documents × ${LABELS} labels (${spans.toLocaleString('en')} gold spans)`;
  return [
    { bench, name: `${shape}: eval (evaluateProject over loopback HTTP)`, value: median(wall.plain), unit: 'ms', range: [Math.min(...wall.plain), Math.max(...wall.plain)], runs: rounds },
    { bench, name: `${shape}: eval with --ci (1,000 resamples)`, value: median(wall.ci), unit: 'ms', range: [Math.min(...wall.ci), Math.max(...wall.ci)], runs: rounds },
    { bench, name: `${shape}: eval with --ci / eval`, value: ratio, unit: '×', goal: '≤ 1.2×', met: ratio <= 1.2 },
    { bench, name: `${shape}: the bootstrap alone (1,000 resamples of the per-document counts)`, value: median(alone), unit: 'ms', range: [Math.min(...alone), Math.max(...alone)], runs: rounds },
  ];
}
