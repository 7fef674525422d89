import { matchSpans, sortSpans, tokenUnits } from '../../eval/matchSpans.js';
import { ConfidenceCollector } from '../../eval/prCurve.js';
import type { ConfidenceCurves } from '../../eval/prCurve.js';
import { Scorer } from '../../eval/scoreLabels.js';
import { CONFUSION_CAPTION, CONFUSION_CORNER, MATCH_MODES } from '../../eval/types.js';
import type { EvalLabel, EvalSpan, Figures, MatchMode, ScoreReport } from '../../eval/types.js';
import type { EmulatorStore } from '../store.js';
import { Tokens } from '../tokens.js';
import type { JobSource, LabeledCopy, StoredProject } from '../types.js';
import { escapeHtml } from './html.js';
import { curvesHtml } from './prCurveSvg.js';

/** How a span of the text fared: found (true positive), false positive, or missed gold. */
type Outcome = 'tp' | 'fp' | 'fn';

/** A span of one line to mark, in characters of the line. */
interface OutcomeMark {
  start_char: number;
  end_char: number;
  /** The span's label name. */
  label: string;
  outcome: Outcome;
  /** For a pair of different labels: the other side's label (what gold said, or what the model said). */
  other?: string;
}

/** Why a gold label was left out, as `labelkit eval`'s `notGold` says (that order: deleted first). */
type LeftOut = 'conflict' | 'rejected' | 'deleted';

/** The job's copy scored against the reviewer copy: the report, and per document and line the spans to mark. */
interface CopyEvaluation {
  report: ScoreReport;
  /** The precision-recall curves over the model's confidences. */
  curves: ConfidenceCurves;
  /** Labels of the reviewer copy left out of gold, by reason. */
  goldExcluded: Record<LeftOut, number>;
  /** document id → line → marks. */
  marks: Map<string, Map<number, OutcomeMark[]>>;
}

const itemKey = (layer: number, name: string) => `${layer}\u0000${name.toLowerCase()}`;

/** A span as the scoring reads it, with where it is in the line's characters. */
type LineSpan = EvalSpan & { name: string };

/** The spans of one copy per document, as the scoring reads them (gold: less CONFLICT and deleted). */
function spansOf(copy: LabeledCopy, items: ReadonlyMap<string, { id: string; name: string }>, gold: boolean, tokens: Tokens, leftOut?: Record<LeftOut, number>): Map<string, LineSpan[]> {
  const byDoc = new Map<string, LineSpan[]>();
  for (const doc of copy.documents) {
    const spans: LineSpan[] = [];
    for (const line of doc.lines) {
      const count = tokens.cut(line.text);
      // The token starting (ending) at a character, by the tokens' own binary search; -1 for none.
      const tokenAt = (char: number, end: boolean) => {
        const t = tokens.firstEndingAfter(end ? char - 1 : char);
        return t < count && (end ? tokens.end(t) : tokens.start(t)) === char ? t : -1;
      };
      for (const e of line.entities) {
        // Not gold, as labelkit eval's notGold says: deleted, an unresolved CONFLICT, or rejected by the reviewer.
        const why: LeftOut | null = e.deleted === true ? 'deleted' : gold && e.labeledBy === 'CONFLICT' ? 'conflict' : gold && e.rejected === true ? 'rejected' : null;
        if (why) {
          if (leftOut) leftOut[why]++;
          continue;
        }
        const [first, last] = [tokenAt(e.start_char, false), tokenAt(e.end_char, true)];
        if (first < 0 || last < 0) continue; // the store keeps whole tokens; never here
        const item = items.get(itemKey(e.layer, e.label));
        spans.push({
          documentId: doc.id,
          start: { sentenceId: line.id, tokenId: first, charId: 0 },
          end: { sentenceId: line.id, tokenId: last, charId: tokens.end(last) - tokens.start(last) - 1 },
          labelId: item?.id ?? e.label,
          layer: e.layer,
          labeledBy: e.labeledBy ?? (gold ? 'REVIEWER' : 'LABELER'),
          confidenceScore: e.confidence_score ?? null,
          name: item?.name ?? e.label,
        });
      }
    }
    byDoc.set(doc.id, spans);
  }
  return byDoc;
}

/**
 * Scores the copy a job wrote against the project's reviewer copy, as `labelkit eval` does.
 *
 * @param store - the data
 * @param project - the project
 * @param source - the job's copy (a LABELER copy; a REVIEWER job wrote into the gold itself)
 * @param match - the match mode
 * @returns the report and the marks, or undefined when there is nothing to compare (no gold, or
 * the job wrote into the reviewer copy)
 */
