import type { DocumentMatch } from './matchSpans.js';
import type { EvalLabel } from './types.js';

/** A confidence interval: the low and high ends. */
export type Interval = [low: number, high: number];

/** Options of {@link bootstrapF1}. */
export interface BootstrapOptions {
  /** How many resamples of the documents. @defaultValue 1000 */
  resamples?: number;
  /** The PRNG's seed (a whole number from 0 to 2^32-1): the same seed gives the same intervals. */
  seed: number;
  /** The interval's coverage. @defaultValue 0.95 */
  level?: number;
}

/** The intervals of a report's F1s, as `labelkit eval --ci` adds them (`intervals`). */
export interface F1Intervals {
  /** `percentile bootstrap over documents`. */
  method: 'percentile bootstrap over documents';
  level: number;
  resamples: number;
  seed: number;
  /** Documents resampled. */
  documents: number;
  /** The interval of micro F1. */
  micro: Interval;
  /** Each label's F1 interval, in the report's label order. */
  labels: (EvalLabel & { f1: Interval })[];
}

/** The default number of resamples. */
export const DEFAULT_RESAMPLES = 1000;

/**
 * A small seeded PRNG (mulberry32): 32 bits of state, a float in [0, 1) per call.
 *
 * @param seed - any whole number (taken modulo 2^32)
 * @returns the generator
 * @remarks Not for secrets: for resampling that must repeat with its seed.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const keyOf = (layer: number, id: string) => `${layer}\u0000${id}`;

/**
 * Per-document count vectors, gathered once, for the bootstrap: per document and label the true
 * positives and predicted + gold (F1 = 2·TP / (predicted + gold)).
 *
 * @remarks Holds a few numbers per document and label present in it; the resamples only sum
 * them, never match spans again.
 * @example
 * ```ts
 * const counts = new DocumentCounts();
 * counts.add(scorer.add(gold, predicted));
 * const intervals = bootstrapF1(counts, report.labels, { seed: 7 });
 * ```
 */
export class DocumentCounts {
  private readonly labelIndex = new Map<string, number>();
  /** Where each document's entries start in the arrays below; one more entry than documents. */
  private readonly starts: number[] = [0];
  private readonly entryLabel: number[] = [];
  private readonly entryTp: number[] = [];
  private readonly entrySum: number[] = [];

  /** How many documents were added. */
  get documents(): number {
    return this.starts.length - 1;
  }

  /**
   * Adds one document by its counts per label.
   *
   * @param rows - per label of the document: true positives, predicted and gold counts
   */
  addCounts(rows: Iterable<{ layer: number; id: string; tp: number; predicted: number; gold: number }>): void {
    for (const r of rows) {
      const key = keyOf(r.layer, r.id);
      let index = this.labelIndex.get(key);
      if (index === undefined) this.labelIndex.set(key, (index = this.labelIndex.size));
      this.entryLabel.push(index);
      this.entryTp.push(r.tp);
      this.entrySum.push(r.predicted + r.gold);
    }
    this.starts.push(this.entryLabel.length);
  }

  /**
   * Adds one document by its matches (what `Scorer.add` returns), counted as the scorer counts.
   *
   * @param matches - the document's matches, one per layer
   */
  add(matches: readonly DocumentMatch[]): void {
    const rows = new Map<string, { layer: number; id: string; tp: number; predicted: number; gold: number }>();
    const row = (s: { layer: number; labelId: string }) => {
      const key = keyOf(s.layer, s.labelId);
      let r = rows.get(key);
      if (!r) rows.set(key, (r = { layer: s.layer, id: s.labelId, tp: 0, predicted: 0, gold: 0 }));
      return r;
    };
    for (const m of matches) {
      for (const [g, p] of m.found) {
        const r = row(g);
        r.tp++;
        r.gold++;
        row(p).predicted++;
      }
      for (const [g, p] of m.confused) {
        row(g).gold++;
        row(p).predicted++;
      }
      for (const g of m.missed) row(g).gold++;
      for (const p of m.spurious) row(p).predicted++;
    }
    this.addCounts(rows.values());
  }

