import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, lstat, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { LabelingClient } from 'labelkit';
import { errorCode } from '../shared/classify.js';
import { FileWriteError, openExclusive, writeFileAtomically } from '../shared/fileWrites.js';
import { isRecord } from '../shared/isRecord.js';
import { datasetCard } from './card.js';
import { checkpointProblems, fileDigest, hashFrom, identityDifferences, readCheckpoint, reopenPartial, sealCheckpoint } from './checkpoint.js';
import type { Checkpoint, Progress } from './checkpoint.js';
import { ExportError, ExportInterrupted, StrictExportError } from './errors.js';
import { exportDocuments, planExport } from './exportDocuments.js';
import type { ExportReadOptions } from './exportDocuments.js';
import { filterPlan } from './filters.js';
import type { DocumentStatus } from './filters.js';
import { formatDocument } from './formats.js';
import { createReleaseBuilder, deltaMismatches, keyOf, labelsHeld, manifestEntry, RELEASE_FILES, splitFileName } from './manifest.js';
import type { JournalEntry, ReleaseManifest, ReleaseOptions } from './manifest.js';
import { splitOf } from './splits.js';
import type { SplitShare } from './splits.js';
import { createStratifier } from './stratify.js';
import { EXPORT_FORMATS, LEFT_OUT_REASONS, noneLeftOut } from './types.js';
import type { ExportFormat } from './types.js';
import { publishFolder, writeNewFile } from './releaseFolder.js';
import { FAILED_WRITE_HINT, lockOutput } from './writeExport.js';

/** Options of {@link writeRelease}. */
export interface WriteReleaseOptions extends Omit<ExportReadOptions, 'format' | 'keep'> {
  format: ExportFormat;
  /** The release folder: written as `<out>.partial/`, renamed into place at the end; must not exist, or be empty. */
  out: string;
  splits: SplitShare[];
  seed: string;
  /** Deal documents to the splits by label ({@link createStratifier}) instead of by hash alone. @defaultValue false */
  stratify?: boolean | undefined;
  /** Keep only documents of these statuses (`TextDocument.isCompleted` of the copy). @defaultValue all */
  status?: readonly DocumentStatus[] | undefined;
  /** Keep only these document ids (`--documents FILE`). @defaultValue all */
  documents?: readonly string[] | undefined;
  /** Keep only these label names; the others are dropped and counted. @defaultValue all */
  labels?: readonly string[] | undefined;
  /** A delta: the last release's `manifest.json`; only what was added, changed or removed is written. */
  since?: string | undefined;
  /** The release's day, `YYYY-MM-DD`; a release that goes on from a checkpoint keeps the day it began. @defaultValue today (UTC) */
  created?: string | undefined;
  /**
   * More of what makes two runs the same release, compared when one goes on from the other's
   * checkpoint (e.g. a digest of the service's URL). Never put a secret here: it is written to
   * the checkpoint file.
   */
  identity?: Record<string, string> | undefined;
  /** The least time between two checkpoints. @defaultValue 200 */
  checkpointMs?: number | undefined;
  /** Called once, before the first document, when the release goes on from an interrupted run's checkpoint, with the documents already written. */
  onResume?: ((documents: number, total: number) => void) | undefined;
}

/**
 * Why a release folder cannot be written at `out`: its parent missing or not writable, or `out`
 * a file or a folder with something in it.
 *
 * @param out - the folder
 * @returns the problem, naming the path, or undefined
 */
export async function releaseOutputProblem(out: string): Promise<string | undefined> {
  const dir = dirname(resolve(out));
  const parent = await stat(dir).catch((error: unknown) => errorCode(error) ?? 'unreadable');
  if (typeof parent === 'string' || !parent.isDirectory()) return `cannot write ${out}: its folder ${dir} ${parent === 'ENOENT' ? 'does not exist' : 'is not a folder'}`;
  if (!(await access(dir, constants.W_OK).then(() => true, () => false))) return `cannot write ${out}: its folder ${dir} is not writable`;
  const there = await stat(out).catch(() => undefined);
  if (there && !there.isDirectory()) return `${out} is a file: a release is a folder`;
  // A release killed after its folder was renamed into place, before its checkpoint was removed: the writer checks it.
  const finished = await lstat(`${out}.checkpoint`).then(() => true, () => false);
  if (there && !finished && (await readdir(out)).length > 0) return `${out} is not empty: a release is never written over, give a new folder`;
  return undefined;
}

