import { matchSpans, sortSpans, tokenUnits } from './matchSpans.js';
import type { DocumentMatch } from './matchSpans.js';
import { mistakesOf, noCounts, pairOutcome, schemePairs, schemeScore } from './schemes.js';
import type { SchemeCounts, SchemePairing } from './schemes.js';
import { SCHEMES } from './types.js';
import type { ConfusionCell, DocumentScore, EvalLabel, EvalSpan, Figures, LabelScore, MatchMode, Mistake, SchemeName, SchemeReport, ScoreReport, ZeroDivision } from './types.js';

/** Options of {@link scoreLabels} and {@link Scorer}. */
export interface ScoreOptions {
  /** How a prediction must meet a gold span. @defaultValue 'strict' */
  match?: MatchMode;
  /** Score only this layer (label set index). @defaultValue every layer */
  layer?: number;
  /**
   * Leave out predictions whose `confidenceScore` is under this; a prediction without a score is
   * kept. @defaultValue none
   */
  minConfidence?: number;
  /**
   * The project's labels, for names and order (layer, then this order); a label not listed is
   * reported with `name: null` after the listed ones. @defaultValue none
   */
  labels?: readonly EvalLabel[];
  /**
   * Called with each mistake of the model (missed, spurious, wrong label, boundary) as the
   * SemEval pairing finds it (see `schemePairs`), a document at a time. @defaultValue none
   */
  onMistake?: (mistake: Mistake) => void;
}

type SchemeTally = Record<SchemeName, SchemeCounts>;
const noTally = (): SchemeTally => ({ strict: noCounts(), exact: noCounts(), partial: noCounts(), ent_type: noCounts() });

const keyOf = (layer: number, id: string) => `${layer}\u0000${id}`;
const ratio = (n: number, d: number): [number, boolean] => (d === 0 ? [0, true] : [n / d, false]);

/**
 * Precision, recall and F1 from counts.
 *
 * @param tp - true positives
 * @param predicted - all predictions (tp + fp)
 * @param gold - all gold (tp + fn)
 * @returns the figures; a figure whose denominator is 0 is 0 and named in `zeroDivision`
 * @remarks F1 is computed as 2·tp / (predicted + gold), which equals 2PR / (P + R) and is 0/0 only
 * when there is neither a gold nor a predicted span.
 */
export function figuresOf(tp: number, predicted: number, gold: number): Figures {
  const [precision, p0] = ratio(tp, predicted);
  const [recall, r0] = ratio(tp, gold);
  const [f1, f0] = ratio(2 * tp, predicted + gold);
  const zeroDivision: ZeroDivision[] = [];
  if (p0) zeroDivision.push('precision');
  if (r0) zeroDivision.push('recall');
  if (f0) zeroDivision.push('f1');
  return { precision, recall, f1, zeroDivision };
}

/** The mean of figures, each weighted (the macro average with weights of 1). */
function average(scores: readonly LabelScore[], weight: (s: LabelScore) => number): Figures {
  const total = scores.reduce((n, s) => n + weight(s), 0);
  const mean = (pick: (s: LabelScore) => number): [number, boolean] => ratio(scores.reduce((n, s) => n + pick(s) * weight(s), 0), total);
  const [precision, zero] = mean((s) => s.precision);
  return { precision, recall: mean((s) => s.recall)[0], f1: mean((s) => s.f1)[0], zeroDivision: zero ? ['precision', 'recall', 'f1'] : [] };
}

/** Adds a pairing's pairs, missed and spurious spans to a tally of the four schemes. */
function tallyPairing(tally: SchemeTally, pairing: SchemePairing): void {
  for (const [g, p] of pairing.pairs) {
    const outcome = pairOutcome(g, p);
    for (const scheme of SCHEMES) tally[scheme][outcome[scheme]]++;
  }
  for (const scheme of SCHEMES) {
    tally[scheme].missed += pairing.missed.length;
    tally[scheme].spurious += pairing.spurious.length;
  }
}

/**
 * Scores predictions against gold a document at a time, holding only counts between documents.
 *
 * @remarks Give each document's gold and predicted spans to {@link Scorer.add} (any order; the
 * spans are paired within one document and one layer), then read {@link Scorer.report}. Between
 * documents it holds counts only, and one row of counts per document (`perDocument`); the
 * mistakes go to `onMistake` as they are found.
 * @example
 * ```ts
 * const scorer = new Scorer({ match: 'overlap', labels });
 * for await (const doc of documents) scorer.add(doc.gold, doc.predicted);
 * console.log(scorer.report().micro.f1);
 * ```
 */
export class Scorer {
  private readonly match: MatchMode;
  private readonly counts = new Map<string, { layer: number; id: string; gold: number; predicted: number; tp: number }>();
  private readonly confusion = new Map<string, number>();
  private readonly goldLabeledBy = new Map<string, number>();
  private readonly schemeTotal = noTally();
  private readonly schemeByLabel = new Map<string, SchemeTally>();
  private readonly perDocument: DocumentScore[] = [];
  private belowConfidence = 0;

