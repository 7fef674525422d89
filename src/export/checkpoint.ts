import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { errorCode } from '../shared/classify.js';
import { openNoFollow } from '../shared/fileWrites.js';
import { isRecord } from '../shared/isRecord.js';
import { LEFT_OUT_REASONS } from './types.js';
import type { LeftOut } from './types.js';

/** The checkpoint's version: 2 carries the digests (1, of labelkit before them, is refused). */
export const CHECKPOINT_VERSION = 2 as const;

/** What the checkpoint holds between documents (all of it but the file's bytes). */
export interface Progress {
  documents: number;
  bytes: number;
  lines: number;
  tokens: number;
  spans: Record<string, number>;
  leftOut: LeftOut;
  /** Under `--labels`: the labels dropped so far, per name (absent otherwise). */
  dropped?: Record<string, number>;
}

/** A partial file besides the main one that a checkpoint vouches for (a release's split files): its length and the SHA-256 of those bytes. */
export interface PartialFile {
  bytes: number;
  prefix: string;
}

/** The checkpoint file beside the partial output: it proves itself, or it is refused. */
export interface Checkpoint<S> {
  checkpoint: typeof CHECKPOINT_VERSION;
  identity: Record<string, unknown>;
  /** A digest of the documents and tags planned: the project must be the same to go on. */
  planned: string;
  progress: Progress;
  /** The SHA-256 of the partial file's first `progress.bytes` bytes: checked before anything is appended. */
  prefix: string;
  /** Set once the output is complete, just before it is renamed into place (its `sha256` is `prefix`). */
  summary?: S;
  /** A release: its other partial files by name, each proven by its own `prefix` as the main one is. */
  files?: Record<string, PartialFile>;
  /** The SHA-256 of the fields above: an edited or damaged checkpoint does not match it. */
  seal: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const HEX64 = /^[0-9a-f]{64}$/;

/** The seal of a checkpoint's fields. */
function sealOf(c: Omit<Checkpoint<unknown>, 'seal'>): string {
  // A checkpoint without `files` (a single export's) is sealed as before they were added.
  return sha256(JSON.stringify([c.checkpoint, c.identity, c.planned, c.progress, c.prefix, c.summary ?? null, ...(c.files === undefined ? [] : [c.files])]));
}

/**
 * A checkpoint, sealed.
 *
 * @param fields - everything but the seal
 * @returns the checkpoint as written
 */
export function sealCheckpoint<S>(fields: Omit<Checkpoint<S>, 'seal' | 'checkpoint'>): Checkpoint<S> {
  const c = { checkpoint: CHECKPOINT_VERSION, ...fields };
  return { ...c, seal: sealOf(c) };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** Problems of a record of counts whose keys must be exactly `keys`. */
function countsProblems(value: unknown, keys: readonly string[], path: string): string[] {
  if (!isRecord(value)) return [`${path} must be an object of counts, got ${shown(value)}`];
  const problems: string[] = [];
  const extra = Object.keys(value).filter((k) => !keys.includes(k));
  if (extra.length > 0) problems.push(`${path} has ${extra.map((k) => JSON.stringify(k)).join(', ')}, which the export does not count`);
  for (const k of keys) if (!isCount(value[k])) problems.push(`${path}.${k} must be a whole number from 0, got ${shown(value[k])}`);
  return problems;
}

/**
 * Checks a checkpoint read back against what this export plans: every field's type and range,
 * counts that agree with each other, and the seal.
 *
 * @param value - the checkpoint file's JSON (its `identity` and `planned` already compared)
 * @param plan - the labels counted, the number of documents planned, for a release the names of
 * its other partial files (`files` must then name exactly those), and whether labels are dropped
 * (`--labels`: `progress.dropped` counts them, by names not kept)
 * @returns every problem, as phrases about the checkpoint (empty when it proves itself)
 * @remarks The partial files' digests (`prefix`, each of `files`) are checked against the files
 * by the caller ({@link reopenPartial}), before anything is appended.
 */
export function checkpointProblems(value: unknown, plan: { labels: readonly string[]; documents: number; files?: readonly string[] | undefined; dropped?: boolean | undefined }): string[] {
  if (!isRecord(value)) return ['is not a JSON object'];
  if (value.checkpoint !== CHECKPOINT_VERSION) return [`is of version ${shown(value.checkpoint)}, not ${CHECKPOINT_VERSION} (written by another labelkit)`];
  const problems: string[] = [];
  for (const field of ['planned', 'prefix', 'seal'] as const) if (typeof value[field] !== 'string' || !HEX64.test(value[field])) problems.push(`${field} must be a SHA-256 (64 hex digits), got ${shown(value[field])}`);
  if (!isRecord(value.identity)) problems.push(`identity must be an object, got ${shown(value.identity)}`);
  const p = value.progress;
  if (!isRecord(p)) problems.push(`progress must be an object, got ${shown(p)}`);
  else {
    for (const field of ['documents', 'bytes', 'lines', 'tokens'] as const) if (!isCount(p[field])) problems.push(`progress.${field} must be a whole number from 0, got ${shown(p[field])}`);
    if (isCount(p.documents) && p.documents > plan.documents) problems.push(`progress.documents is ${p.documents}, more than the ${plan.documents} planned`);
    if (p.documents === 0 && [p.bytes, p.lines, p.tokens].some((n) => n !== 0)) problems.push('progress counts bytes, lines or tokens of no document');
    const spanProblems = countsProblems(p.spans, plan.labels, 'progress.spans');
    problems.push(...spanProblems);
    if (spanProblems.length === 0 && isCount(p.tokens)) {
      const spans = Object.values(p.spans as Record<string, number>).reduce((a, b) => a + b, 0);
      if (spans > p.tokens) problems.push(`progress counts ${spans} spans over ${p.tokens} tokens (a span has a token at least)`);
    }
    const left = p.leftOut;
    if (!isRecord(left)) problems.push(`progress.leftOut must be an object, got ${shown(left)}`);
    else problems.push(...countsProblems(left.labels, LEFT_OUT_REASONS, 'progress.leftOut.labels'), ...countsProblems(left.lines, ['hidden', 'deleted'], 'progress.leftOut.lines'));
    if (plan.dropped !== true) {
      if (p.dropped !== undefined) problems.push('progress.dropped is there, but no --labels was given');
    } else if (!isRecord(p.dropped)) problems.push(`progress.dropped must be an object of counts, got ${shown(p.dropped)}`);
    else {
      // Counts of the names not kept (a kept name there is refused as one the export does not count).
      problems.push(...countsProblems(p.dropped, Object.keys(p.dropped).filter((k) => !plan.labels.includes(k)), 'progress.dropped'));
    }
  }
  if (value.summary !== undefined) {
    if (!isRecord(value.summary)) problems.push(`summary must be an object, got ${shown(value.summary)}`);
    else if (isRecord(p) && p.documents !== plan.documents) problems.push(`holds a summary, but ${shown(p.documents)} of ${plan.documents} documents were written`);
  }
  if (plan.files === undefined) {
    if (value.files !== undefined) problems.push('has "files", which the checkpoint of a single export does not');
  } else if (!isRecord(value.files)) problems.push(`files must be an object, got ${shown(value.files)}`);
  else {
    const files = value.files;
    const extra = Object.keys(files).filter((k) => !plan.files!.includes(k));
    if (extra.length > 0) problems.push(`files has ${extra.map((k) => JSON.stringify(k)).join(', ')}, which this release does not write`);
    for (const name of plan.files) {
      const f = files[name];
      if (!isRecord(f)) problems.push(`files[${JSON.stringify(name)}] must be an object, got ${shown(f)}`);
      else {
        if (!isCount(f.bytes)) problems.push(`files[${JSON.stringify(name)}].bytes must be a whole number from 0, got ${shown(f.bytes)}`);
        if (typeof f.prefix !== 'string' || !HEX64.test(f.prefix)) problems.push(`files[${JSON.stringify(name)}].prefix must be a SHA-256 (64 hex digits), got ${shown(f.prefix)}`);
        const keys = Object.keys(f).filter((k) => k !== 'bytes' && k !== 'prefix');
        if (keys.length > 0) problems.push(`files[${JSON.stringify(name)}] has ${keys.map((k) => JSON.stringify(k)).join(', ')}, which a file's entry does not`);
      }
    }
  }
  const extra = Object.keys(value).filter((k) => !['checkpoint', 'identity', 'planned', 'progress', 'prefix', 'summary', 'files', 'seal'].includes(k));
  if (extra.length > 0) problems.push(`has ${extra.map((k) => JSON.stringify(k)).join(', ')}, which a checkpoint does not`);
  if (problems.length === 0 && value.seal !== sealOf(value as unknown as Checkpoint<unknown>)) problems.push('was changed since labelkit wrote it (its seal does not match its fields)');
  return problems;
}

/**
 * The differences between the flags a checkpoint was written with and this run's.
 *
 * @param saved - the checkpoint's `identity`
 * @param now - this run's
 * @returns one phrase per difference, `name was X, now Y`
 */
export function identityDifferences(saved: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(saved), ...Object.keys(now)]);
  return [...keys].filter((k) => JSON.stringify(saved[k]) !== JSON.stringify(now[k])).map((k) => `${k} was ${JSON.stringify(saved[k]) ?? 'unset'}, now ${JSON.stringify(now[k]) ?? 'unset'}`);
}

