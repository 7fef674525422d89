import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import type { PartialFile } from './checkpoint.js';
import type { DocumentStatus } from './filters.js';
import type { SplitShare } from './splits.js';
import { LEFT_OUT_REASONS, noneLeftOut } from './types.js';
import type { ExportedDocument, ExportFormat, LeftOut } from './types.js';

/** What makes a release what it is: the flags of `labelkit export` that decide its files. */
export interface ReleaseOptions {
  format: ExportFormat;
  /** The projects, in the files' order. */
  projects: string[];
  /** `reviewer`, or the labeler's e-mail. */
  copy: string;
  layer: number;
  strict: boolean;
  splits: SplitShare[];
  seed: string;
  stratify: boolean;
  /** `--status`: the document statuses kept; null for all. */
  status: DocumentStatus[] | null;
  /** `--labels`: the label names kept; null for all. */
  labels: string[] | null;
  /** `--documents`: how many ids the file listed; null when not given. */
  documents: number | null;
}

/** One document of a release: where it went and what it held. */
export interface ManifestDocument {
  project: string;
  /** The project's document id (`originId`). */
  id: string;
  split: string;
  /** SHA-256 of its text and labels as exported ({@link documentHash}). */
  hash: string;
  /** Where its bytes start in its split's file. */
  offset: number;
  /** How many bytes it takes there. */
  bytes: number;
}

/**
 * A document's line in the journal a release keeps while it is written (to go on after a kill):
 * its manifest entry and what it adds to the counts.
 */
export interface JournalEntry extends ManifestDocument {
  lines: number;
  tokens: number;
  /** Spans written, per label (only the labels it holds). */
  spans: Record<string, number>;
  /** What the flat format left out of it, by reason. */
  leftOut: LeftOut;
  /** Labels `--labels` dropped from it, per name. */
  dropped: Record<string, number>;
}

/** One file of a release: a split's documents. */
export interface ReleaseFile {
  split: string;
  /** Its name in the release folder. */
  path: string;
  bytes: number;
  sha256: string;
  documents: number;
  lines: number;
  tokens: number;
  /** Spans written per label. */
  spans: Record<string, number>;
  /** Documents holding at least one span of each label. */
  documentsWith: Record<string, number>;
}

/** Documents and labels the filters of a release or an export (`--status`, `--documents`, `--labels`) left out. */
export interface ReleaseDropped {
  /** Labels dropped by `--labels`, per name. */
  labels: Record<string, number>;
  /** Documents left out by `--status` and by `--documents` (not listed). */
  documents: { status: number; notListed: number };
  /** Ids of `--documents` that no project of the release has. */
  unknownIds: number;
}

/** A document named by project and id. */
export interface DocumentKey {
  project: string;
  id: string;
}

/** What a delta release holds besides the full release's manifest. */
export interface ReleaseDelta {
  /** SHA-256 of the manifest.json of the release it goes on from. */
  since: string;
  added: DocumentKey[];
  changed: DocumentKey[];
  removed: DocumentKey[];
  /** The delta's files: each split's added and changed documents, in the release's order. */
  files: { split: string; path: string; bytes: number; sha256: string }[];
}

/** `DIR/manifest.json`: everything a release is, and proves. */
export interface ReleaseManifest {
  manifest: 1;
  /** The day the release was made (UTC, `YYYY-MM-DD`; `SOURCE_DATE_EPOCH` when set). */
  created: string;
  options: ReleaseOptions;
  /** The IOB2 tag list (jsonl `ner_tags` indices). */
  tags: string[];
  /** The label set: each name with its label item id in each project. */
  labels: { name: string; ids: Record<string, string> }[];
  /** jsonl: the tag list's file in the folder; null otherwise. */
  tagsFile: string | null;
  files: ReleaseFile[];
  /** What the flat format left out or changed, by reason (as a single export counts it). */
  leftOut: LeftOut;
  dropped: ReleaseDropped;
  /** Every document, in the files' order. */
  documents: ManifestDocument[];
  /** Set in a delta release (`--since`): what changed, and the delta's files. */
  delta?: ReleaseDelta;
}

/** Where a release's files go: the manifest, the card, the tag list, and the file names of the splits. */
export const RELEASE_FILES = { manifest: 'manifest.json', card: 'README.md', tags: 'labels.json', removed: 'removed.json' } as const;

const EXTENSION: Record<ExportFormat, string> = { conll: '.conll', jsonl: '.jsonl', spacy: '.spacy.jsonl' };

/**
 * A split's file name in a release folder: `train.jsonl`, `dev.conll`, `test.spacy.jsonl`; in a
 * delta, `train.delta.jsonl`.
 *
 * @param split - the split's name
 * @param format - the format
 * @param delta - the delta's file
 * @returns the name
 */