  /** @param options - match mode, layer, confidence floor, label names */
  constructor(private readonly options: ScoreOptions = {}) {
    this.match = options.match ?? 'strict';
  }

  private count(span: EvalSpan) {
    const key = keyOf(span.layer, span.labelId);
    let c = this.counts.get(key);
    if (!c) this.counts.set(key, (c = { layer: span.layer, id: span.labelId, gold: 0, predicted: 0, tp: 0 }));
    return c;
  }

  private confuse(gold: EvalSpan | null, predicted: EvalSpan | null) {
    const key = `${gold ? keyOf(gold.layer, gold.labelId) : ''}\u0001${predicted ? keyOf(predicted.layer, predicted.labelId) : ''}`;
    this.confusion.set(key, (this.confusion.get(key) ?? 0) + 1);
  }

  /** Counts one document's and layer's spans in the four schemes, and reports its mistakes. */
  private addSchemes(gold: EvalSpan[], predicted: EvalSpan[]) {
    const pairing = schemePairs(gold, predicted);
    tallyPairing(this.schemeTotal, pairing);
    // Per label as nervaluate's per-entity results: each label on its own, its gold spans against
    // its predictions (both lists stay sorted), so a DATE predicted over a gold TIME is a miss of
    // TIME and a spurious DATE. The labels' counts then need not add up to the overall ones.
    const byLabel = new Map<string, { gold: EvalSpan[]; predicted: EvalSpan[] }>();
    const own = (span: EvalSpan) => {
      const key = keyOf(span.layer, span.labelId);
      let spans = byLabel.get(key);
      if (!spans) byLabel.set(key, (spans = { gold: [], predicted: [] }));
      return spans;
    };
    for (const g of gold) own(g).gold.push(g);
    for (const p of predicted) own(p).predicted.push(p);
    for (const [key, spans] of byLabel) {
      let t = this.schemeByLabel.get(key);
      if (!t) this.schemeByLabel.set(key, (t = noTally()));
      tallyPairing(t, schemePairs(spans.gold, spans.predicted));
    }
    if (this.options.onMistake) for (const m of mistakesOf(pairing)) this.options.onMistake(m);
  }

  /**
   * Adds one document: its gold spans and the model's.
   *
   * @param gold - the document's gold spans (already without CONFLICT, rejected and deleted ones)
   * @param predicted - the model's spans of the same document
   * @param documentId - the document, for its row of `perDocument` @defaultValue the spans'
   * `documentId`, else `(document N)`
   * @returns how the document's spans met, one match per layer (units as scored: token units in
   * `token` mode): what the confidence curves and the bootstrap's per-document counts read
   * @throws `ScoringError` in `token` mode for a span over two sentences (see `tokenUnits`)
   */
  add(gold: readonly EvalSpan[], predicted: readonly EvalSpan[], documentId?: string): DocumentMatch[] {
    const doc = { gold: 0, predicted: 0, tp: 0 };
    const { layer, minConfidence } = this.options;
    const byLayer = new Map<number, { gold: EvalSpan[]; predicted: EvalSpan[] }>();
    const group = (span: EvalSpan) => {
      let g = byLayer.get(span.layer);
      if (!g) byLayer.set(span.layer, (g = { gold: [], predicted: [] }));
      return g;
    };
    for (const span of gold) {
      if (layer !== undefined && span.layer !== layer) continue;
      group(span).gold.push(span);
      const by = span.labeledBy ?? '(unset)';
      this.goldLabeledBy.set(by, (this.goldLabeledBy.get(by) ?? 0) + 1);
    }
    for (const span of predicted) {
      if (layer !== undefined && span.layer !== layer) continue;
      if (minConfidence !== undefined && typeof span.confidenceScore === 'number' && span.confidenceScore < minConfidence) this.belowConfidence++;
      else group(span).predicted.push(span);
    }
    const matches: DocumentMatch[] = [];
    for (const layerId of [...byLayer.keys()].sort((a, b) => a - b)) {
      const g = byLayer.get(layerId)!;
      const goldUnits = this.match === 'token' ? tokenUnits(g.gold) : sortSpans(g.gold);
      const predUnits = this.match === 'token' ? tokenUnits(g.predicted) : sortSpans(g.predicted);
      for (const s of goldUnits) this.count(s).gold++;
      for (const s of predUnits) this.count(s).predicted++;
      doc.gold += goldUnits.length;
      doc.predicted += predUnits.length;
      const m = matchSpans(goldUnits, predUnits, this.match);
      doc.tp += m.found.length;
      matches.push(m);
      for (const [s, p] of m.found) {
        this.count(s).tp++;
        this.confuse(s, p);
      }
      for (const [s, p] of m.confused) this.confuse(s, p);
      for (const s of m.missed) this.confuse(s, null);
      for (const p of m.spurious) this.confuse(null, p);
      if (this.match === 'token') this.addSchemes(sortSpans(g.gold), sortSpans(g.predicted));
      else this.addSchemes(goldUnits, predUnits);
    }
    const id = documentId ?? gold[0]?.documentId ?? predicted[0]?.documentId ?? `(document ${this.perDocument.length + 1})`;
    this.perDocument.push({ documentId: id, ...doc, fp: doc.predicted - doc.tp, fn: doc.gold - doc.tp, ...figuresOf(doc.tp, doc.predicted, doc.gold) });
    return matches;
  }

