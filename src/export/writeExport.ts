import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, readFile, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { LabelingClient } from 'labelkit';
import { errorCode } from '../shared/classify.js';
import { FileLockHeld, FileWriteError, openExclusive, syncFolder, takeFileLock, writeFileAtomically } from '../shared/fileWrites.js';
import type { FileLock } from '../shared/fileWrites.js';
import { isRecord } from '../shared/isRecord.js';
import { checkpointProblems, fileDigest, hashFrom, identityDifferences, readCheckpoint, reopenPartial, sealCheckpoint } from './checkpoint.js';
import type { Checkpoint, Progress } from './checkpoint.js';
import { ExportError, ExportInterrupted, StrictExportError } from './errors.js';
import { exportDocuments, planExport } from './exportDocuments.js';
import type { ExportReadOptions } from './exportDocuments.js';
import { filterPlan } from './filters.js';
import type { DocumentFilters } from './filters.js';
import type { ReleaseDropped } from './manifest.js';
import { formatDocument } from './formats.js';
import { EXPORT_FORMATS, LEFT_OUT_REASONS, noneLeftOut } from './types.js';
import type { ExportFormat, LeftOut } from './types.js';

/** Options of {@link writeExport}. */
export interface WriteExportOptions extends Omit<ExportReadOptions, 'format' | 'keep'>, DocumentFilters {
  format: ExportFormat;
  /** The file written (atomically, at the end). */
  out: string;
  /**
   * More of what makes two runs the same export, compared when one goes on from the other's
   * checkpoint (e.g. a digest of the service's URL). Never put a secret here: it is written
   * to the checkpoint file.
   */
  identity?: Record<string, string> | undefined;
  /** The least time between two checkpoints. @defaultValue 200 */
  checkpointMs?: number | undefined;
}