export function splitFileName(split: string, format: ExportFormat, delta = false): string {
  return `${split}${delta ? '.delta' : ''}${EXTENSION[format]}`;
}

/**
 * SHA-256 of a document's text and labels as exported: each line kept, its text, tokens and spans
 * (tokens and label names).
 *
 * @param doc - the document
 * @returns hex
 * @remarks Independent of the format: with the same options, the same hash means the same bytes.
 */
export function documentHash(doc: Pick<ExportedDocument, 'lines'>): string {
  const content = doc.lines.map((l) => [l.line, l.text, l.tokens, l.spans.map((s) => [s.startToken, s.endToken, s.label])]);
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/**
 * A document's manifest entry, from its journal entry: the same fields, in the manifest's order.
 *
 * @param entry - the journal entry (or the manifest entry)
 * @returns the manifest entry
 */
export const manifestEntry = (entry: ManifestDocument): ManifestDocument => ({ project: entry.project, id: entry.id, split: entry.split, hash: entry.hash, offset: entry.offset, bytes: entry.bytes });

/** A document's key, as a map key. */
export const keyOf = (d: DocumentKey): string => JSON.stringify([d.project, d.id]);

/** What {@link createReleaseBuilder} needs. */
export interface ReleaseBuilderOptions {
  options: ReleaseOptions;
  tags: string[];
  labels: ReleaseManifest['labels'];
  created: string;
  /** Turns a document into its bytes in the format (`formatDocument`). */
  format: (doc: ExportedDocument) => string;
  /** A delta (`--since`): the last release's manifest and its file's SHA-256. */
  since?: { manifest: ReleaseManifest; sha256: string } | undefined;
  dropped?: Partial<Omit<ReleaseDropped, 'labels'>> | undefined;
  /**
   * Going on from an interrupted run: the journal's entries (the documents already written, in
   * order) and, by file name, the hash of each file's bytes so far (read back from the files).
   */
  resume?: { entries: readonly JournalEntry[]; hashes: ReadonlyMap<string, Hash> } | undefined;
  /**
   * Keep each document's manifest entry for {@link ReleaseBuilder.finish}'s `documents`. A writer
   * that has them on disk (its journal) passes false: `finish` then gives an empty list, and the
   * builder holds nothing per document (under `since`, only the last release's entries).
   * @defaultValue true
   */
  listDocuments?: boolean | undefined;
}

/** What the writer does with one document: append `bytes` to the split's file (and to its delta file when `delta`). */
export interface PlacedDocument {
  split: string;
  bytes: Buffer;
  /** `--since`: the document is new or changed, and goes into the delta's file. */
  delta: boolean;
  /** `delta`: where its bytes start in the split's delta file. */
  deltaOffset: number;
  /** Its journal entry (its manifest entry is the same fields up to `bytes`). */
  entry: JournalEntry;
}

/** Builds a release's manifest as its documents stream by; the writer only writes the bytes. */
export interface ReleaseBuilder {
  /**
   * Places the next document, in the release's order.
   *
   * @param doc - the document
   * @param split - its split (plain hash or stratified)
   * @param dropped - labels `--labels` dropped from it, per name
   * @returns its split, its bytes, and whether it goes into the delta
   */
  add(doc: ExportedDocument, split: string, dropped?: ReadonlyMap<string, number>): PlacedDocument;
  /** Each file's length and the SHA-256 of its bytes so far, by name (the full files, then the delta's): what a checkpoint records. */
  digests(): Record<string, PartialFile>;
  /** The manifest of the release (of the full release, with `delta` under `--since`); its `documents` empty when they are not listed. */
  finish(): ReleaseManifest;
}

/**
 * The labels a journal entry's document holds (each once): those with a span.
 *
 * @param entry - the entry
 * @returns the names
 */
export const labelsHeld = (entry: Pick<JournalEntry, 'spans'>): string[] => Object.keys(entry.spans).filter((l) => (entry.spans[l] ?? 0) > 0);

/**
 * The pure heart of a release: hashes, offsets, counts and the delta, from the documents in order.
 *
 * @param init - the options, tags, labels, date, the format's writer, and the last release under `--since`
 * @returns the builder
 * @remarks The full files' SHA-256s are computed from every document's bytes, even under
 * `--since`, where only the delta is written: `apply-delta` must give those bytes.
 */
export function createReleaseBuilder(init: ReleaseBuilderOptions): ReleaseBuilder {
  // `init` is not kept: under `resume` it holds every journal entry.
  const { options, format, since, resume, created, tags, dropped: droppedDocuments, listDocuments = true } = init;
  const releaseLabels = init.labels;
  const labelNames = init.labels.map((l) => l.name);
  const files = new Map<string, ReleaseFile & { hash: Hash }>();
  const deltaFiles = new Map<string, { path: string; bytes: number; hash: Hash }>();
  const hashOf = (path: string) => resume?.hashes.get(path) ?? createHash('sha256');
  for (const { name } of options.splits) {
    const path = splitFileName(name, options.format);
    files.set(name, {
      split: name,
      path,
      bytes: 0,
      sha256: '',
      documents: 0,
      lines: 0,
      tokens: 0,
      spans: Object.fromEntries(labelNames.map((l) => [l, 0])),
      documentsWith: Object.fromEntries(labelNames.map((l) => [l, 0])),
      hash: hashOf(path),
    });
    if (since) {
      const deltaPath = splitFileName(name, options.format, true);
      deltaFiles.set(name, { path: deltaPath, bytes: 0, hash: hashOf(deltaPath) });
    }
  }
  const old = new Map(since?.manifest.documents.map((d) => [keyOf(d), d]));
  const documents: ManifestDocument[] = [];
  /** The documents placed (only when they are listed): each once. */
  const seen = listDocuments ? new Set<string>() : undefined;
  /** Under `since`: the last release's documents met again (what is left was removed). */
  const met = new Set<string>();
  const added: DocumentKey[] = [];
  const changed: DocumentKey[] = [];
  const leftOut = noneLeftOut();
  const droppedLabels: Record<string, number> = {};
  /** Counts one document in (its bytes already hashed by the caller); returns whether it goes into the delta. */
  const apply = (entry: JournalEntry): boolean => {
    const file = files.get(entry.split);
    if (!file) throw new Error(`no split "${entry.split}" in this release`);
    const key = { project: entry.project, id: entry.id };
    const k = keyOf(key);
    const before = old.get(k);
    if (seen?.has(k) || (before && met.has(k))) throw new Error(`document ${entry.project}/${entry.id} is twice in the release`);
    if (entry.offset !== file.bytes) throw new Error(`document ${entry.project}/${entry.id} starts at byte ${entry.offset} of ${file.path}, not at its end (${file.bytes})`);
    seen?.add(k);
    if (before) met.add(k);
    if (listDocuments) documents.push(manifestEntry(entry));
    file.bytes += entry.bytes;
    file.documents++;
    file.lines += entry.lines;
    file.tokens += entry.tokens;
    for (const [label, n] of Object.entries(entry.spans)) file.spans[label] = (file.spans[label] ?? 0) + n;
    for (const label of labelsHeld(entry)) file.documentsWith[label] = (file.documentsWith[label] ?? 0) + 1;
    for (const reason of LEFT_OUT_REASONS) leftOut.labels[reason] += entry.leftOut.labels[reason];
    leftOut.lines.hidden += entry.leftOut.lines.hidden;
    leftOut.lines.deleted += entry.leftOut.lines.deleted;
    for (const [name, n] of Object.entries(entry.dropped)) droppedLabels[name] = (droppedLabels[name] ?? 0) + n;
    if (!since) return false;
    if (!before) added.push(key);
    else if (before.hash !== entry.hash || before.split !== entry.split) changed.push(key);
    const delta = !before || before.hash !== entry.hash || before.split !== entry.split;
    if (delta) deltaFiles.get(entry.split)!.bytes += entry.bytes;
    return delta;
  };
  for (const entry of resume?.entries ?? []) apply(entry);
  return {
    add(doc, split, dropped) {
      const file = files.get(split);
      if (!file) throw new Error(`no split "${split}" in this release`);
      const bytes = Buffer.from(format(doc));
      const spans: Record<string, number> = {};
      let lines = 0;
      let tokens = 0;
      for (const line of doc.lines) {
        lines++;
        tokens += line.tokens.length;
        for (const span of line.spans) spans[span.label] = (spans[span.label] ?? 0) + 1;
      }
      const entry: JournalEntry = {
        project: doc.projectId,
        id: doc.documentId,
        split,
        hash: documentHash(doc),
        offset: file.bytes,
        bytes: bytes.length,
        lines,
        tokens,
        spans,
        leftOut: doc.leftOut,
        dropped: Object.fromEntries(dropped ?? []),
      };
      const deltaFile = deltaFiles.get(split);
      const deltaOffset = deltaFile?.bytes ?? 0;
      const delta = apply(entry);
      file.hash.update(bytes);
      if (delta) deltaFile!.hash.update(bytes);
      return { split, bytes, delta, deltaOffset, entry };
    },
    digests() {
      const all = [...[...files.values()].map((f) => [f.path, f] as const), ...[...deltaFiles.values()].map((f) => [f.path, f] as const)];
      return Object.fromEntries(all.map(([path, f]) => [path, { bytes: f.bytes, prefix: f.hash.copy().digest('hex') }]));
    },
    finish() {
      const manifest: ReleaseManifest = {
        manifest: 1,
        created,
        options,
        tags,
        labels: releaseLabels,
        tagsFile: options.format === 'jsonl' ? RELEASE_FILES.tags : null,
        files: [...files.values()].map(({ hash, ...file }) => ({ ...file, sha256: hash.digest('hex') })),
        leftOut,
        dropped: { labels: droppedLabels, documents: { status: droppedDocuments?.documents?.status ?? 0, notListed: droppedDocuments?.documents?.notListed ?? 0 }, unknownIds: droppedDocuments?.unknownIds ?? 0 },
        documents,
      };
      if (since) {
        const removed = since.manifest.documents.filter((d) => !met.has(keyOf(d))).map((d) => ({ project: d.project, id: d.id }));
        const deltaFilesOut = [...deltaFiles].map(([split, d]) => ({ split, path: d.path, bytes: d.bytes, sha256: d.hash.digest('hex') }));
        manifest.delta = { since: since.sha256, added, changed, removed, files: deltaFilesOut };
      }
      return manifest;
    },
  };
}

/**
 * Why a delta cannot go on from a release: the options that decide the bytes or the splits differ
 * (format, copy, layer, strict, splits, seed, stratify, labels) or the tag list does.
 *
 * @param old - the last release's manifest
 * @param now - this release's options and tag list
 * @returns one line per difference (none: a delta may go on from it)
 */
export function deltaMismatches(old: Pick<ReleaseManifest, 'options' | 'tags'>, now: Pick<ReleaseManifest, 'options' | 'tags'>): string[] {
  const keys = ['format', 'copy', 'layer', 'strict', 'splits', 'seed', 'stratify', 'labels'] as const;
  const problems = keys.filter((k) => JSON.stringify(old.options[k]) !== JSON.stringify(now.options[k])).map((k) => `${k} was ${JSON.stringify(old.options[k])}, now ${JSON.stringify(now.options[k])}`);
  if (JSON.stringify(old.tags) !== JSON.stringify(now.tags)) problems.push(`the tag list was ${JSON.stringify(old.tags)}, now ${JSON.stringify(now.tags)}`);
  return problems;
}

/** One piece of a rebuilt file: bytes copied from the old release's file or from the delta's. */
export interface FileSlice {
  from: 'old' | 'delta';
  /** The file's name in its folder. */
  path: string;
  offset: number;
  bytes: number;
}

/**
 * How `apply-delta` rebuilds each file of the new release: its documents in order, each from the
 * old release's file (unchanged) or the delta's (added or changed).
 *
 * @param old - the last release's manifest
 * @param delta - the delta's manifest (the new release's, with `delta`)
 * @returns per split file, its slices (neighbouring ones joined)
 * @throws `Error` when the delta does not go on from a release with the same options, or an
 * unchanged document is missing from the old release
 */
export function deltaSlices(old: ReleaseManifest, delta: ReleaseManifest): Map<string, FileSlice[]> {
  if (!delta.delta) throw new Error('the delta manifest has no delta section: it is a full release');
  const mismatches = deltaMismatches(old, delta);
  if (mismatches.length > 0) throw new Error(`the delta is not of this release: ${mismatches.join('; ')}`);
  const oldDocs = new Map(old.documents.map((d) => [keyOf(d), d]));
  const fresh = new Set([...delta.delta.added, ...delta.delta.changed].map(keyOf));
  const deltaOffset = new Map(delta.delta.files.map((f) => [f.split, 0]));
  const oldPath = new Map(old.files.map((f) => [f.split, f.path]));
  const deltaPath = new Map(delta.delta.files.map((f) => [f.split, f.path]));
  const out = new Map<string, FileSlice[]>(delta.files.map((f) => [f.path, []]));
  const pathOf = new Map(delta.files.map((f) => [f.split, f.path]));
  for (const doc of delta.documents) {
    const slices = out.get(pathOf.get(doc.split)!)!;
    let slice: FileSlice;
    if (fresh.has(keyOf(doc))) {
      const at = deltaOffset.get(doc.split)!;
      deltaOffset.set(doc.split, at + doc.bytes);
      slice = { from: 'delta', path: deltaPath.get(doc.split)!, offset: at, bytes: doc.bytes };
    } else {
      const before = oldDocs.get(keyOf(doc));
      if (!before || before.hash !== doc.hash || before.split !== doc.split) throw new Error(`document ${doc.project}/${doc.id} is neither in the delta nor unchanged in the old release`);
      slice = { from: 'old', path: oldPath.get(before.split)!, offset: before.offset, bytes: before.bytes };
    }
    const last = slices[slices.length - 1];
    if (last && last.from === slice.from && last.path === slice.path && last.offset + last.bytes === slice.offset) last.bytes += slice.bytes;
    else if (slice.bytes > 0) slices.push(slice);
  }
  return out;
}