  /**
   * The arrays the resampling reads.
   *
   * @returns label index by key, and the entries by document
   */
  vectors(): { labelIndex: ReadonlyMap<string, number>; starts: Int32Array; label: Int32Array; tp: Float64Array; sum: Float64Array } {
    return { labelIndex: this.labelIndex, starts: Int32Array.from(this.starts), label: Int32Array.from(this.entryLabel), tp: Float64Array.from(this.entryTp), sum: Float64Array.from(this.entrySum) };
  }
}

/** The q-quantile of sorted values, interpolated linearly between the two nearest (numpy's default). */
function quantile(sorted: Float64Array, q: number): number {
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/**
 * Percentile-bootstrap intervals of micro F1 and each label's F1, resampling documents.
 *
 * @param counts - the per-document counts
 * @param labels - the report's labels (the intervals follow their order)
 * @param options - resamples (1,000), seed, level (0.95)
 * @returns the intervals
 * @throws RangeError when `resamples` is not a whole number from 1, or `level` not between 0 and 1
 * @remarks Each resample draws as many documents as there are, with replacement (a count per
 * document), and sums their count vectors: one pass over the documents and their labels, no
 * matching. A resample where a label has neither gold nor predicted spans gives it F1 0 (as the
 * report does). The interval's ends are the (1 − level)/2 and (1 + level)/2 quantiles of the
 * resampled F1s. With no document, every interval is [0, 0].
 * @example
 * ```ts
 * const { micro } = bootstrapF1(counts, report.labels, { seed: 7 });
 * ```
 */
export function bootstrapF1(counts: DocumentCounts, labels: readonly EvalLabel[], options: BootstrapOptions): F1Intervals {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples is ${resamples}: it must be a whole number from 1`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level is ${level}: it must be between 0 and 1`);
  const { labelIndex, starts, label, tp, sum } = counts.vectors();
  const n = starts.length - 1;
  const nLabels = labelIndex.size;
  // Per document, its micro sums, so that micro F1 costs one pass over the documents.
  const docTp = new Float64Array(n);
  const docSum = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    for (let e = starts[d]!; e < starts[d + 1]!; e++) {
      docTp[d]! += tp[e]!;
      docSum[d]! += sum[e]!;
    }
  }
  const random = mulberry32(options.seed);
  const weight = new Uint32Array(n);
  const labTp = new Float64Array(nLabels);
  const labSum = new Float64Array(nLabels);
  const micro = new Float64Array(resamples);
  const perLabel = new Float64Array(nLabels * resamples); // label-major: each label's resamples together
  for (let b = 0; b < resamples; b++) {
    weight.fill(0);
    for (let i = 0; i < n; i++) weight[Math.floor(random() * n)]!++;
    labTp.fill(0);
    labSum.fill(0);
    let mTp = 0;
    let mSum = 0;
    for (let d = 0; d < n; d++) {
      const w = weight[d]!;
      if (w === 0) continue;
      mTp += w * docTp[d]!;
      mSum += w * docSum[d]!;
      for (let e = starts[d]!; e < starts[d + 1]!; e++) {
        const l = label[e]!;
        labTp[l]! += w * tp[e]!;
        labSum[l]! += w * sum[e]!;
      }
    }
    micro[b] = mSum === 0 ? 0 : (2 * mTp) / mSum;
    for (let l = 0; l < nLabels; l++) perLabel[l * resamples + b] = labSum[l] === 0 ? 0 : (2 * labTp[l]!) / labSum[l]!;
  }
  const [qLow, qHigh] = [(1 - level) / 2, (1 + level) / 2];
  const interval = (values: Float64Array): Interval => {
    if (n === 0) return [0, 0];
    values.sort();
    return [quantile(values, qLow), quantile(values, qHigh)];
  };
  return {
    method: 'percentile bootstrap over documents',
    level,
    resamples,
    seed: options.seed,
    documents: n,
    micro: interval(micro),
    labels: labels.map((l) => {
      const index = labelIndex.get(keyOf(l.layer, l.id));
      const f1: Interval = index === undefined ? [0, 0] : interval(perLabel.subarray(index * resamples, (index + 1) * resamples));
      return { id: l.id, layer: l.layer, name: l.name, f1 };
    }),
  };
}
