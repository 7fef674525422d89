/** Prints the self time of a `.cpuprofile` by file (and the top functions): `tsx bench/support/summarizeProfile.ts FILE [top]`. */
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
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
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const fileOf = (n: Node) => n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
// Inclusive: each of our own files (src/, bench/) once per sample in whose stack it appears.
const inclusive = new Map<string, number>();
for (const id of profile.samples) {
  const files = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const f = fileOf(byId.get(at)!);
    if (/^(src|bench)\//.test(f)) files.add(f);
  }
  for (const f of files) inclusive.set(f, (inclusive.get(f) ?? 0) + 1);
}
const total = profile.samples.length;
const show = (m: Map<string, number>, n: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(`${((v * 100) / total).toFixed(1).padStart(5)} %  ${k}`));
console.log(`${total} samples\n-- by file`);
show(byFile, 25);
console.log('-- our files, inclusive (callees counted)');
show(inclusive, 15);
console.log('-- by function');
show(byFn, Number(topArg ?? 30));
