import { createHash } from 'node:crypto';
import type { Problem } from '../shared/problem.js';

/** One split of a release: its name (the file's and the dataset card's) and its share of the documents. */
export interface SplitShare {
  /** e.g. `train`: letters, digits and `_` (a Hugging Face split name, and a file name as it is). */
  name: string;
  /** Between 0 (excluded) and 1; the shares of a release add up to 1. */
  share: number;
}

/** What a split name may be: a Hugging Face split name (`\w+`) without dots, so that it is a file name as it is. */
const SPLIT_NAME = /^[A-Za-z0-9_]+$/;

/**
 * Reads `--split train=0.8,dev=0.1,test=0.1`.
 *
 * @param text - the flag's value
 * @param field - the flag, for the problems
 * @returns the splits in the order given, or every problem found (each naming the flag and the rule)
 * @remarks Shares are decimals or percentages (`train=80%`); they must add up to 1 (within 1e-9).
 * @example
 * ```ts
 * parseSplits('train=0.8,dev=0.1,test=0.1'); // { splits: [{ name: 'train', share: 0.8 }, …], problems: [] }
 * ```
 */
export function parseSplits(text: string, field = '--split'): { splits: SplitShare[]; problems: Problem[] } {
  const splits: SplitShare[] = [];
  const problems: Problem[] = [];
  const parts = text.split(',').map((p) => p.trim());
  for (const part of parts) {
    const m = /^([^=]*)=(.*)$/.exec(part);
    if (!m) {
      problems.push({ path: field, message: `"${part}" must be NAME=SHARE (e.g. train=0.8)` });
      continue;
    }
    const name = m[1]!.trim();
    const raw = m[2]!.trim();
    const percent = raw.endsWith('%');
    const share = Number(percent ? raw.slice(0, -1) : raw) / (percent ? 100 : 1);
    if (!SPLIT_NAME.test(name)) problems.push({ path: field, message: `split name "${name}" must be letters, digits or _ (a Hugging Face split name)` });
    else if (splits.some((s) => s.name === name)) problems.push({ path: field, message: `split "${name}" is given twice` });
    if (raw === '' || !Number.isFinite(share) || share <= 0 || share > 1) problems.push({ path: field, message: `the share of "${name}" must be a number above 0 and at most 1 (or a percentage), not "${raw}"` });
    else splits.push({ name, share });
  }
  const total = splits.reduce((sum, s) => sum + s.share, 0);
  if (problems.length === 0 && Math.abs(total - 1) > 1e-9) problems.push({ path: field, message: `the shares must add up to 1, not ${Number(total.toFixed(9))}` });
  return { splits: problems.length === 0 ? splits : [], problems };
}

/**
 * Where a document falls in [0, 1) for a seed: the first 52 bits of SHA-256(`seed`, `documentId`).
 *
 * @param documentId - the project's document id (`originId`)
 * @param seed - the release's seed
 * @returns a number in [0, 1), the same for the same id and seed on every machine
 */
export function documentPoint(documentId: string, seed: string): number {
  const digest = createHash('sha256').update(`labelkit-split\0${seed}\0${documentId}`).digest();
  // 52 bits: exact in a double.
  return (digest.readUInt32BE(0) * 2 ** 20 + (digest.readUInt32BE(4) >>> 12)) / 2 ** 52;
}

/**
 * A document's split: a function of its id and the seed only, so adding documents never moves one.
 *
 * @param documentId - the project's document id (`originId`)
 * @param seed - the release's seed
 * @param splits - the splits, in order (from {@link parseSplits})
 * @returns the name of the split whose interval of [0, 1) holds {@link documentPoint}
 * @remarks Each split takes its share of [0, 1) in the order given; a document's point decides.
 * Over n documents a split's count is binomial around share × n (its standard deviation
 * √(n × share × (1 − share)): 1.3 documents of 10 at 0.8, 9.5 of 1,000 at 0.1); `--stratify`
 * deals documents to the proportions instead ({@link createStratifier}).
 * @example
 * ```ts
 * splitOf('doc-1', '42', [{ name: 'train', share: 0.8 }, { name: 'test', share: 0.2 }]); // 'train' or 'test', always the same
 * ```
 */
export function splitOf(documentId: string, seed: string, splits: readonly SplitShare[]): string {
  const point = documentPoint(documentId, seed);
  let upTo = 0;
  for (const split of splits) {
    upTo += split.share;
    if (point < upTo) return split.name;
  }
  return splits[splits.length - 1]!.name;
}

/**
 * How many of `n` documents each split gets when dealt to the proportions: share × n rounded by
 * the largest remainder (ties to the earlier split), so the counts add up to `n`.
 *
 * @param splits - the splits
 * @param n - the documents
 * @returns one count per split, in order
 * @example
 * ```ts
 * quotas([{ name: 'train', share: 0.8 }, { name: 'dev', share: 0.1 }, { name: 'test', share: 0.1 }], 13); // [10, 2, 1]
 * ```
 */
export function quotas(splits: readonly SplitShare[], n: number): number[] {
  const exact = splits.map((s) => s.share * n);
  const counts = exact.map((x) => Math.floor(x + 1e-9));
  let left = n - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => [x - counts[i]!, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (left <= 0) break;
    counts[i]!++;
    left--;
  }
  return counts;
}