/** Reads a manifest.json and checks its shape; its SHA-256 is what a delta names. */
export async function readManifest(path: string, field: string): Promise<{ manifest: ReleaseManifest; sha256: string }> {
  const file = (await stat(path).catch(() => undefined))?.isDirectory() ? join(path, RELEASE_FILES.manifest) : path;
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new ExportError('RELEASE', field, `cannot read ${file} (${errorCode(error) ?? String(error)})`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ExportError('RELEASE', field, `${file} is not JSON: not a release's manifest.json`);
  }
  const ok = isRecord(value) && value['manifest'] === 1 && Array.isArray(value['documents']) && Array.isArray(value['files']) && isRecord(value['options']) && Array.isArray(value['tags']);
  if (!ok) throw new ExportError('RELEASE', field, `${file} is not a release's manifest.json (version 1)`);
  return { manifest: value as unknown as ReleaseManifest, sha256: createHash('sha256').update(text).digest('hex') };
}

/** A manifest as written: its fields, then one document per line (diffs of two releases stay readable). */
export function manifestText(manifest: ReleaseManifest): string {
  const { documents, ...rest } = manifest;
  return `${manifestHead(rest)}${documents.map((d) => `    ${JSON.stringify(d)}`).join(',\n')}${MANIFEST_TAIL}`;
}

/** What a manifest's text holds before its first document ({@link manifestText}). */
const manifestHead = (rest: Omit<ReleaseManifest, 'documents'>): string => `${JSON.stringify(rest, null, 2).slice(0, -2)},\n  "documents": [\n`;
const MANIFEST_TAIL = '\n  ]\n}\n';

/**
 * Writes a release's manifest.json with its documents read from the journal, one line at a time:
 * the same bytes as {@link manifestText}, without a document list in memory.
 *
 * @param path - the manifest's file (created exclusively, fsynced)
 * @param rest - the manifest but its documents
 * @param journal - the journal's file ({@link JournalEntry} lines, in the files' order)
 * @returns the SHA-256 of the text written
 */
