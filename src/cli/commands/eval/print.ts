import { comparisonWarnings, markdownReport, textReport } from '../../../eval/index.js';
import type { EvalReport } from '../../../eval/index.js';
import type { Printer } from '../../io.js';
import type { EvalOutput } from './runner.js';

/**
 * Prints the outcome of `labelkit eval`, drawn by the eval room (`textReport`, `markdownReport`;
 * JSON is the report itself, which the printer writes redacted).
 *
 * @param printer - where to print
 * @param report - the report
 * @param output - what the flags asked for, read once by `runEval`: `format` (`text` the tables
 * with the intervals or the comparison, `markdown` the table or the comparison, `json` the report
 * as one JSON object, see docs/evaluation.md), `scheme` (the SemEval-2013 9.1 scheme whose table
 * follows the per-label table, text only), `failUnder` (to say on stderr when micro F1 is under it)
 */
export function printEvalReport(printer: Printer, report: EvalReport, output: Pick<EvalOutput, 'format' | 'scheme' | 'failUnder'>): void {
  if (output.format === 'json') printer.json(report);
  else for (const line of output.format === 'markdown' ? markdownReport(report) : textReport(report, output.scheme)) printer.out(line);
  for (const line of comparisonWarnings(report)) printer.err(`labelkit: ${line}`);
  if (output.failUnder !== undefined && report.micro.f1 < output.failUnder) {
    printer.err(`labelkit: micro F1 ${report.micro.f1.toFixed(3)} is under --fail-under ${output.failUnder}`);
  }
}
