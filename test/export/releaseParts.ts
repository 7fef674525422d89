// Generated documents and an in-memory release, for the tests of splits, manifests, deltas and
// the card: the same builder and split functions the release writer uses, without a service.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createReleaseBuilder, createStratifier, formatDocument, noneLeftOut, splitOf, tagList } from '../../src/export/index.js';
import type { DocumentInput } from '../../src/emulator/index.js';
import type { ExportedDocument, ReleaseManifest, ReleaseOptions } from '../../src/export/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import type { FakeIo } from '../support/fakeIo.js';

export const LABELS = ['PERSON', 'ORG', 'PLACE', 'DATE', 'EVENT', 'LAW'];
const WORDS = ['Ada', 'met', 'Grace', 'in', 'London', 'on', 'Monday', 'with', 'Acme', 'engineers'];

/** A generated document: one line per label it holds (and one plain line), each label on one token. */
export function makeDocument(id: string, labels: readonly string[], variant = 0, project = 'p'): ExportedDocument {
  const lines = [...labels, null].map((label, line) => {
    const tokens = Array.from({ length: 5 }, (_, w) => WORDS[(id.length * 3 + line * 7 + w + variant) % WORDS.length]!);
    const starts: number[] = [];
    let text = '';
    for (const t of tokens) {
      starts.push(text.length === 0 ? 0 : text.length + 1);
      text += (text.length === 0 ? '' : ' ') + t;
    }
    const at = (line + variant) % tokens.length;
    const spans = label === null ? [] : [{ startToken: at, endToken: at, start: starts[at]!, end: starts[at]! + tokens[at]!.length, label }];
    const tags = tokens.map((_, t) => (label !== null && t === at ? `B-${label}` : 'O'));
    return { line, text, tokens, starts, tags, spans };
  });
  return { projectId: project, documentId: id, fileName: `${id}.txt`, index: 0, lines, leftOut: noneLeftOut() };
}

/** A set of documents whose labels have skewed frequencies (PERSON in most, LAW in few). */
export function generatedDocuments(n: number, prefix = 'doc'): ExportedDocument[] {
  const share = [0.6, 0.35, 0.2, 0.1, 0.05, 0.02];
  return Array.from({ length: n }, (_, i) => {
    const h = createHash('sha256').update(`${prefix}-${i}`).digest();
    const labels = LABELS.filter((_, l) => h[l]! / 256 < share[l]!);
    return makeDocument(`${prefix}-${String(i).padStart(5, '0')}`, labels);
  });
}

export const OPTIONS: ReleaseOptions = {
  format: 'jsonl',
  projects: ['p'],
  copy: 'reviewer',
  layer: 0,
  strict: false,
  splits: [
    { name: 'train', share: 0.8 },
    { name: 'dev', share: 0.1 },
    { name: 'test', share: 0.1 },
  ],
  seed: '7',
  stratify: false,
  status: null,
  labels: null,
  documents: null,
};

export interface BuiltRelease {
  manifest: ReleaseManifest;
  manifestText: string;
  /** The full files (under --since: only what the delta writes, in `delta`). */
  files: Map<string, Buffer>;
  delta: Map<string, Buffer>;
}

/** Builds a release in memory as the writer does: split, bytes, manifest (and the delta under `since`); `listDocuments` as the builder's. */
export function buildRelease(docs: readonly ExportedDocument[], options: Partial<ReleaseOptions> = {}, since?: BuiltRelease, listDocuments = true): BuiltRelease {
  const opts = { ...OPTIONS, ...options };
  const tags = tagList(LABELS);
  const tagIndex = new Map(tags.map((t, i) => [t, i]));
  const builder = createReleaseBuilder({
    options: opts,
    tags,
    labels: LABELS.map((name, i) => ({ name, ids: { p: `l${i}` } })),
    created: '2026-11-29',
    format: (doc) => formatDocument(opts.format, doc, tagIndex),
    since: since && { manifest: since.manifest, sha256: createHash('sha256').update(since.manifestText).digest('hex') },
    listDocuments,
  });
  const assigned = new Map(since?.manifest.documents.filter((d) => docs.some((x) => x.documentId === d.id)).map((d) => [d.id, d.split]));
  const deal = opts.stratify ? createStratifier({ splits: opts.splits, seed: opts.seed, total: docs.length, assigned }) : undefined;
  const files = new Map<string, Buffer[]>();
  const delta = new Map<string, Buffer[]>();
  for (const doc of docs) {
    const split = deal ? deal.assign(doc.documentId, doc.lines.flatMap((l) => l.spans.map((s) => s.label))) : splitOf(doc.documentId, opts.seed, opts.splits);
    const placed = builder.add(doc, split);
    const name = `${split}.${opts.format}`;
    files.set(name, [...(files.get(name) ?? []), placed.bytes]);
    if (placed.delta) delta.set(split, [...(delta.get(split) ?? []), placed.bytes]);
  }
  const manifest = builder.finish();
  const join = (m: Map<string, Buffer[]>) => new Map([...m].map(([k, v]) => [k, Buffer.concat(v)]));
  const byPath = new Map(manifest.files.map((f) => [f.path, join(files).get(`${f.split}.${opts.format}`) ?? Buffer.alloc(0)]));
  const deltaByPath = new Map((manifest.delta?.files ?? []).map((f) => [f.path, join(delta).get(f.split) ?? Buffer.alloc(0)]));
  return { manifest, manifestText: JSON.stringify(manifest), files: byPath, delta: deltaByPath };
}

