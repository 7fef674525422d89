import { buildLabelTree, createLabelingClient } from '../src/client/index.js';
import { labelSetsPayload, startFixedServer } from './support/fixedServer.js';
import { collectGarbage, median, smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

/** 2. Large label sets: fetch, map and build the tree of 5 sets × N items, against fetch + JSON.parse. */
export async function largeLabelSets(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const sizes = smoke ? [1_000, 10_000] : [1_000, 10_000, 50_000];
  const perItem: number[] = [];
  for (const items of sizes) {
    const server = await startFixedServer(labelSetsPayload(5, items));
    const client = createLabelingClient({ url: server.url, token: 't', timeoutMs: 120_000 });
    const raw = async () => JSON.parse(await (await fetch(server.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).text());
    const ours = async () => {
      const sets = await client.getLabelSets('c');
      for (const set of sets) buildLabelTree(set);
    };
    const runs = smoke ? 3 : items >= 50_000 ? 5 : 9;
    const a: number[] = [];
    const b: number[] = [];
    await raw();
    await ours();
    for (let i = 0; i < runs; i++) {
      collectGarbage();
      let t = performance.now();
      await raw();
      a.push(performance.now() - t);
      collectGarbage();
      t = performance.now();
      await ours();
      b.push(performance.now() - t);
    }
    client.close();
    await server.close();
    const ratio = median(b) / median(a);
    perItem.push((median(b) * 1000) / (5 * items));
    figures.push({ bench: 'large label sets', name: `5 × ${items}: raw fetch + JSON.parse`, value: median(a), unit: 'ms' });
    figures.push({ bench: 'large label sets', name: `5 × ${items}: labelkit + buildLabelTree`, value: median(b), unit: 'ms' });
    figures.push({ bench: 'large label sets', name: `5 × ${items}: ratio`, value: ratio, unit: '×', ...(items === 10_000 && { goal: '≤ 1.3×', met: ratio <= 1.3 }) });
  }
  const growth = perItem.at(-1)! / perItem[0]!;
  figures.push({ bench: 'large label sets', name: `µs per item, largest / smallest size`, value: growth, unit: '×', goal: '≤ 1.10 (linear)', met: growth <= 1.1 });
  return figures;
}