/** What an export wrote: `labelkit export --json` prints it. */
export interface ExportSummary {
  /** The shape's version: 1. */
  version: 1;
  format: ExportFormat;
  /** The file written. */
  out: string;
  /** jsonl: the file beside it holding the tag list (`ner_tags` index → tag); null otherwise. */
  tagsFile: string | null;
  projects: string[];
  /** `reviewer`, or the labeler's e-mail. */
  copy: string;
  layer: number;
  strict: boolean;
  documents: number;
  /** Lines of text written. */
  lines: number;
  tokens: number;
  /** Spans written per label, in the tag list's order. */
  spans: Record<string, number>;
  /** What was left out (or widened to whole tokens), by reason; see `LeftOutReason`. */
  leftOut: LeftOut;
  /** The IOB2 tag list. */
  tags: string[];
  bytes: number;
  /** The output's SHA-256, hex. */
  sha256: string;
  /** Documents already written by an earlier, interrupted run that this one went on from; null when it started afresh. */
  resumedAt: number | null;
  /** What the filters (`status`, `documents`, `labels`) left out: labels per name, documents by filter, ids in no project; null when none was given. */
  dropped: ReleaseDropped | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The hint said when a write of an export or a release fails (a full disk): what was written stays, to go on from. */
export const FAILED_WRITE_HINT = 'what was written so far is kept: run the same command to go on once that is fixed';

/**
 * Why an export cannot be written to `out`, or undefined: its folder missing, not a folder or not
 * writable, or `out` a folder.
 *
 * @param out - the output file
 * @returns the problem, naming the path
 */
export async function outputProblem(out: string): Promise<string | undefined> {
  const dir = dirname(resolve(out));
  const folder = await stat(dir).catch((error: unknown) => errorCode(error) ?? 'unreadable');
  if (typeof folder === 'string' || !folder.isDirectory()) return `cannot write ${out}: its folder ${dir} ${folder === 'ENOENT' ? 'does not exist' : typeof folder === 'string' ? `cannot be read (${folder})` : 'is not a folder'}`;
  const writable = await access(dir, constants.W_OK).then(() => true, () => false);
  if (!writable) return `cannot write ${out}: its folder ${dir} is not writable`;
  if ((await stat(out).catch(() => undefined))?.isDirectory()) return `${out} is a folder: give a file name`;
  return undefined;
}

/**
 * Takes `<out>.lock` (one writer per export file or release folder), or says who holds it.
 *
 * @param out - the file or folder written
 * @returns the lock: `release()` it when done
 * @throws {@link ExportError} `LOCKED` naming the process that holds it; a `FileWriteError` when the lock cannot be written
 */
export async function lockOutput(out: string): Promise<FileLock> {
  const lockPath = `${out}.lock`;
  try {
    return await takeFileLock(lockPath);
  } catch (error) {
    if (!(error instanceof FileLockHeld)) throw new FileWriteError(lockPath, error);
    const { pid, host } = error.holder;
    if (Number.isNaN(pid)) throw new ExportError('LOCKED', '--out', `${lockPath} names no process (edited?): delete it once you know no export writes ${out}`);
    if (error.otherHost) {
      throw new ExportError('LOCKED', '--out', `${out} is being written by another export, process ${pid} on the host ${host} (lock ${lockPath}); whether it still runs cannot be told from ${hostname()}: wait for it to end, or delete ${lockPath} once you know it does not run`);
    }
    throw new ExportError('LOCKED', '--out', `${out} is being written by another export, process ${pid} (lock ${lockPath}): wait for it to end`);
  }
}

/**
 * Exports one copy of one or more projects to a file in a training format: streamed, atomic and
 * resumable, one writer at a time.
 *
 * @param client - the client
 * @param projectIds - the projects, in the file's order
 * @param options - `format`, `out`, the copy (`labelerEmail`, default the reviewer copy),
 * `layer` (default 0), `strict`, `readAhead`, `onProgress`, `identity`, signal and time-out
 * @returns the summary (documents, lines, tokens, spans per label, what was left out and why, the
 * SHA-256 of the file's bytes as they are on disk)
 * @throws {@link ExportError} before anything is written: a format that does not exist, an output
 * that cannot be written, `LOCKED` when another export writes `out`, a label set not there,
 * `RESUME` for a resume with other flags, of a changed project, or from a checkpoint or partial
 * file that does not prove itself; `CopyNotFoundError` when a project has no such copy;
 * `StrictExportError` under `strict` (the partial output is then removed);
 * {@link ExportInterrupted} when `signal` aborts (what was written is checkpointed);
 * `FileWriteError` when the disk is full (what was written is kept); a labelkit error when a call
 * fails (the partial output and its checkpoint stay, to go on from)
 * @remarks The export holds `<out>.lock` (its process id and host) while it runs: a second export
 * to the same file is refused; a lock left by a process that no longer runs is taken over.
 * Documents are written as they are read, in order, to `<out>.partial` (created exclusively);
 * every `checkpointMs` the partial file is fsynced and `<out>.checkpoint` records its length, the
 * SHA-256 of those bytes, the documents written and the counts so far, sealed by a digest of it
 * all (written to a temporary file created exclusively, fsynced, renamed). Killed at any moment, a
 * run with the same flags checks the checkpoint (every field, the seal) and the partial file (a
 * plain file, not a link, whose first bytes have the checkpoint's digest), truncates the partial
 * file to the checkpoint's length and goes on from the next document; the result has the same
 * bytes as a run never interrupted. Anything that does not prove itself is refused, never
 * resumed. At the end the partial file is read back and its digest is the summary's; it is
 * renamed to `out` (for `jsonl` the tag list is written to `<out>.labels.json` first) and the
 * checkpoint removed.
 * @example
 * ```ts
 * const summary = await writeExport(client, ['demo-project'], { format: 'conll', out: 'gold.conll' });
 * console.log(summary.documents, summary.sha256);
 * ```
 */
export async function writeExport(client: LabelingClient, projectIds: readonly string[], options: WriteExportOptions): Promise<ExportSummary> {
  if (!EXPORT_FORMATS.includes(options.format)) throw new ExportError('FORMAT', '--format', `must be ${EXPORT_FORMATS.join(', ')}`);
  const out = resolve(options.out);
  const unwritable = await outputProblem(out);
  if (unwritable) throw new ExportError('OUT', '--out', unwritable);
  const lock = await lockOutput(out);
  try {
    return await writeLocked(client, projectIds, options, out);
  } finally {
    await lock.release();
  }
}

async function writeLocked(client: LabelingClient, projectIds: readonly string[], options: WriteExportOptions, out: string): Promise<ExportSummary> {
  const { format, identity: extra = {}, checkpointMs = 200, onProgress, status, documents: ids, labels: keepNames, ...read } = options;
  const interrupted = () => read.signal?.aborted === true;
  const plan = await planExport(client, projectIds, { ...read, format }).catch((error: unknown) => {
    throw interrupted() ? new ExportInterrupted(null, projectIds.length) : error;
  });
  const filtering = status !== undefined || ids !== undefined || keepNames !== undefined;
  const filtered = filterPlan(plan, { status, documents: ids, labels: keepNames });
  const strict = read.strict === true;
  const partial = `${out}.partial`;
  const checkpointPath = `${out}.checkpoint`;
  const checkpointTemporary = `${checkpointPath}.tmp`;
  const tagsFile = format === 'jsonl' ? `${out}.labels.json` : null;
  const identity: Record<string, unknown> = {
    format,
    copy: plan.copy,
    layer: plan.layer,
    strict,
    projects: [...projectIds],
    // The filters, when given (an export without them has the identity it always had).
    ...(status && { status: [...status] }),
    ...(ids && { documents: sha256(JSON.stringify(ids)) }),
    ...(keepNames && { labels: [...plan.labels] }),
    ...extra,
  };
  const planned = sha256(JSON.stringify([plan.tags, plan.documents.map((d) => [d.project, d.documentId])]));
  const tagIndex = new Map(plan.tags.map((t, i) => [t, i]));
  const total = plan.documents.length;
  const summaryOf = (progress: Progress, digest: string, resumedAt: number | null): ExportSummary => ({
    version: 1,
    format,
    out,
    tagsFile,
    projects: [...projectIds],
    copy: plan.copy,
    layer: plan.layer,
    strict,
    documents: progress.documents,
    lines: progress.lines,
    tokens: progress.tokens,
    spans: progress.spans,
    leftOut: progress.leftOut,
    tags: plan.tags,
    bytes: progress.bytes,
    sha256: digest,
    resumedAt,
    dropped: filtering ? { labels: progress.dropped ?? {}, documents: filtered.dropped, unknownIds: filtered.unknownIds } : null,
  });
  const refuse = (why: string) => new ExportError('RESUME', '--out', `cannot go on from the unfinished export of ${out}: ${why}; delete ${partial} and ${checkpointPath} to start over`);
  const cleanUp = () => Promise.all([rm(checkpointPath, { force: true }), rm(checkpointTemporary, { force: true })]);

  let progress: Progress = { documents: 0, bytes: 0, lines: 0, tokens: 0, spans: Object.fromEntries(plan.labels.map((l) => [l, 0])), leftOut: noneLeftOut(), ...(filtered.keep && { dropped: {} }) };
  let resumedAt: number | null = null;
  let hash = createHash('sha256');
  const saved = await readCheckpoint(checkpointPath, refuse);
  let handle: FileHandle;
  if (saved !== undefined) {
    if (isRecord(saved) && isRecord(saved.identity)) {
      const changed = identityDifferences(saved.identity, identity);
      if (changed.length > 0) throw new ExportError('RESUME', '--out', `${out} has an unfinished export with other flags (${changed.join('; ')}): run it again with the same flags, or delete ${partial} and ${checkpointPath} to start over`);
      if (saved.planned !== planned) throw new ExportError('RESUME', '--out', `the documents or the label set changed since the unfinished export of ${out} began: delete ${partial} and ${checkpointPath} to start over`);
    }
    const problems = checkpointProblems(saved, { labels: plan.labels, documents: total, dropped: filtered.keep !== undefined });
    if (problems.length > 0) throw refuse(`its checkpoint ${checkpointPath} ${problems.join('; ')}`);
    const checkpoint = saved as unknown as Checkpoint<ExportSummary>;
    if (checkpoint.summary !== undefined) {
      // Every field of the summary is what the checkpoint's progress and plan make it.
      const { resumedAt: summaryResumedAt } = checkpoint.summary;
      const valid = summaryResumedAt === null || (Number.isSafeInteger(summaryResumedAt) && summaryResumedAt >= 0 && summaryResumedAt <= total);
      if (!valid || JSON.stringify(checkpoint.summary) !== JSON.stringify(summaryOf(checkpoint.progress, checkpoint.prefix, summaryResumedAt))) throw refuse(`the summary in its checkpoint ${checkpointPath} is not the export it describes`);
      const partialThere = await lstat(partial).then(() => true, () => false);
      if (!partialThere) {
        // Killed after the rename, before the checkpoint was removed: the output is complete, if it is still the file described.
        const written = await fileDigest(out);
        if (written?.sha256 !== checkpoint.prefix || written.bytes !== checkpoint.progress.bytes) throw refuse(`${out} is not the file its checkpoint describes (${written ? 'its sha256 differs' : 'missing, or not a plain file'})`);
        if (tagsFile && (await readFile(tagsFile, 'utf8').catch(() => undefined)) !== JSON.stringify(plan.tags) + '\n') throw refuse(`${tagsFile} is not the tag list of the export`);
        await cleanUp();
        return checkpoint.summary;
      }
    }
    progress = checkpoint.progress;
    ({ handle, hash } = await reopenPartial(partial, { bytes: progress.bytes, prefix: checkpoint.prefix }, refuse));
    resumedAt = progress.documents;
  } else {
    await Promise.all([rm(partial, { force: true }), rm(checkpointTemporary, { force: true })]);
    await writeFileAtomically(checkpointPath, JSON.stringify(sealCheckpoint<ExportSummary>({ identity, planned, progress, prefix: hash.copy().digest('hex') })), { temporary: checkpointTemporary });
    handle = await openExclusive(partial).catch((error: unknown) => Promise.reject(new FileWriteError(partial, error)));
  }
  const checkpoint = async (summary?: ExportSummary) => {
    await handle.datasync().catch((error: unknown) => Promise.reject(new FileWriteError(partial, error, FAILED_WRITE_HINT)));
    const sealed = sealCheckpoint<ExportSummary>({ identity, planned, progress, prefix: hash.copy().digest('hex'), ...(summary && { summary }) });
    await writeFileAtomically(checkpointPath, JSON.stringify(sealed), { temporary: checkpointTemporary, kept: FAILED_WRITE_HINT });
  };

  try {
    let last = Date.now();
    // The count is known: said before the first document (a progress line shows from the start).
    onProgress?.(progress.documents, total);
    const documents = exportDocuments(client, plan, { ...read, from: progress.documents, ...(onProgress && { onProgress }), ...(filtered.keep && { keep: filtered.keep }) });
    for await (const doc of documents) {
      // Read ahead is not written after Ctrl-C: the run stops at the document it is at.
      read.signal?.throwIfAborted();
      const bytes = Buffer.from(formatDocument(format, doc, tagIndex));
      await handle.write(bytes, 0, bytes.length, progress.bytes).catch((error: unknown) => Promise.reject(new FileWriteError(partial, error, FAILED_WRITE_HINT)));
      hash.update(bytes);
      progress.documents++;
      progress.bytes += bytes.length;
      for (const line of doc.lines) {
        progress.lines++;
        progress.tokens += line.tokens.length;
        for (const span of line.spans) progress.spans[span.label] = (progress.spans[span.label] ?? 0) + 1;
      }
      for (const reason of LEFT_OUT_REASONS) progress.leftOut.labels[reason] += doc.leftOut.labels[reason];
      progress.leftOut.lines.hidden += doc.leftOut.lines.hidden;
      progress.leftOut.lines.deleted += doc.leftOut.lines.deleted;
      if (progress.dropped) for (const [name, n] of doc.dropped ?? []) progress.dropped[name] = (progress.dropped[name] ?? 0) + n;
      if (Date.now() - last >= checkpointMs) {
        await checkpoint();
        last = Date.now();
      }
    }
    await handle.datasync().catch((error: unknown) => Promise.reject(new FileWriteError(partial, error, FAILED_WRITE_HINT)));
  } catch (error) {
    // What the same flags would meet again: nothing to go on from.
    const final = error instanceof StrictExportError || (error instanceof ExportError && error.code === 'FORMAT');
    // Otherwise (Ctrl-C, a lost connection, a full disk) keep every document written so far for the next run.
    if (!final) await checkpoint().catch(() => undefined);
    await handle.close();
    if (final) await Promise.all([rm(partial, { force: true }), cleanUp()]);
    throw interrupted() && !final ? new ExportInterrupted(progress.documents, total) : error;
  }
  let summary: ExportSummary;
  try {
    // The summary's digest is of the bytes on disk, read back: what was hashed while writing must be them.
    const onDisk = createHash('sha256');
    const { size } = await handle.stat();
    await hashFrom(handle, size, onDisk);
    const digest = onDisk.digest('hex');
    if (size !== progress.bytes || digest !== hash.copy().digest('hex')) throw refuse(`${partial} changed while it was written (its bytes are not those labelkit wrote)`);
    summary = summaryOf(progress, digest, resumedAt);
    await checkpoint(summary);
  } finally {
    await handle.close();
  }
  if (tagsFile) await writeFileAtomically(tagsFile, JSON.stringify(plan.tags) + '\n', { temporary: `${tagsFile}.tmp` });
  await rename(partial, out);
  await syncFolder(dirname(out));
  // The checkpoint, and a temporary one a kill may have left half written.
  await cleanUp();
  return summary;
}