async function writeManifestFromJournal(path: string, rest: Omit<ReleaseManifest, 'documents'>, journal: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await openExclusive(path);
  try {
    let pending = manifestHead(rest);
    let first = true;
    const flush = async (text: string) => {
      hash.update(text);
      await handle.write(text);
    };
    const lines = createInterface({ input: createReadStream(journal, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line === '') continue;
      pending += `${first ? '' : ',\n'}    ${JSON.stringify(manifestEntry(JSON.parse(line) as JournalEntry))}`;
      first = false;
      if (pending.length >= 1 << 16) {
        await flush(pending);
        pending = '';
      }
    }
    await flush(pending + MANIFEST_TAIL);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** What {@link writeRelease} returns: the manifest written but its document list (that is in manifest.json only). */
export type ReleaseSummary = Omit<ReleaseManifest, 'documents'>;

/** Today, `YYYY-MM-DD` (UTC). */
export const today = (): string => new Date().toISOString().slice(0, 10);

/** Bytes of a split file gathered before they are written (see writeRelease's `pending`). */
const PENDING_BYTES = 1 << 16;

/** The journal of a release being written, in its partial folder: a line per document written ({@link JournalEntry}). */
const JOURNAL = 'documents.journal';

/** What a release's checkpoint holds once it is complete: the SHA-256 of its manifest.json. */
interface ReleaseCheckpointSummary {
  manifest: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Counts a journal entry into a release's progress (`bytes` is the journal's length). */
function countEntry(progress: Progress, entry: JournalEntry, journalBytes: number): void {
  progress.documents++;
  progress.bytes += journalBytes;
  progress.lines += entry.lines;
  progress.tokens += entry.tokens;
  for (const [label, n] of Object.entries(entry.spans)) progress.spans[label] = (progress.spans[label] ?? 0) + n;
  for (const reason of LEFT_OUT_REASONS) progress.leftOut.labels[reason] += entry.leftOut.labels[reason];
  progress.leftOut.lines.hidden += entry.leftOut.lines.hidden;
  progress.leftOut.lines.deleted += entry.leftOut.lines.deleted;
}

/**
 * Writes a dataset release of one copy of some projects: a file per split, `manifest.json`, a
 * dataset card (`README.md`) and, for jsonl, the tag list; or, `since` an earlier release, the
 * delta (added and changed documents per split, the removed ids, the new release's manifest).
 *
 * @param client - the client
 * @param projectIds - the projects, in the files' order
 * @param options - format, folder, splits, seed, stratify, filters, since, and the export's read options
 * @returns the manifest written but its documents (they are in manifest.json only, not held in memory)
 * @throws {@link ExportError} before anything is written: an output that cannot be written
 * (`OUT`), another run writing it (`LOCKED`), a `since` of other options or not a manifest
 * (`RELEASE`), a label of `labels` that is in no label set (`FILTER`), `RESUME` for a resume with
 * other flags, of changed documents, or from a checkpoint or partial folder that does not prove
 * itself; {@link ExportInterrupted} when `signal` aborts (what was written is checkpointed); as
 * `writeExport` otherwise
 * @remarks Streamed: each document is formatted and written to its split's file as it is read,
 * and a line of the journal `<out>.partial/documents.journal` says where it went and what it
 * counts; manifest.json's documents are written from that journal at the end (nothing is kept
 * in memory per document but, under `since`, the last release's manifest and a key per document
 * of it met again). The folder is written as `<out>.partial/` under the lock `<out>.lock` and renamed into place when complete; a run killed
 * at any point leaves `out` untouched. As `writeExport` does, every `checkpointMs` the files are
 * fsynced and `<out>.checkpoint` records each file's length and the SHA-256 of those bytes (the
 * journal's as the checkpoint's own, the split files' in its `files`), sealed; the same command
 * run again checks the checkpoint and every file, cuts each to its length and goes on from the
 * next document, with the same files and manifest as a release never interrupted. Under `since`
 * the full files are written too (their SHA-256s are the manifest's), and removed at the end.
 */
export async function writeRelease(client: LabelingClient, projectIds: readonly string[], options: WriteReleaseOptions): Promise<ReleaseSummary> {
  const { format, splits, seed, stratify = false, status, documents: ids, labels: keepNames, since: sincePath, created: day = today(), identity: extra = {}, checkpointMs = 200, onResume, ...read } = options;
  if (!EXPORT_FORMATS.includes(format)) throw new ExportError('FORMAT', '--format', `must be ${EXPORT_FORMATS.join(', ')}`);
  const out = resolve(options.out);
  const unwritable = await releaseOutputProblem(out);
  if (unwritable) throw new ExportError('OUT', '--out', unwritable);
  const since = sincePath === undefined ? undefined : await readManifest(sincePath, '--since');
  const lock = await lockOutput(out);
  try {
    const interrupted = () => read.signal?.aborted === true;
    const plan = await planExport(client, projectIds, { ...read, format }).catch((error: unknown) => {
      throw interrupted() ? new ExportInterrupted(null, projectIds.length) : error;
    });
    const filtered = filterPlan(plan, { status, documents: ids, labels: keepNames });
    const releaseOptions: ReleaseOptions = { format, projects: [...projectIds], copy: plan.copy, layer: plan.layer, strict: read.strict === true, splits, seed, stratify, status: status ? [...status] : null, labels: keepNames ? [...plan.labels] : null, documents: ids ? ids.length : null };
    const labels = plan.labels.map((name) => ({ name, ids: Object.fromEntries(plan.projects.flatMap((p) => [...p.names].filter(([, n]) => n === name).map(([id]) => [p.projectId, id]))) }));
    if (since) {
      const mismatches = deltaMismatches(since.manifest, { options: releaseOptions, tags: plan.tags });
      if (mismatches.length > 0) throw new ExportError('RELEASE', '--since', `${sincePath} is a release of other options (${mismatches.join('; ')}): export in full instead`);
    }
    const partial = `${out}.partial`;
    const checkpointPath = `${out}.checkpoint`;
    const checkpointTemporary = `${checkpointPath}.tmp`;
    const fullNames = splits.map((s) => splitFileName(s.name, format));
    const fileNames = [...fullNames, ...(since ? splits.map((s) => splitFileName(s.name, format, true)) : [])];
    const total = plan.documents.length;
    const identity: Record<string, unknown> = {
      release: 1,
      ...releaseOptions,
      documents: ids ? sha256(JSON.stringify(ids)) : null,
      since: since?.sha256 ?? null,
      ...extra,
    };
    const planned = sha256(JSON.stringify([plan.tags, plan.documents.map((d) => [d.project, d.documentId])]));
    const refuse = (why: string) => new ExportError('RESUME', '--out', `cannot go on from the unfinished release ${out}: ${why}; delete ${partial} and ${checkpointPath} to start over`);
    const cleanUp = () => Promise.all([rm(checkpointPath, { force: true }), rm(checkpointTemporary, { force: true })]);
    /** The files of the partial folder that are not the release's: the journal, and under `since` the full files. */
    const scratch = [JOURNAL, ...(since ? fullNames : [])];

    let created = day;
    let progress: Progress = { documents: 0, bytes: 0, lines: 0, tokens: 0, spans: Object.fromEntries(plan.labels.map((l) => [l, 0])), leftOut: noneLeftOut() };
    let entries: JournalEntry[] = [];
    const hashes = new Map<string, Hash>();
    const handles = new Map<string, FileHandle>();
    let journal: { handle: FileHandle; hash: Hash } | undefined;
    const closeAll = () => Promise.all([...handles.values(), ...(journal ? [journal.handle] : [])].map((h) => h.close().catch(() => undefined)));

    const saved = await readCheckpoint(checkpointPath, refuse);
    if (saved !== undefined) {
      if (isRecord(saved) && isRecord(saved.identity)) {
        // The day is the day the release began: a run going on after midnight keeps it.
        const { created: savedDay, ...was } = saved.identity;
        const changed = identityDifferences(was, identity);
        if (changed.length > 0) throw new ExportError('RESUME', '--out', `${out} has an unfinished release with other flags (${changed.join('; ')}): run it again with the same flags, or delete ${partial} and ${checkpointPath} to start over`);
        if (saved.planned !== planned) throw new ExportError('RESUME', '--out', `the documents or the label set changed since the unfinished release ${out} began: delete ${partial} and ${checkpointPath} to start over`);
        if (typeof savedDay === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(savedDay)) created = savedDay;
      }
      const problems = checkpointProblems(saved, { labels: plan.labels, documents: total, files: fileNames });
      if (!(isRecord(saved) && isRecord(saved.identity) && typeof saved.identity.created === 'string')) problems.push('identity.created must be the release\'s day');
      if (isRecord(saved) && saved.summary !== undefined && !(isRecord(saved.summary) && typeof saved.summary.manifest === 'string' && Object.keys(saved.summary).length === 1)) problems.push('summary must hold the SHA-256 of the manifest only');
      if (problems.length > 0) throw refuse(`its checkpoint ${checkpointPath} ${problems.join('; ')}`);
      const checkpoint = saved as unknown as Checkpoint<ReleaseCheckpointSummary>;
      if (checkpoint.summary !== undefined) return await finishFromSummary(checkpoint.summary.manifest);
      progress = checkpoint.progress;
      // The journal is read once, a chunk at a time as it is hashed, into its lines (a line may span chunks).
      const lines: string[] = [];
      let rest = Buffer.alloc(0);
      const keepLines = (chunk: Buffer) => {
        let from = 0;
        for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, from)) {
          lines.push(Buffer.concat([rest, chunk.subarray(from, end)]).toString('utf8'));
          rest = Buffer.alloc(0);
          from = end + 1;
        }
        rest = Buffer.concat([rest, chunk.subarray(from)]);
      };
      journal = await reopenPartial(join(partial, JOURNAL), { bytes: progress.bytes, prefix: checkpoint.prefix }, refuse, keepLines);
      try {
        for (const name of fileNames) {
          const reopened = await reopenPartial(join(partial, name), checkpoint.files![name]!, refuse);
          handles.set(name, reopened.handle);
          hashes.set(name, reopened.hash);
        }
        entries = lines.map((line) => JSON.parse(line) as JournalEntry);
        // What the journal counts must be what the checkpoint says, and each document where this release puts it.
        const recount: Progress = { documents: 0, bytes: 0, lines: 0, tokens: 0, spans: Object.fromEntries(plan.labels.map((l) => [l, 0])), leftOut: noneLeftOut() };
        let at = 0;
        for (const entry of entries) {
          const length = Buffer.byteLength(JSON.stringify(entry)) + 1;
          countEntry(recount, entry, length);
          at++;
          const d = plan.documents[at - 1];
          if (!d || plan.projects[d.project]!.projectId !== entry.project || d.documentId !== entry.id) throw refuse(`document ${at} of its journal is not document ${at} of this release`);
        }
        if (JSON.stringify(recount) !== JSON.stringify(progress)) throw refuse(`its journal ${join(partial, JOURNAL)} does not count what its checkpoint says`);
      } catch (error) {
        await closeAll();
        throw error instanceof SyntaxError ? refuse(`its journal ${join(partial, JOURNAL)} is not one JSON object per line`) : error;
      }
    } else {
      if (await stat(out).then((s) => s.isDirectory(), () => false)) {
        if ((await readdir(out)).length > 0) throw new ExportError('OUT', '--out', `${out} is not empty: a release is never written over, give a new folder`);
      }
      await Promise.all([rm(partial, { recursive: true, force: true }), rm(checkpointTemporary, { force: true })]);
      await mkdir(partial);
      try {
        for (const name of fileNames) handles.set(name, await openExclusive(join(partial, name)));
        journal = { handle: await openExclusive(join(partial, JOURNAL)), hash: createHash('sha256') };
      } catch (error) {
        await closeAll();
        throw new FileWriteError(partial, error);
      }
    }

    const tagIndex = new Map(plan.tags.map((t, i) => [t, i]));
    const inRelease = since && new Set(plan.documents.map((d) => keyOf({ project: plan.projects[d.project]!.projectId, id: d.documentId })));
    const assigned = new Map((since?.manifest.documents ?? []).filter((d) => inRelease!.has(keyOf(d))).map((d) => [d.id, d.split]));
    const deal = stratify ? createStratifier({ splits, seed, total, assigned }) : undefined;
    /** A document's split; `held` (its labels) is read only by a stratified deal. */
    const splitFor = (id: string, held: () => readonly string[]) => (deal ? deal.assign(id, held()) : splitOf(id, seed, splits));
    let builder: ReturnType<typeof createReleaseBuilder>;
    try {
      builder = createReleaseBuilder({ options: releaseOptions, tags: plan.tags, labels, created, format: (doc) => formatDocument(format, doc, tagIndex), since, dropped: { documents: filtered.dropped, unknownIds: filtered.unknownIds }, resume: { entries, hashes }, listDocuments: false });
      // The stratified deal is a function of the documents before: replayed, it must put each where the journal says.
      for (const entry of entries) if (splitFor(entry.id, () => labelsHeld(entry)) !== entry.split) throw refuse(`its journal puts document ${entry.project}/${entry.id} in ${entry.split}, not where this release deals it`);
      // Counted in: the journal on disk is what manifest.json's documents are written from.
      entries = [];
    } catch (error) {
      await closeAll();
      throw error instanceof ExportError ? error : refuse(`its journal ${join(partial, JOURNAL)} is not of this release (${(error as Error).message})`);
    }
    const { handle: journalHandle, hash: journalHash } = journal!;
    /**
     * The split files' bytes not written yet, by file: where they start and the documents' bytes.
     * Written once they reach PENDING_BYTES and before every fsync, a split file takes a write per
     * 64 KiB instead of one per document (a write's call costs the writer's thread more than the
     * bytes); the journal is still written a line per document. Kept until written: a write that
     * fails is tried again from the same offset by the next checkpoint.
     */
    const pending = new Map<string, { at: number; chunks: Buffer[]; bytes: number }>();
    const flush = async (name: string) => {
      const waiting = pending.get(name);
      if (!waiting) return;
      const bytes = waiting.chunks.length === 1 ? waiting.chunks[0]! : Buffer.concat(waiting.chunks, waiting.bytes);
      await handles.get(name)!.write(bytes, 0, bytes.length, waiting.at).catch((error: unknown) => Promise.reject(new FileWriteError(join(partial, name), error, FAILED_WRITE_HINT)));
      pending.delete(name);
    };
    // The files at once: one flush's wait, not one per split.
    const sync = async () => {
      await Promise.all([...pending.keys()].map(flush));
      await Promise.all([...handles, [JOURNAL, journalHandle] as const].map(([name, handle]) => handle.datasync().catch((error: unknown) => Promise.reject(new FileWriteError(join(partial, name), error, FAILED_WRITE_HINT)))));
    };
    const checkpoint = async (summary?: ReleaseCheckpointSummary, files = builder.digests()) => {
      // The last one (with the summary) follows the fsync after the last document: those files were not written since.
      if (summary === undefined) await sync();
      const sealed = sealCheckpoint<ReleaseCheckpointSummary>({ identity: { ...identity, created }, planned, progress, prefix: journalHash.copy().digest('hex'), files, ...(summary && { summary }) });
      await writeFileAtomically(checkpointPath, JSON.stringify(sealed), { temporary: checkpointTemporary, kept: FAILED_WRITE_HINT });
    };
    /** Puts a document's bytes at `at` of a split file (they follow the bytes pending for it, if any). */
    const writeAt = async (name: string, bytes: Buffer, at: number) => {
      const waiting = pending.get(name) ?? { at, chunks: [], bytes: 0 };
      if (waiting.at + waiting.bytes !== at) throw new Error(`${name}: a document at byte ${at}, after pending bytes up to ${waiting.at + waiting.bytes}`);
      waiting.chunks.push(bytes);
      waiting.bytes += bytes.length;
      pending.set(name, waiting);
      if (waiting.bytes >= PENDING_BYTES) await flush(name);
    };

    let inFlight = false;
    try {
      if (saved === undefined) await checkpoint();
      else onResume?.(progress.documents, total);
      read.onProgress?.(progress.documents, total);
      let last = Date.now();
      for await (const doc of exportDocuments(client, plan, { ...read, from: progress.documents, ...(filtered.keep && { keep: filtered.keep }) })) {
        // Read ahead is not written after Ctrl-C: the run stops at the document it is at.
        read.signal?.throwIfAborted();
        const split = splitFor(doc.documentId, () => doc.lines.flatMap((l) => l.spans.map((s) => s.label)));
        // From here until the journal holds it, a document is counted in the builder's digests but
        // not in the journal: a checkpoint written then would describe files the journal does not.
        inFlight = true;
        const placed = builder.add(doc, split, doc.dropped);
        const line = Buffer.from(JSON.stringify(placed.entry) + '\n');
        // The document's bytes and its journal line at once: one write's wait, not two in turn (each
        // waited for before anything else happens: one that fails leaves inFlight, the last checkpoint stands).
        const writes = await Promise.allSettled([
          writeAt(splitFileName(split, format), placed.bytes, placed.entry.offset),
          since && placed.delta ? writeAt(splitFileName(split, format, true), placed.bytes, placed.deltaOffset) : undefined,
          journalHandle.write(line, 0, line.length, progress.bytes).catch((error: unknown) => Promise.reject(new FileWriteError(join(partial, JOURNAL), error, FAILED_WRITE_HINT))),
        ]);
        for (const w of writes) if (w.status === 'rejected') throw w.reason;
        journalHash.update(line);
        countEntry(progress, placed.entry, line.length);
        inFlight = false;
        if (Date.now() - last >= checkpointMs) {
          await checkpoint();
          last = Date.now();
        }
      }
      await sync();
    } catch (error) {
      // What the same flags would meet again: nothing to go on from.
      const final = error instanceof StrictExportError || (error instanceof ExportError && error.code === 'FORMAT');
      // Otherwise (Ctrl-C, a lost connection, a full disk) keep every document written so far for the next run;
      // a write that failed half way keeps the last checkpoint instead (the next run cuts the files back to it).
      if (!final && !inFlight) await checkpoint().catch(() => undefined);
      await closeAll();
      if (final) await Promise.all([rm(partial, { recursive: true, force: true }), cleanUp()]);
      throw interrupted() && !final ? new ExportInterrupted(progress.documents, total) : error;
    }
    let manifest: ReleaseSummary;
    try {
      // The files' SHA-256s in the manifest are those of their bytes on disk, read back.
      const digests = builder.digests();
      // The builder lists no documents: they are written from the journal.
      const { documents: _none, ...finished } = builder.finish();
      manifest = finished;
      for (const [name, handle] of handles) {
        const onDisk = createHash('sha256');
        const { size } = await handle.stat();
        await hashFrom(handle, size, onDisk);
        if (size !== digests[name]!.bytes || onDisk.digest('hex') !== digests[name]!.prefix) throw refuse(`${join(partial, name)} changed while it was written (its bytes are not those labelkit wrote)`);
      }
      const put = async (name: string, content: string) => {
        await rm(join(partial, name), { force: true });
        await writeNewFile(join(partial, name), content);
      };
      await rm(join(partial, RELEASE_FILES.manifest), { force: true });
      // The three files at once: one flush's wait, not three in turn.
      const [manifestSha256] = await Promise.all([
        writeManifestFromJournal(join(partial, RELEASE_FILES.manifest), manifest, join(partial, JOURNAL)),
        format === 'jsonl' && put(RELEASE_FILES.tags, JSON.stringify(plan.tags) + '\n'),
        manifest.delta ? put(RELEASE_FILES.removed, JSON.stringify(manifest.delta.removed) + '\n') : put(RELEASE_FILES.card, datasetCard(manifest)),
      ]);
      await checkpoint({ manifest: manifestSha256 }, digests);
    } finally {
      await closeAll();
    }
    await publish();
    return manifest;

    /** Removes what is not the release's from the partial folder, renames it into place, and removes the checkpoint. */
    async function publish(): Promise<void> {
      await Promise.all(scratch.map((name) => rm(join(partial, name), { force: true })));
      await publishFolder(partial, out);
      await cleanUp();
    }

    /**
     * The checkpoint says the release is complete (a run killed at its very end): the manifest
     * and files are checked against it, then renamed into place if they are not yet.
     */
    async function finishFromSummary(manifestSha256: string): Promise<ReleaseSummary> {
      const published = !(await lstat(partial).then(() => true, () => false));
      const folder = published ? out : partial;
      const text = await readFile(join(folder, RELEASE_FILES.manifest), { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW }).catch(() => undefined);
      if (text === undefined || sha256(text) !== manifestSha256) throw refuse(`${join(folder, RELEASE_FILES.manifest)} is not the manifest its checkpoint describes (${text === undefined ? 'missing' : 'its sha256 differs'})`);
      const manifest = JSON.parse(text) as ReleaseManifest;
      const wrong: string[] = [];
      for (const f of manifest.delta?.files ?? manifest.files) if ((await fileDigest(join(folder, f.path)))?.sha256 !== f.sha256) wrong.push(f.path);
      if (wrong.length > 0) throw refuse(`${wrong.map((p) => join(folder, p)).join(', ')}: not the file${wrong.length === 1 ? '' : 's'} its manifest names (SHA-256 differs)`);
      if (published) await cleanUp();
      else await publish();
      onResume?.(total, total);
      const { documents: _listed, ...summary } = manifest;
      return summary;
    }
  } finally {
    await lock.release();
  }
}
