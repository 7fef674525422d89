import type { EmulatorStore } from '../store.js';
import type { JobSource, StoredJob, StoredProject, StoredSpan } from '../types.js';
import { MATCH_MODES } from '../../eval/types.js';
import type { MatchMode } from '../../eval/types.js';
import { evalDetailsHtml, evalFiguresHtml, evaluateCopy, outcomeLine } from './evalPanel.js';
import { highlightLine } from './highlightLine.js';
import { escapeHtml, htmlPage } from './html.js';
import { FINAL_STATUSES, jobErrorsHtml, jobStatusHtml } from './jobPanel.js';
import { labelLegendHtml, labelLooks } from './labelLegend.js';

/** Most lines one results page shows (a data folder may hold very large projects). */
const MAX_PAGE_LINES = 5000;

/** Most missed gold spans the list under the summary names (the text shows every one). */
const MAX_MISSED_LISTED = 50;

/** Styles of the first screen and the missed gold list (the page's CSP allows inline styles, no script). */
const SUMMARY_STYLE = `<style>
.summary p{margin:.3rem 0} nav.jump{margin-top:.4rem;padding-top:.4rem;border-top:1px solid #e2e8f0}
.missed-list{columns:2;margin:.3rem 0;padding-left:1.2rem} .missed-list li{break-inside:avoid}
</style>`;

/** The anchor of a line of the page: by the document's position, so no id of the data is an HTML id. */
const lineAnchor = (docIndex: number, line: number) => `d${docIndex}-l${line}`;

/** What a results page shows: a project, and optionally the job whose copy to show. */
interface ResultsPageInput {
  store: EmulatorStore;
  project: StoredProject;
  /** The job to show; without it, the project's latest job. @defaultValue the latest job */
  jobId?: string;
  /** How the job's copy is scored against gold (when the project has gold). @defaultValue 'strict' */
  match?: MatchMode;
  /**
   * How the text is marked: `labels` (each span in its label's colour) or, when the copy is
   * scored, `outcomes` (found, false positive, missed). @defaultValue 'labels'
   */
  view?: ResultsView;
}

/** How a results page marks the text. */
type ResultsView = 'labels' | 'outcomes';

/**
 * The jobs of a project, newest first.
 *
 * @param store - the data
 * @param projectId - the project
 * @returns each job with the copy it labels
 * @remarks Only jobs created with a source (every job of `autoLabelTokenBasedProject`) are listed.
 * @example
 * ```ts
 * const latest = jobsOfProject(store, 'demo-project')[0]?.job;
 * ```
 */
function jobsOfProject(store: EmulatorStore, projectId: string): { job: StoredJob; source: JobSource }[] {
  const out: { job: StoredJob; source: JobSource }[] = [];
  for (const job of store.jobs.values()) {
    const source = store.jobSource(job.id);
    if (source?.projectId === projectId) out.push({ job, source });
  }
  return out.reverse();
}

/**
 * The URL path of a project's results page, optionally for one job.
 *
 * @param projectId - the project
 * @param jobId - the job, or undefined for the project's latest job
 * @param options - the match mode and the view, when not the defaults
 * @returns the path, its parts percent-encoded
 * @example
 * ```ts
 * resultsPath('demo-project', 'job-1'); // '/emulator/projects/demo-project/results?job=job-1'
 * ```
 */
export function resultsPath(projectId: string, jobId?: string, options: { match?: MatchMode; view?: ResultsView } = {}): string {
  const base = `/emulator/projects/${encodeURIComponent(projectId)}/results`;
  const query = [jobId === undefined ? '' : `job=${encodeURIComponent(jobId)}`, options.match ? `match=${options.match}` : '', options.view ? `view=${options.view}` : ''].filter(Boolean).join('&');
  return query ? `${base}?${query}` : base;
}

/**
 * A `match` query parameter as a match mode.
 *
 * @param value - the parameter, or null
 * @returns the mode, or undefined for none or an unknown one (the page then scores strictly)
 */
