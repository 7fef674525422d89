/** Prints the self time of a `.cpuprofile` by file (and the top functions): `tsx bench/support/summarizeProfile.ts FILE [top]`. */
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; }
const [file, topArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const byFile = new Map<string, number>();
const byFn = new Map<string, number>();
for (const id of profile.samples) {
  const frame = byId.get(id)!.callFrame;
  const where = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/') || `(${frame.functionName || 'native'})`;
  byFile.set(where, (byFile.get(where) ?? 0) + 1);
  const fn = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + 1);
}
const total = profile.samples.length;
const show = (m: Map<string, number>, n: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(`${((v * 100) / total).toFixed(1).padStart(5)} %  ${k}`));
console.log(`${total} samples\n-- by file`);
show(byFile, 25);
console.log('-- by function');
show(byFn, Number(topArg ?? 30));