export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** The label set of the emulator projects the release commands are tested on. */
export const COMMAND_LABELS = ['PERSON', 'PLACE', 'ORG'];

/** An emulator document: 3 lines, one label on each (its label and token moved by `variant`); complete when its number is even. */
export function documentInput(n: number, variant = 0): DocumentInput {
  const lines = Array.from({ length: 3 }, (_, l) => Array.from({ length: 6 }, (_, w) => WORDS[(n * 3 + l * 5 + w) % WORDS.length]).join(' '));
  const review = lines.map((text, line) => {
    const word = text.split(' ')[(line + variant) % 6]!;
    const start = text.split(' ').slice(0, (line + variant) % 6).join(' ').length + ((line + variant) % 6 === 0 ? 0 : 1);
    return { line, start_char: start, end_char: start + word.length, label: COMMAND_LABELS[(n + line + variant) % 3]! };
  });
  return { id: `doc-${String(n).padStart(3, '0')}`, lines, review, completed: n % 2 === 0 };
}

/** A release's flags for the resume tests: stratified, so that going on also replays the deal of the documents before. */
export const resumableRelease = (project: string, out: string): string[] => ['export', '--project', project, '--format', 'jsonl', '--split', 'train=0.8,dev=0.1,test=0.1', '--seed', '7', '--stratify', '--out', out, '--json'];

/** Every file of a release folder with its SHA-256. */
export const releaseDigests = (folder: string): Record<string, string> => Object.fromEntries(readdirSync(folder).sort().map((f) => [f, sha256(readFileSync(join(folder, f)))]));

/** What the tests read of a release's checkpoint. */
export interface SavedCheckpoint {
  progress: { documents: number; bytes: number };
}

/** The checkpoint of the release `out`, or undefined when there is none (yet). */
export function readReleaseCheckpoint(out: string): SavedCheckpoint | undefined {
  try {
    return JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8')) as SavedCheckpoint;
  } catch {
    return undefined;
  }
}

/**
 * Resolves once `ready()` holds or `stop()` says to stop: looked at when fs.watch tells of a change
 * of the file `path` in its folder (no busy polling), and every 25 ms in case an event is missed.
 */
export function until(path: string, ready: () => boolean, stop: () => boolean = () => false): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name === null || name === basename(path)) look();
    });
    const timer = setInterval(look, 25);
    function look() {
      if (!ready() && !stop()) return;
      watcher.close();
      clearInterval(timer);
      resolve();
    }
    look();
  });
}

/**
 * Waits for a checkpoint of the export `out` of at least `documents` documents, then for the file
 * it writes to grow past it (a release's journal; a single export's `<out>.partial`): the run is
 * then mid-write.
 */
export async function midWrite(out: string, documents: number, stop: () => boolean, growing = join(`${out}.partial`, 'documents.journal')): Promise<SavedCheckpoint> {
  let saved: SavedCheckpoint | undefined;
  await until(`${out}.checkpoint`, () => (saved = readReleaseCheckpoint(out)) !== undefined && saved.progress.documents >= documents, stop);
  await until(growing, () => (statSync(growing, { throwIfNoEntry: false })?.size ?? 0) > saved!.progress.bytes, stop);
  return saved!;
}

/**
 * Runs `labelkit ARGS` in process and presses Ctrl-C once it is mid-write past a checkpoint of at
 * least `documents` documents ({@link midWrite}); the run must end with exit 130.
 *
 * @param env - the run's environment
 * @param args - the command's arguments (an export or a release to `out`)
 * @param out - its `--out`
 * @param documents - the least documents checkpointed before Ctrl-C
 * @param growing - the file written past the checkpoint (default: a release's journal)
 * @returns the stopped run's io, and the checkpoint it left
 */
export async function stopMidWrite(env: Record<string, string>, args: string[], out: string, documents: number, growing?: string): Promise<{ io: FakeIo; saved: SavedCheckpoint }> {
  const io = fakeIo(env);
  const stopped = main(argv(...args), io);
  let ended = false;
  void stopped.then(() => (ended = true));
  await midWrite(out, documents, () => ended, growing);
  io.interrupt();
  expect(await stopped, `the run ended before Ctrl-C: ${io.err()}`).toBe(130);
  return { io, saved: readReleaseCheckpoint(out)! };
}