export function evaluateCopy(store: EmulatorStore, project: StoredProject, source: JobSource, match: MatchMode): CopyEvaluation | undefined {
  if (source.role !== 'LABELER') return undefined;
  const copies = store.labelsOf(project.id);
  const reviewer = copies.find((c) => c.role === 'REVIEWER');
  const model = copies.find((c) => c.role === 'LABELER' && c.labelerEmail === source.labelerEmail);
  if (!reviewer || !reviewer.documents.some((d) => d.lines.length > 0)) return undefined;
  const tokens = new Tokens();
  // A name is bound within the set whose index is the span's layer (not the set at that position), first item first.
  const items = new Map<string, { id: string; name: string }>();
  for (const set of project.labelSets) for (const l of set.labels) if (!items.has(itemKey(set.index, l.name))) items.set(itemKey(set.index, l.name), l);
  const goldExcluded: Record<LeftOut, number> = { conflict: 0, rejected: 0, deleted: 0 };
  const gold = spansOf(reviewer, items, true, tokens, goldExcluded);
  const predicted = model ? spansOf(model, items, false, tokens) : new Map<string, LineSpan[]>();
  const labels: EvalLabel[] = project.labelSets.flatMap((set) => set.labels.map((l) => ({ id: l.id, layer: set.index, name: l.name })));
  const scorer = new Scorer({ match, labels });
  const curves = new ConfidenceCollector();
  const marks = new Map<string, Map<number, OutcomeMark[]>>();
  for (const doc of project.documents) {
    const g = gold.get(doc.id) ?? [];
    const p = predicted.get(doc.id) ?? [];
    curves.add(scorer.add(g, p));
    const lines = new Map<number, OutcomeMark[]>();
    const add = (span: EvalSpan, outcome: Outcome, other?: EvalSpan) => {
      const text = doc.lines[span.start.sentenceId] ?? '';
      tokens.cut(text);
      const mark: OutcomeMark = { start_char: tokens.start(span.start.tokenId), end_char: tokens.end(span.end.tokenId), label: (span as LineSpan).name, outcome };
      if (other) mark.other = (other as LineSpan).name;
      const list = lines.get(span.start.sentenceId) ?? [];
      list.push(mark);
      lines.set(span.start.sentenceId, list);
    };
    for (const layer of new Set([...g, ...p].map((s) => s.layer))) {
      const units = (spans: LineSpan[]) => {
        const own = spans.filter((s) => s.layer === layer);
        return match === 'token' ? tokenUnits(own) : sortSpans(own);
      };
      const m = matchSpans(units(g), units(p), match);
      for (const [, pred] of m.found) add(pred, 'tp');
      for (const [gs, pred] of m.confused) {
        add(pred, 'fp', gs);
        add(gs, 'fn', pred);
      }
      for (const s of m.missed) add(s, 'fn');
      for (const s of m.spurious) add(s, 'fp');
    }
    marks.set(doc.id, lines);
  }
  const report = scorer.report();
  return { report, curves: curves.curves(report.labels), goldExcluded, marks };
}

/** Styles of the evaluation (the page's CSP allows inline styles, no script). */
const EVAL_STYLE = `<style>
.o-tp{background:#dcfce7;border-bottom:3px solid #16a34a} .o-fp{background:#fee2e2;border-bottom:3px solid #dc2626}
.o-fn{background:#fef3c7;border-bottom:3px dashed #d97706}
mark.o{color:inherit;border-radius:3px;padding:0 .1rem}
.otag{font:600 10px ui-monospace,monospace;border-radius:3px;padding:0 .25rem;margin:0 .2rem 0 .1rem;vertical-align:.15rem;color:#fff}
.otag.o-tp{background:#16a34a} .otag.o-fp{background:#dc2626} .otag.o-fn{background:#d97706}
.missed{color:#92400e;font-size:.9rem} .missed .k{font:12px ui-monospace,monospace;margin-right:.4rem}
table.scores td.num{text-align:right;font-variant-numeric:tabular-nums} .zero{color:#b45309}
.curves{display:flex;flex-wrap:wrap;gap:.75rem} .curves figure{margin:0} .curves figcaption{font-size:.8rem;text-align:center}
.leftout{font-size:.9rem} #evaluation h2{margin-top:.2rem}
</style>`;

const OUTCOME_WORD: Record<Outcome, string> = { tp: 'true positive', fp: 'false positive', fn: 'missed' };
/** A figure with three decimals, as the eval report writes it. */
const threePlaces = (n: number) => n.toFixed(3);

