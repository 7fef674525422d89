import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, open, readFile, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { LabelingClient } from 'labelkit';
import { errorCode } from '../shared/classify.js';
import { ExportError } from './errors.js';
import { exportDocuments, planExport } from './exportDocuments.js';
import type { ExportReadOptions } from './exportDocuments.js';
import { StrictExportError } from './flattenDocument.js';
import { formatDocument } from './formats.js';
import { EXPORT_FORMATS, LEFT_OUT_REASONS, noneLeftOut } from './types.js';
import type { ExportFormat, LeftOut } from './types.js';

/** Options of {@link writeExport}. */
export interface WriteExportOptions extends Omit<ExportReadOptions, 'format'> {
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
}

/** What the checkpoint holds between documents (all of it but the file's bytes). */
interface Progress {
  documents: number;
  bytes: number;
  lines: number;
  tokens: number;
  spans: Record<string, number>;
  leftOut: LeftOut;
}

/** The checkpoint file beside the partial output. */
interface Checkpoint {
  checkpoint: 1;
  identity: Record<string, unknown>;
  /** A digest of the documents and tags planned: the project must be the same to go on. */
  planned: string;
  progress: Progress;
  /** Set once the output is complete, just before it is renamed into place. */
  summary?: ExportSummary;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Writes a small file durably and atomically: a temporary file, fsync, rename. */
async function writeDurably(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

/** Makes a rename in `dir` durable (where the platform allows opening a folder). */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

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

/** The differences between the checkpoint's flags and this run's, as `name was X, now Y`. */
function differences(saved: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(saved), ...Object.keys(now)]);
  return [...keys].filter((k) => JSON.stringify(saved[k]) !== JSON.stringify(now[k])).map((k) => `${k} was ${JSON.stringify(saved[k]) ?? 'unset'}, now ${JSON.stringify(now[k]) ?? 'unset'}`);
}

/** Reads the SHA-256 of a file's first `bytes` bytes into `hash`. */
async function hashPrefix(path: string, bytes: number, hash: ReturnType<typeof createHash>): Promise<void> {
  if (bytes === 0) return;
  for await (const chunk of createReadStream(path, { start: 0, end: bytes - 1 })) hash.update(chunk as Buffer);
}

/**
 * Exports one copy of one or more projects to a file in a training format: streamed, atomic and
 * resumable.
 *
 * @param client - the client
 * @param projectIds - the projects, in the file's order
 * @param options - `format`, `out`, the copy (`labelerEmail`, default the reviewer copy),
 * `layer` (default 0), `strict`, `readAhead`, `onProgress`, `identity`, signal and time-out
 * @returns the summary (documents, lines, tokens, spans per label, what was left out and why, the
 * output's SHA-256)
 * @throws {@link ExportError} before anything is written: a format that does not exist, an output
 * that cannot be written, a label set not there, a resume with other flags or of a changed
 * project; `CopyNotFoundError` when a project has no such copy; `StrictExportError` under
 * `strict` (the partial output is then removed); a labelkit error when a call fails (the partial
 * output and its checkpoint stay, to go on from)
 * @remarks Documents are written as they are read, in order, to `<out>.partial`; every
 * `checkpointMs` the partial file is fsynced and `<out>.checkpoint` records its length, the
 * documents written and the counts so far (written to a temporary file, fsynced, renamed).
 * Killed at any moment, a run with the same flags truncates the partial file to the
 * checkpoint's length and goes on from the next document; the result has the same bytes as a run
 * never interrupted. At the end the partial file is renamed to `out` (and for `jsonl` the tag
 * list is written to `<out>.labels.json` first) and the checkpoint removed.
 * @example
 * ```ts
 * const summary = await writeExport(client, ['demo-project'], { format: 'conll', out: 'gold.conll' });
 * console.log(summary.documents, summary.sha256);
 * ```
 */