/**
 * Reads a checkpoint file (never through a symbolic link) as JSON.
 *
 * @param path - the checkpoint file
 * @param refuse - turns a reason into the error thrown
 * @returns its JSON, or undefined when there is none
 * @throws what `refuse` makes of a link, an unreadable file or one that is not JSON (cut short or edited)
 */
export async function readCheckpoint(path: string, refuse: (why: string) => Error): Promise<unknown> {
  const text = await readFile(path, { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW }).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw refuse(errorCode(error) === 'ELOOP' ? `${path} is a symbolic link` : `${path} cannot be read (${errorCode(error) ?? String(error)})`);
  });
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refuse(`its checkpoint ${path} is not valid JSON (cut short or edited)`);
  }
}

/**
 * Reads a file's first `bytes` bytes through its open handle into `hash`.
 *
 * @param handle - the open file
 * @param bytes - how many bytes from the start
 * @param hash - where they go
 * @param onBytes - also receives each chunk as it is read (the buffer is reused: copy what is kept)
 */
export async function hashFrom(handle: FileHandle, bytes: number, hash: Hash, onBytes?: (chunk: Buffer) => void): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(bytes, 1 << 20));
  for (let at = 0; at < bytes; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, bytes - at), at);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    onBytes?.(chunk);
    at += bytesRead;
  }
}