/**
 * Renders one line with spans marked by outcome, cut at every boundary where spans overlap.
 *
 * @param text - the line (escaped here)
 * @param marks - the spans to mark
 * @returns HTML: `<mark class="o o-tp" data-outcome="tp" data-label="PERSON">`, then a small tag
 * after each span's end
 */
export function outcomeLine(text: string, marks: readonly OutcomeMark[]): string {
  const live = marks.filter((m) => m.start_char < m.end_char && m.start_char >= 0 && m.end_char <= text.length);
  if (live.length === 0) return escapeHtml(text);
  const cuts = [...new Set([0, text.length, ...live.flatMap((m) => [m.start_char, m.end_char])])].sort((a, b) => a - b);
  let html = '';
  for (let i = 0; i < cuts.length - 1; i++) {
    const [a, b] = [cuts[i]!, cuts[i + 1]!];
    const piece = escapeHtml(text.slice(a, b));
    const covering = live.filter((m) => m.start_char <= a && m.end_char >= b);
    if (covering.length === 0) html += piece;
    else {
      const m = covering[0]!;
      const title = covering.map((c) => `${c.label}: ${OUTCOME_WORD[c.outcome]}${c.other ? ` (${c.outcome === 'fp' ? 'gold' : 'model'}: ${c.other})` : ''}`).join('; ');
      html += `<mark class="o o-${m.outcome}" data-outcome="${m.outcome}" data-label="${escapeHtml(covering.map((c) => c.label).join(' '))}" title="${escapeHtml(title)}">${piece}</mark>`;
    }
    for (const m of live.filter((x) => x.end_char === b)) html += `<span class="otag o-${m.outcome}">${escapeHtml(m.label)}${m.outcome === 'tp' ? ' ✓' : m.outcome === 'fp' ? ' ✗' : ' missed'}</span>`;
  }
  return html;
}

/** Three horizontal bars (precision, recall, F1) as inline SVG, each with its value. */
function bars(f: Figures): string {
  const rows = (['precision', 'recall', 'f1'] as const).map((k, i) => {
    const w = Math.round(f[k] * 120);
    const color = ['#2563eb', '#7c3aed', '#0f766e'][i];
    return `<text x="0" y="${i * 14 + 10}" font-size="10">${k === 'f1' ? 'F1' : k[0]!.toUpperCase()}</text><rect data-figure="${k}" data-value="${threePlaces(f[k])}" x="14" y="${i * 14 + 2}" width="${w}" height="10" fill="${color}"/><text x="${w + 18}" y="${i * 14 + 10}" font-size="10">${threePlaces(f[k])}${f.zeroDivision.includes(k) ? '*' : ''}</text>`;
  });
  return `<svg width="190" height="42" viewBox="0 0 190 42" role="img" aria-label="precision ${threePlaces(f.precision)}, recall ${threePlaces(f.recall)}, F1 ${threePlaces(f.f1)}">${rows.join('')}</svg>`;
}

/** Why each kind of gold label is left out, in the words of `labelkit eval`'s report. */
const LEFT_OUT_WHY: Record<LeftOut, [word: string, why: string]> = {
  conflict: ['CONFLICT', 'a disagreement nobody settled'],
  rejected: ['rejected', 'by the reviewer'],
  deleted: ['deleted', 'no longer a label'],
};

/**
 * The gold labels left out of the scoring, by reason, beside the figures (as the CLI's
 * "left out:" line), so that they are not read as the model's mistakes.
 *
 * @param leftOut - the counts by reason
 * @returns HTML
 */
function leftOutHtml(leftOut: Record<LeftOut, number>): string {
  const total = leftOut.conflict + leftOut.rejected + leftOut.deleted;
  const parts = (['conflict', 'rejected', 'deleted'] as const).map((k) => `<span data-left-out="${k}">${leftOut[k]} ${LEFT_OUT_WHY[k][0]}</span> <span class="muted">(${LEFT_OUT_WHY[k][1]})</span>`);
  return `<p class="leftout" id="gold-left-out" data-total="${total}">Gold labels left out: ${parts.join(', ')}${total > 0 ? ' — not scored: the model is not counted wrong for them' : ''}.</p>`;
}

/** The links of a results page to itself with another match mode or view. */
type ResultsLink = (options: { match?: MatchMode; view?: 'labels' | 'outcomes' }) => string;

/**
 * The figures of the first screen of a results page: micro precision, recall and F1 with the
 * counts behind them, the gold left out, and links to the other match modes and views.
 *
 * @param report - the scores
 * @param view - how the page marks the text now
 * @param link - the page's URL with another match mode or view
 * @param goldExcluded - the gold labels left out, by reason (named beside the figures)
 * @returns HTML
 */
