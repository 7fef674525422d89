import { createHash } from 'node:crypto';
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
  /** The SHA-256 of the fields above: an edited or damaged checkpoint does not match it. */
  seal: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const HEX64 = /^[0-9a-f]{64}$/;

/** The seal of a checkpoint's fields. */
function sealOf(c: Omit<Checkpoint<unknown>, 'seal'>): string {
  return sha256(JSON.stringify([c.checkpoint, c.identity, c.planned, c.progress, c.prefix, c.summary ?? null]));
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
 * @param plan - the labels counted and the number of documents planned
 * @returns every problem, as phrases about the checkpoint (empty when it proves itself)
 * @remarks The partial file's digest (`prefix`) is checked against the file by the caller,
 * before anything is appended.
 */
export function checkpointProblems(value: unknown, plan: { labels: readonly string[]; documents: number }): string[] {
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
  }
  if (value.summary !== undefined) {
    if (!isRecord(value.summary)) problems.push(`summary must be an object, got ${shown(value.summary)}`);
    else if (isRecord(p) && p.documents !== plan.documents) problems.push(`holds a summary, but ${shown(p.documents)} of ${plan.documents} documents were written`);
  }
  const extra = Object.keys(value).filter((k) => !['checkpoint', 'identity', 'planned', 'progress', 'prefix', 'summary', 'seal'].includes(k));
  if (extra.length > 0) problems.push(`has ${extra.map((k) => JSON.stringify(k)).join(', ')}, which a checkpoint does not`);
  if (problems.length === 0 && value.seal !== sealOf(value as unknown as Checkpoint<unknown>)) problems.push('was changed since labelkit wrote it (its seal does not match its fields)');
  return problems;
}