export function parseMatch(value: string | null): MatchMode | undefined {
  return MATCH_MODES.find((m) => m === value);
}

/**
 * A `view` query parameter.
 *
 * @param value - the parameter, or null
 * @returns the view, or undefined for none or an unknown one (the page then marks labels)
 */
export function parseView(value: string | null): ResultsView | undefined {
  return value === 'labels' || value === 'outcomes' ? value : undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A gold span the model missed, where it is on the page. */
interface MissedSpan {
  docIndex: number;
  docName: string;
  line: number;
  text: string;
  label: string;
  /** What the model put there instead (another label on a span it met), if anything. */
  other: string | undefined;
}

/** The gold spans the model missed, in document, line and character order. */
function missedGold(project: StoredProject, marks: ReadonlyMap<string, ReadonlyMap<number, readonly { start_char: number; end_char: number; label: string; outcome: string; other?: string }[]>>): MissedSpan[] {
  const out: MissedSpan[] = [];
  for (const [docIndex, doc] of project.documents.entries()) {
    const lines = marks.get(doc.id);
    if (!lines) continue;
    for (const line of [...lines.keys()].sort((a, b) => a - b)) {
      for (const m of [...lines.get(line)!].sort((a, b) => a.start_char - b.start_char || a.end_char - b.end_char)) {
        if (m.outcome === 'fn') out.push({ docIndex, docName: doc.name, line, text: (doc.lines[line] ?? '').slice(m.start_char, m.end_char), label: m.label, other: m.other });
      }
    }
  }
  return out;
}

/** The list of missed gold under the summary, each linking to its line. */
function missedGoldHtml(missed: readonly MissedSpan[]): string {
  if (missed.length === 0) return '<section id="missed" class="box small"><strong>Missed gold:</strong> none — the model met every gold span.</section>';
  const items = missed.slice(0, MAX_MISSED_LISTED).map(
    (m) =>
      `<li data-missed-gold><a href="#${lineAnchor(m.docIndex, m.line)}">${escapeHtml(m.docName)}:${m.line}</a> <mark class="o o-fn">${escapeHtml(m.text)}</mark> ${escapeHtml(m.label)}${m.other ? ` <span class="muted">(the model said ${escapeHtml(m.other)})</span>` : ''}</li>`,
  );
  const more = missed.length > MAX_MISSED_LISTED ? `<p class="muted">… and ${missed.length - MAX_MISSED_LISTED} more, each on a row under its line below.</p>` : '';
  return `<section id="missed" class="box small"><strong>Missed gold (${missed.length})</strong> <span class="muted">— gold spans the model did not find, as this match mode scores them</span><ul class="missed-list">${items.join('')}</ul>${more}</section>`;
}

function spansOf(store: EmulatorStore, project: StoredProject, source: JobSource | undefined): Map<string, (StoredSpan[] | undefined)[]> {
  const byDoc = new Map<string, (StoredSpan[] | undefined)[]>();
  if (!source) return byDoc;
  const copy = store.labelsOf(project.id).find((c) => c.labelerEmail === source.labelerEmail && c.role === source.role);
  for (const doc of copy?.documents ?? []) {
    const lines: (StoredSpan[] | undefined)[] = [];
    for (const line of doc.lines) lines[line.id] = line.entities;
    byDoc.set(doc.id, lines);
  }
  return byDoc;
}

/**
 * Renders the results page of a project: first a summary that fits the first screen (the job's
 * status, the model's micro figures against gold, links down the page), the gold the model
 * missed, the job's details, the evaluation's details, then a legend (the label tree) and every
 * document line by line with its labelled spans highlighted in the label set's colours.
 *
 * @param input - the store, the project and optionally the job
 * @returns the HTML document, and whether the job still runs (the page then reloads itself)
 * @remarks Labels are stored per copy (labeler and role), so the page shows the copy the job
 * wrote to: a later job on the same copy replaces the lines it labels. When the project has gold
 * labels (its reviewer copy) and the job wrote a labeler's copy, the page scores that copy as
 * `labelkit eval` does (`match`: strict, overlap or token): micro figures, per-label precision,
 * recall and F1 as inline SVG bars, the confusion table, the precision-recall curves (axes 0 to 1,
 * named), the gold it missed (`fn`) listed under the summary and on a row under its line in both
 * views, and with `view: 'outcomes'` each line with the model's spans marked found
 * (`data-outcome="tp"`) or false positive (`fp`). Every text is escaped;
 * job errors pass through the shared redactor. Shows at most {@link MAX_PAGE_LINES} lines.
 * @example
 * ```ts
 * const { html } = resultsPage({ store, project: store.projects.get('demo-project')! });
 * ```
 */
export function resultsPage(input: ResultsPageInput): { html: string; status: number } {
  const { store, project } = input;
  const jobs = jobsOfProject(store, project.id);
  const chosen = input.jobId === undefined ? jobs[0] : jobs.find((j) => j.job.id === input.jobId);
  if (input.jobId !== undefined && !chosen) {
    const body = `<p>Project <strong>${escapeHtml(project.name)}</strong> has no job with the id <code>${escapeHtml(input.jobId)}</code>.</p><p><a href="${escapeHtml(resultsPath(project.id))}">All results of this project</a></p>`;
    return { html: htmlPage({ title: 'No such job', body }), status: 404 };
  }
  const lookOf = labelLooks(project.labelSets);
  const match = input.match ?? 'strict';
  const evaluation = chosen ? evaluateCopy(store, project, chosen.source, match) : undefined;
  const spans = spansOf(store, project, chosen?.source);
  const counts = new Map<string, number>();
  for (const lines of spans.values()) for (const line of lines) for (const s of line ?? []) counts.set(s.label.toLowerCase(), (counts.get(s.label.toLowerCase()) ?? 0) + 1);

  const view = evaluation ? (input.view ?? 'labels') : 'labels';
  const missed = evaluation ? missedGold(project, evaluation.marks) : [];
  const parts: string[] = [];
  // The first screen: what ran, how good it is, and links down to everything else.
  const summary: string[] = [`<p class="muted small">Project <code>${escapeHtml(project.id)}</code> · ${plural(project.documents.length, 'document')} · ${plural(project.lineCount, 'line')} · ${plural(project.labelSets.length, 'label set')}</p>`];
  if (chosen) {
    const { job, source } = chosen;
    const errors = job.errors.length > 0 ? ` · <a href="#job">${plural(job.errors.length, 'error')}</a>` : '';
    summary.push(`<p><strong>Job <code>${escapeHtml(job.id)}</code></strong> ${jobStatusHtml(job)} <span class="small muted">copy of <strong>${escapeHtml(source.labelerEmail)}</strong> (${escapeHtml(source.role)})${FINAL_STATUSES.has(job.status) ? '' : ' · this page reloads until the job ends'}</span>${errors}</p>`);
  } else {
    summary.push('<p>No job has run on this project yet. Start one with the client, the CLI (<code>labelkit auto-label</code>) or GraphiQL; this page then shows its labels.</p>');
  }
  if (evaluation) {
    const link = (options: { match?: MatchMode; view?: ResultsView }) =>
      resultsPath(project.id, chosen!.job.id, { match: options.match ?? match, view: options.view ?? view });
    summary.push(evalFiguresHtml(evaluation.report, view, link, evaluation.goldExcluded));
  }
  const jumps = [
    ...(evaluation ? [`<a href="#missed">missed gold (${missed.length})</a>`, '<a href="#scores">per label</a>', '<a href="#confusion">confusion</a>'] : []),
    ...(evaluation?.curves.micro ? ['<a href="#curves-heading">precision-recall curves</a>'] : []),
    ...(chosen ? ['<a href="#job">job details</a>'] : []),
    '<a href="#labels">labels</a>',
    `<a href="#documents">documents (${project.documents.length})</a>`,
  ];
  summary.push(`<nav class="jump small">On this page: ${jumps.join(' · ')}</nav>`);
  parts.push(`${SUMMARY_STYLE}<section id="summary" class="box summary">${summary.join('\n')}</section>`);
  if (evaluation) parts.push(missedGoldHtml(missed));
  if (chosen) {
    const { job, source } = chosen;
    parts.push(`<div class="box" id="job"><strong>Job <code>${escapeHtml(job.id)}</code></strong> ${jobStatusHtml(job)}
<div class="small muted">copy of <strong>${escapeHtml(source.labelerEmail)}</strong> (${escapeHtml(source.role)}) · started ${escapeHtml(job.createdAt)} · updated ${escapeHtml(job.updatedAt)}${FINAL_STATUSES.has(job.status) ? '' : ' · this page reloads until the job ends'}</div>
${jobErrorsHtml(job.errors)}</div>`);
    if (jobs.length > 1) {
      const links = jobs.map(({ job: j }) => (j === job ? `<strong>${escapeHtml(j.id)}</strong>` : `<a href="${escapeHtml(resultsPath(project.id, j.id))}">${escapeHtml(j.id)}</a> <span class="muted small">${escapeHtml(j.status)}</span>`));
      parts.push(`<p class="small">Jobs of this project: ${links.join(' · ')}</p>`);
    }
  }
  if (evaluation) parts.push(evalDetailsHtml(evaluation.report, evaluation.curves));
  parts.push(`<h2 id="labels">Labels</h2>${labelLegendHtml(project.labelSets, counts)}`);
  parts.push('<h2 id="documents">Documents</h2>');
  let shown = 0;
  for (const [docIndex, doc] of project.documents.entries()) {
    const lines = spans.get(doc.id) ?? [];
    const perLabel = new Map<string, number>();
    for (const line of lines) for (const s of line ?? []) perLabel.set(lookOf(s.label).name, (perLabel.get(lookOf(s.label).name) ?? 0) + 1);
    const total = [...perLabel.values()].reduce((a, b) => a + b, 0);
    const summary = [...perLabel].map(([name, n]) => `${escapeHtml(name)} ${n}`).join(', ');
    const items: string[] = [];
    const scored = evaluation?.marks.get(doc.id);
    for (let i = 0; i < doc.lines.length && shown < MAX_PAGE_LINES; i++, shown++) {
      const marks = scored?.get(i) ?? [];
      // The gold the model missed, on a row of its own under the line, in both views.
      const missedHere = marks.filter((m) => m.outcome === 'fn');
      const row = missedHere.length > 0 ? `<div class="missed" data-missed><span class="k">missed:</span>${outcomeLine(doc.lines[i]!, missedHere)}</div>` : '';
      // By label: each span in its label's colour; by outcome: the model's spans marked found or false positive.
      const text = view === 'outcomes' && scored ? outcomeLine(doc.lines[i]!, marks.filter((m) => m.outcome !== 'fn')) : highlightLine(doc.lines[i]!, lines[i] ?? [], lookOf);
      items.push(`<li id="${lineAnchor(docIndex, i)}" data-line="${i}"><span class="n">${i}</span><span class="t">${text}${row}</span></li>`);
    }
    const cut = items.length < doc.lines.length ? `<p class="muted small">… ${doc.lines.length - items.length} more lines not shown (a page shows at most ${MAX_PAGE_LINES} lines).</p>` : '';
    parts.push(`<section class="doc" data-document="${escapeHtml(doc.id)}" data-spans="${total}"><h3>${escapeHtml(doc.name)} <span class="muted small">(${escapeHtml(doc.id)}) · ${plural(doc.lines.length, 'line')} · <span data-count>${total}</span> span${total === 1 ? '' : 's'}${summary ? `: ${summary}` : ''}</span></h3>
<ol class="lines">${items.join('\n')}</ol>${cut}</section>`);
  }
  const running = chosen !== undefined && !FINAL_STATUSES.has(chosen.job.status);
  return { html: htmlPage({ title: `Results: ${project.name}`, body: parts.join('\n'), ...(running && { refreshSeconds: 1 }) }), status: 200 };
}