export function evalFiguresHtml(report: ScoreReport, view: 'labels' | 'outcomes', link: ResultsLink, goldExcluded?: Record<LeftOut, number>): string {
  const m = report.micro;
  const modes = MATCH_MODES.map((mode) => (mode === report.match ? `<strong>${mode}</strong>` : `<a href="${escapeHtml(link({ match: mode }))}" data-match-link="${mode}">${mode}</a>`)).join(' · ');
  const views = (['labels', 'outcomes'] as const)
    .map((v) => (v === view ? `<strong>${v === 'labels' ? 'by label' : 'by outcome'}</strong>` : `<a href="${escapeHtml(link({ view: v }))}" data-view-link="${v}">${v === 'labels' ? 'by label' : 'by outcome'}</a>`))
    .join(' · ');
  return `${EVAL_STYLE}<p class="figures"><strong>Model vs gold</strong> <span class="muted small">(this copy against the reviewer copy, as <code>labelkit eval</code> scores it)</span><br>
micro precision <strong data-micro="precision">${threePlaces(m.precision)}</strong> · recall <strong data-micro="recall">${threePlaces(m.recall)}</strong> · F1 <strong data-micro="f1">${threePlaces(m.f1)}</strong> <span class="muted small">(${m.tp} found, ${m.fp} false positive${m.fp === 1 ? '' : 's'}, <span data-missed-count>${m.fn}</span> missed of ${m.gold} gold)</span></p>
${goldExcluded ? leftOutHtml(goldExcluded) : ''}
<p class="small">match: ${modes} · text marked: ${views}${view === 'outcomes' ? ' — <mark class="o o-tp">found</mark> <mark class="o o-fp">false positive</mark> <mark class="o o-fn">missed gold</mark>' : ' — <mark class="o o-fn">missed gold</mark> on a row under its line'}</p>`;
}

/**
 * The evaluation's details, below the first screen of a results page: per-label P/R/F1 with inline
 * SVG bars (`#scores`), the averages, the confusion table (`#confusion`) and the precision-recall
 * curves (`#curves`).
 *
 * @param report - the scores
 * @param curves - the precision-recall curves to draw, if any
 * @returns HTML
 */
export function evalDetailsHtml(report: ScoreReport, curves?: ConfidenceCurves): string {
  const m = report.micro;
  const name = (l: EvalLabel | null) => escapeHtml(l === null ? '(none)' : (l.name ?? l.id));
  const rows = report.labels.map(
    (l) => `<tr data-label="${escapeHtml(l.name ?? l.id)}"><td>${name(l)}</td><td class="num">${l.gold}</td><td class="num">${l.predicted}</td><td class="num" data-tp>${l.tp}</td><td class="num" data-fp>${l.fp}</td><td class="num" data-fn>${l.fn}</td><td>${bars(l)}</td></tr>`,
  );
  const avg = (label: string, f: Figures) => `<tr data-average="${label}"><td>${label} avg</td><td colspan="5"></td><td>${bars(f)}</td></tr>`;
  const key = (l: EvalLabel | null) => (l === null ? '' : `${l.layer}\u0000${l.id}`);
  const axis: (EvalLabel | null)[] = [...report.labels, null];
  const count = new Map(report.confusion.map((c) => [`${key(c.gold)}\u0001${key(c.predicted)}`, c.count]));
  const confusion = axis.map((g) => `<tr><th>${name(g)}</th>${axis.map((p) => `<td class="num">${g === null && p === null ? '' : (count.get(`${key(g)}\u0001${key(p)}`) ?? 0)}</td>`).join('')}</tr>`);
  const marked = [...report.labels, m, report.macro, report.weighted].some((f) => f.zeroDivision.length > 0);
  return `<section id="evaluation" class="box" data-match="${report.match}">
<h2 id="scores">Per label <span class="muted small">(match ${report.match})</span></h2>
<table class="scores"><tr><th>label</th><th>gold</th><th>predicted</th><th>TP</th><th>FP</th><th>FN</th><th>precision · recall · F1</th></tr>
${rows.join('\n')}
${avg('micro', m)}${avg('macro', report.macro)}${avg('weighted', report.weighted)}</table>
${marked ? '<p class="small zero">* nothing to divide by: reported as 0</p>' : ''}
<h3 id="confusion">Confusion <span class="muted small">(${escapeHtml(CONFUSION_CAPTION)})</span></h3>
<table class="confusion"><tr><th>${escapeHtml(CONFUSION_CORNER)}</th>${axis.map((p) => `<th>${name(p)}</th>`).join('')}</tr>${confusion.join('')}</table>
${curves ? curvesHtml(curves) : ''}
</section>`;
}
