import { LEFT_OUT_REASONS } from '../../../export/index.js';
import type { ExportSummary, LeftOutReason, ReleaseDropped, ReleaseSummary } from '../../../export/index.js';
import type { Printer } from '../../io.js';

/** How the summary names each reason a label was left out (or changed). */
const REASON: Record<LeftOutReason, string> = {
  deleted: 'deleted',
  conflict: 'in conflict',
  rejected: 'rejected',
  otherLayer: 'of another label set',
  unknownLabel: 'of no label in the set',
  multiLine: 'over two lines',
  hiddenLine: 'on a hidden or deleted line',
  nested: 'nested',
  overlapping: 'overlapping',
  duplicate: 'duplicates',
  snapped: 'widened to whole tokens (kept)',
};

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** What the filters dropped, as the summary's `dropped:` line and the line of ids in no project (none: empty). */
function droppedLines(dropped: ReleaseDropped): string[] {
  const parts = [
    ...Object.entries(dropped.labels).map(([name, n]) => `${n} ${name} (--labels)`),
    ...(dropped.documents.status > 0 ? [`${plural(dropped.documents.status, 'document')} (--status)`] : []),
    ...(dropped.documents.notListed > 0 ? [`${plural(dropped.documents.notListed, 'document')} (--documents)`] : []),
  ];
  return [...(parts.length > 0 ? [`  dropped: ${parts.join(', ')}`] : []), ...(dropped.unknownIds > 0 ? [`  ${plural(dropped.unknownIds, 'id')} of --documents in no project`] : [])];
}

/**
 * The summary of `labelkit export` as text lines.
 *
 * @param summary - what the export wrote
 * @returns the lines
 */
export function formatExportSummary(summary: ExportSummary): string[] {
  const copy = summary.copy === 'reviewer' ? 'the reviewer copy' : `the copy of ${summary.copy}`;
  const projects = summary.projects.length === 1 ? `project ${summary.projects[0]}` : plural(summary.projects.length, 'project');
  const lines = [
    `Exported ${plural(summary.documents, 'document')} (${plural(summary.lines, 'line')}, ${plural(summary.tokens, 'token')}) of ${projects}, ${copy}, label set ${summary.layer}, as ${summary.format}${summary.resumedAt === null ? '' : ` (went on after document ${summary.resumedAt})`}`,
    `  to ${summary.out}${summary.tagsFile ? ` (tag list: ${summary.tagsFile})` : ''}`,
    `  spans: ${Object.entries(summary.spans).map(([label, n]) => `${label} ${n}`).join(', ') || 'none'}`,
  ];
  const left = LEFT_OUT_REASONS.filter((r) => summary.leftOut.labels[r] > 0).map((r) => `${summary.leftOut.labels[r]} ${REASON[r]}`);
  const { hidden, deleted } = summary.leftOut.lines;
  const lineText = [hidden > 0 ? `${plural(hidden, 'hidden line')}` : '', deleted > 0 ? `${plural(deleted, 'deleted line')}` : ''].filter(Boolean);
  lines.push(`  left out: ${[...(left.length > 0 ? [`labels: ${left.join(', ')}`] : []), ...lineText].join('; ') || 'nothing'}`);
  if (summary.dropped) lines.push(...droppedLines(summary.dropped));
  lines.push(`  sha256 ${summary.sha256} (${plural(summary.bytes, 'byte')})`);
  return lines;
}

/**
 * Prints the outcome of `labelkit export`.
 *
 * @param printer - where to print
 * @param summary - what the export wrote
 * @param json - the summary as one JSON object
 */
export function printExportSummary(printer: Printer, summary: ExportSummary, json: boolean): void {
  if (json) printer.json(summary);
  else for (const line of formatExportSummary(summary)) printer.out(line);
}

/**
 * The summary of a release (or a delta, or an applied delta) as text lines.
 *
 * @param manifest - the release's manifest
 * @param out - the folder written
 * @param resumedAt - the documents an interrupted run had written, when this one went on from it
 * @returns the lines
 */
export function formatRelease(manifest: ReleaseSummary, out: string, resumedAt: number | null = null): string[] {
  const { options } = manifest;
  const copy = options.copy === 'reviewer' ? 'the reviewer copy' : `the copy of ${options.copy}`;
  const projects = options.projects.length === 1 ? `project ${options.projects[0]}` : plural(options.projects.length, 'project');
  const lines = [`${manifest.delta ? 'Wrote the delta of a release of' : 'Released'} ${plural(documentCount(manifest), 'document')} of ${projects}, ${copy}, label set ${options.layer}, as ${options.format}, to ${out}${resumedAt === null ? '' : ` (went on after document ${resumedAt})`}`];
  if (manifest.delta) {
    const { added, changed, removed } = manifest.delta;
    lines.push(`  since the release of manifest ${manifest.delta.since.slice(0, 12)}…: ${added.length} added, ${changed.length} changed, ${removed.length} removed`);
  }
  for (const f of manifest.files) lines.push(`  ${f.split}: ${plural(f.documents, 'document')}, ${plural(f.lines, 'line')}, ${plural(f.tokens, 'token')}; ${f.path} sha256 ${f.sha256}`);
  lines.push(...droppedLines(manifest.dropped));
  const left = LEFT_OUT_REASONS.filter((r) => manifest.leftOut.labels[r] > 0).map((r) => `${manifest.leftOut.labels[r]} ${REASON[r]}`);
  lines.push(`  left out: ${left.length > 0 ? `labels: ${left.join(', ')}` : 'nothing'}`);
  return lines;
}

/** A release's documents: its files' (each document is in one file). */
const documentCount = (manifest: ReleaseSummary): number => manifest.files.reduce((n, f) => n + f.documents, 0);

/**
 * Prints the outcome of a release: its lines, or with `json` the manifest without its documents.
 *
 * @param printer - where to print
 * @param manifest - the release's manifest
 * @param out - the folder written
 * @param json - one JSON object
 * @param resumedAt - the documents an interrupted run had written, when this one went on from it
 */
export function printRelease(printer: Printer, manifest: ReleaseSummary, out: string, json: boolean, resumedAt: number | null = null): void {
  // apply-delta gives the whole manifest, a release its summary: the document list is never printed.
  const { documents: _listed, ...rest } = manifest as ReleaseSummary & { documents?: unknown };
  if (json) printer.json({ version: 1, out, documents: documentCount(manifest), resumedAt, ...rest });
  else for (const line of formatRelease(manifest, out, resumedAt)) printer.out(line);
}
