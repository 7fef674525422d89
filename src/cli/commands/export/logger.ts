import { LEFT_OUT_REASONS } from '../../../export/index.js';
import type { ExportSummary, LeftOutReason } from '../../../export/index.js';
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