/**
 * The SHA-256 of a whole file (never through a symbolic link), and its size.
 *
 * @param path - the file
 * @returns them, or undefined when it is missing or not a plain file
 */
export async function fileDigest(path: string): Promise<{ sha256: string; bytes: number } | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    const hash = createHash('sha256');
    await hashFrom(handle, info.size, hash);
    return { sha256: hash.digest('hex'), bytes: info.size };
  } finally {
    await handle.close();
  }
}

/**
 * Opens a partial file to go on writing it, only if it is what its checkpoint describes: a plain
 * file (not a symbolic link, no other names) whose first `bytes` bytes have the SHA-256 `prefix`;
 * it is then cut to `bytes` (what was written after the checkpoint is written again).
 *
 * @param path - the partial file
 * @param described - its length and digest, from a checkpoint that proved itself
 * @param refuse - turns a reason into the error thrown
 * @param onBytes - also receives its first `bytes` bytes, a chunk at a time, as they are hashed
 * (so that a caller reading them reads the file once; the buffer is reused: copy what is kept)
 * @returns the open handle, and the hash of its bytes so far (to go on updating)
 * @throws what `refuse` makes of a link, a missing file, a file with other names, shorter, or whose bytes differ
 */
export async function reopenPartial(path: string, described: PartialFile, refuse: (why: string) => Error, onBytes?: (chunk: Buffer) => void): Promise<{ handle: FileHandle; hash: Hash }> {
  const handle = await openNoFollow(path).catch((error: unknown) => {
    const code = errorCode(error);
    throw refuse(code === 'ELOOP' ? `${path} is a symbolic link` : code === 'ENOENT' ? `${path} is missing` : `${path} cannot be opened (${code ?? String(error)})`);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refuse(`${path} is not a plain file`);
    if (info.nlink > 1) throw refuse(`${path} has other names (hard links): it is not the export's own file`);
    if (info.size < described.bytes) throw refuse(`${path} is shorter (${info.size} bytes) than its checkpoint says (${described.bytes})`);
    const hash = createHash('sha256');
    await hashFrom(handle, described.bytes, hash, onBytes);
    if (hash.copy().digest('hex') !== described.prefix) throw refuse(`the first ${described.bytes} bytes of ${path} are not those its checkpoint describes (changed since)`);
    await handle.truncate(described.bytes);
    return { handle, hash };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