export async function writeExport(client: LabelingClient, projectIds: readonly string[], options: WriteExportOptions): Promise<ExportSummary> {
  const { format, identity: extra = {}, checkpointMs = 200, onProgress, ...read } = options;
  if (!EXPORT_FORMATS.includes(format)) throw new ExportError('FORMAT', '--format', `must be ${EXPORT_FORMATS.join(', ')}`);
  const out = resolve(options.out);
  const unwritable = await outputProblem(out);
  if (unwritable) throw new ExportError('OUT', '--out', unwritable);
  const plan = await planExport(client, projectIds, { ...read, format });
  const strict = read.strict === true;
  const partial = `${out}.partial`;
  const checkpointPath = `${out}.checkpoint`;
  const tagsFile = format === 'jsonl' ? `${out}.labels.json` : null;
  const identity: Record<string, unknown> = { format, copy: plan.copy, layer: plan.layer, strict, projects: [...projectIds], ...extra };
  const planned = sha256(JSON.stringify([plan.tags, plan.documents.map((d) => [d.project, d.documentId])]));
  const tagIndex = new Map(plan.tags.map((t, i) => [t, i]));

  let progress: Progress = { documents: 0, bytes: 0, lines: 0, tokens: 0, spans: Object.fromEntries(plan.labels.map((l) => [l, 0])), leftOut: noneLeftOut() };
  let resumedAt: number | null = null;
  const hash = createHash('sha256');
  const saved = await readFile(checkpointPath, 'utf8').then((text) => JSON.parse(text) as Checkpoint, (error: unknown) => {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new ExportError('RESUME', '--out', `cannot read the checkpoint ${checkpointPath} of an unfinished export (${errorCode(error) ?? String(error)}): delete it and ${basename(partial)} to start over`);
  });
  let handle: FileHandle;
  if (saved) {
    const changed = differences(saved.identity, identity);
    const again = `run it again with the same flags, or delete ${partial} and ${checkpointPath} to start over`;
    if (changed.length > 0) throw new ExportError('RESUME', '--out', `${out} has an unfinished export with other flags (${changed.join('; ')}): ${again}`);
    if (saved.planned !== planned) throw new ExportError('RESUME', '--out', `the documents or the label set changed since the unfinished export of ${out} began: delete ${partial} and ${checkpointPath} to start over`);
    const partialSize = (await stat(partial).catch(() => undefined))?.size;
    if (saved.summary && partialSize === undefined && (await stat(out).catch(() => undefined))?.isFile()) {
      // Killed after the rename, before the checkpoint was removed: the output is complete.
      await Promise.all([rm(checkpointPath, { force: true }), rm(`${checkpointPath}.tmp`, { force: true })]);
      return saved.summary;
    }
    if (partialSize === undefined || partialSize < saved.progress.bytes) throw new ExportError('RESUME', '--out', `${partial} is missing or shorter than its checkpoint says: delete ${checkpointPath} to start over`);
    progress = saved.progress;
    resumedAt = progress.documents;
    handle = await open(partial, 'r+');
    await handle.truncate(progress.bytes);
    await hashPrefix(partial, progress.bytes, hash);
  } else {
    await rm(partial, { force: true });
    await writeDurably(checkpointPath, JSON.stringify({ checkpoint: 1, identity, planned, progress } satisfies Checkpoint));
    handle = await open(partial, 'w');
  }
  const checkpoint = async (summary?: ExportSummary) => {
    await handle.datasync();
    await writeDurably(checkpointPath, JSON.stringify({ checkpoint: 1, identity, planned, progress, ...(summary && { summary }) } satisfies Checkpoint));
  };

  try {
    let last = Date.now();
    const documents = exportDocuments(client, plan, { ...read, from: progress.documents, ...(onProgress && { onProgress }) });
    for await (const doc of documents) {
      const bytes = Buffer.from(formatDocument(format, doc, tagIndex));
      await handle.write(bytes, 0, bytes.length, progress.bytes);
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
      if (Date.now() - last >= checkpointMs) {
        await checkpoint();
        last = Date.now();
      }
    }
  } catch (error) {
    // What the same flags would meet again: nothing to go on from.
    const final = error instanceof StrictExportError || (error instanceof ExportError && error.code === 'FORMAT');
    // Otherwise (Ctrl-C, a lost connection) keep every document written so far for the next run.
    if (!final) await checkpoint().catch(() => undefined);
    await handle.close();
    if (final) await Promise.all([rm(partial, { force: true }), rm(checkpointPath, { force: true })]);
    throw error;
  }
  const summary: ExportSummary = {
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
    sha256: hash.digest('hex'),
    resumedAt,
  };
  try {
    await checkpoint(summary);
  } finally {
    await handle.close();
  }
  if (tagsFile) await writeDurably(tagsFile, JSON.stringify(plan.tags) + '\n');
  await rename(partial, out);
  await syncFolder(dirname(out));
  // The checkpoint, and a temporary one a kill may have left half written.
  await Promise.all([rm(checkpointPath, { force: true }), rm(`${checkpointPath}.tmp`, { force: true })]);
  return summary;
}