  /**
   * The scores of everything added so far.
   *
   * @returns per-label counts and figures, micro/macro/weighted averages, the confusion table
   */
  report(): ScoreReport {
    const listed = this.options.labels ?? [];
    const order = new Map(listed.map((l, i) => [keyOf(l.layer, l.id), { rank: i, name: l.name }]));
    const rank = (layer: number, id: string) => order.get(keyOf(layer, id))?.rank ?? Number.MAX_SAFE_INTEGER;
    const byOrder = (a: { layer: number; id: string }, b: { layer: number; id: string }) =>
      a.layer - b.layer || rank(a.layer, a.id) - rank(b.layer, b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const label = (layer: number, id: string): EvalLabel => ({ id, layer, name: order.get(keyOf(layer, id))?.name ?? null });
    const labels: LabelScore[] = [...this.counts.values()].sort(byOrder).map((c) => ({
      ...label(c.layer, c.id),
      gold: c.gold,
      predicted: c.predicted,
      tp: c.tp,
      fp: c.predicted - c.tp,
      fn: c.gold - c.tp,
      ...figuresOf(c.tp, c.predicted, c.gold),
    }));
    const sum = (pick: (s: LabelScore) => number) => labels.reduce((n, s) => n + pick(s), 0);
    const [gold, predicted, tp] = [sum((s) => s.gold), sum((s) => s.predicted), sum((s) => s.tp)];
    const parse = (key: string) => (key === '' ? null : label(Number(key.slice(0, key.indexOf('\u0000'))), key.slice(key.indexOf('\u0000') + 1)));
    const cellOrder = (a: EvalLabel | null, b: EvalLabel | null) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : byOrder(a, b));
    const confusion: ConfusionCell[] = [...this.confusion]
      .map(([key, count]) => {
        const [g, p] = key.split('\u0001') as [string, string];
        return { gold: parse(g), predicted: parse(p), count };
      })
      .sort((a, b) => cellOrder(a.gold, b.gold) || cellOrder(a.predicted, b.predicted));
    return {
      match: this.match,
      layer: this.options.layer ?? null,
      minConfidence: this.options.minConfidence ?? null,
      labels,
      micro: { gold, predicted, tp, fp: predicted - tp, fn: gold - tp, ...figuresOf(tp, predicted, gold) },
      macro: average(labels, () => 1),
      weighted: average(labels, (s) => s.gold),
      confusion,
      goldLabeledBy: Object.fromEntries([...this.goldLabeledBy].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      predictedBelowConfidence: this.belowConfidence,
      schemes: Object.fromEntries(
        SCHEMES.map((scheme): [SchemeName, SchemeReport] => [
          scheme,
          {
            overall: schemeScore(this.schemeTotal[scheme], scheme),
            labels: labels.map((l) => ({ ...label(l.layer, l.id), ...schemeScore(this.schemeByLabel.get(keyOf(l.layer, l.id))?.[scheme] ?? noCounts(), scheme) })),
          },
        ]),
      ) as Record<SchemeName, SchemeReport>,
      perDocument: this.perDocument.map((d) => ({ ...d, zeroDivision: [...d.zeroDivision] })),
    };
  }
}

/**
 * Scores a model's labels against gold labels, per label, as seqeval/conlleval do in `strict` mode.
 *
 * @param gold - the gold spans of every document (the reviewer copy, less CONFLICT, rejected and
 * deleted labels; see `goldSpans`)
 * @param predicted - the model's spans (the copy of the job's `labelerEmail`)
 * @param options - match mode (default `strict`), layer, confidence floor, label names
 * @returns per label: gold, predicted, TP, FP, FN, precision, recall, F1; micro, macro and
 * weighted averages; the confusion table; the gold spans used per `labeledBy`; the four
 * SemEval-2013 9.1 schemes per label and overall; each document's counts
 * @remarks Spans pair only within one document (`documentId`) and one layer. A label is known
 * by its id and layer. A figure with nothing to divide by is 0 and named in `zeroDivision`.
 * @example
 * ```ts
 * const report = scoreLabels(gold, predicted, { match: 'overlap' });
 * for (const l of report.labels) console.log(l.name, l.precision, l.recall, l.f1);
 * ```
 */
export function scoreLabels(gold: readonly EvalSpan[], predicted: readonly EvalSpan[], options: ScoreOptions = {}): ScoreReport {
  const docs = new Map<string, { gold: EvalSpan[]; predicted: EvalSpan[] }>();
  const doc = (id: string) => {
    let d = docs.get(id);
    if (!d) docs.set(id, (d = { gold: [], predicted: [] }));
    return d;
  };
  for (const s of gold) doc(s.documentId).gold.push(s);
  for (const s of predicted) doc(s.documentId).predicted.push(s);
  const scorer = new Scorer(options);
  for (const [id, d] of docs) scorer.add(d.gold, d.predicted, id);
  return scorer.report();
}
