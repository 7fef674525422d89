import { documentPoint, quotas } from './splits.js';
import type { SplitShare } from './splits.js';

/** Options of {@link createStratifier}. */
export interface StratifierOptions {
  /** The splits and their shares. */
  splits: readonly SplitShare[];
  /** The release's seed: breaks ties, as the plain split would place the document. */
  seed: string;
  /** How many documents the release has (those kept from `assigned` included). */
  total: number;
  /**
   * Documents already in a split (from the last release's manifest), each kept where it is; give
   * only those that are in this release. @defaultValue none
   */
  assigned?: ReadonlyMap<string, string> | undefined;
}

/** Deals the documents of a release to splits, one at a time, in the export's order. */
export interface Stratifier {
  /**
   * The split of the next document.
   *
   * @param documentId - its id
   * @param labels - the names of the labels it holds (each once or more: counted once)
   * @returns the split's name
   */
  assign(documentId: string, labels: readonly string[]): string;
}

const EPSILON = 1e-9;

/**
 * Stratified splits, dealt as the documents stream by: each label's documents spread over the
 * splits in their proportions, and each split's size the proportions ± rounding.
 *
 * @param options - the splits, the seed, the number of documents and those already assigned
 * @returns the stratifier; call `assign` once per document, in the export's order
 * @remarks A document of an earlier release keeps its split (`assigned`) and counts towards it
 * from the start. A new one goes to the split with room left (its size is share × total, by the
 * largest remainder) that is furthest below its share of the document's rarest label so far
 * (documents, not spans: a document counts once per label), then of the next rarest, then the
 * split furthest from full, then the split the plain hash gives ({@link splitOf}), then the
 * first. Single pass and deterministic: the same documents in the same order and seed give the
 * same splits. Tolerance measured in test/export/splits.test.ts.
 * @example
 * ```ts
 * const deal = createStratifier({ splits, seed: '42', total: plan.documents.length });
 * const split = deal.assign('doc-1', ['PERSON', 'DATE']);
 * ```
 */
export function createStratifier(options: StratifierOptions): Stratifier {
  const { splits, seed, total, assigned = new Map<string, string>() } = options;
  const index = new Map(splits.map((s, i) => [s.name, i]));
  const target = quotas(splits, total);
  const size = splits.map(() => 0);
  for (const split of assigned.values()) {
    const i = index.get(split);
    if (i !== undefined) size[i]!++;
  }
  /** Documents seen per label, and per label per split. */
  const seen = new Map<string, number>();
  const perSplit = new Map<string, number[]>();
  const count = (labels: ReadonlySet<string>, i: number) => {
    for (const l of labels) {
      seen.set(l, (seen.get(l) ?? 0) + 1);
      let row = perSplit.get(l);
      if (!row) perSplit.set(l, (row = splits.map(() => 0)));
      row[i]!++;
    }
  };
  return {
    assign(documentId, labels) {
      const distinct = new Set(labels);
      const earlier = assigned.get(documentId);
      const earlierAt = earlier === undefined ? undefined : index.get(earlier);
      if (earlierAt !== undefined) {
        count(distinct, earlierAt);
        return earlier!;
      }
      let candidates = splits.map((_, i) => i).filter((i) => size[i]! < target[i]!);
      if (candidates.length === 0) candidates = splits.map((_, i) => i);
      const rarestFirst = [...distinct].sort((a, b) => (seen.get(a) ?? 0) - (seen.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
      const keepBest = (score: (i: number) => number) => {
        const scores = candidates.map(score);
        const best = Math.max(...scores);
        candidates = candidates.filter((_, k) => scores[k]! >= best - EPSILON);
      };
      for (const l of rarestFirst) {
        if (candidates.length === 1) break;
        const n = (seen.get(l) ?? 0) + 1;
        const row = perSplit.get(l);
        keepBest((i) => splits[i]!.share * n - (row?.[i] ?? 0));
      }
      if (candidates.length > 1) keepBest((i) => (target[i]! - size[i]!) / Math.max(target[i]!, 1));
      if (candidates.length > 1) {
        const point = documentPoint(documentId, seed);
        let upTo = 0;
        const hashed = splits.findIndex((s) => point < (upTo += s.share));
        if (candidates.includes(hashed)) candidates = [hashed];
      }
      const chosen = candidates[0]!;
      size[chosen]!++;
      count(distinct, chosen);
      return splits[chosen]!.name;
    },
  };
}
