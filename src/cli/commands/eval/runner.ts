import { createLabelingClient } from 'labelkit';
import { compareReports, evaluateProject, MATCH_MODES, SCHEMES, ScoringError } from '../../../eval/index.js';
import type { EvalReport, MatchMode, MistakeRow, SchemeName } from '../../../eval/index.js';
import { FileWriteError } from '../../../shared/fileWrites.js';
import { clientAuth, requireConnection, requireId } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import type { ActionContext } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';
import { copyProblem, labelerFlag, layerFlag } from '../../projectFlags.js';
import { checkErrorsFile, checkWritableFile, writeErrorsFile } from './errorsFile.js';
import { writeJsonReport } from './jsonOutFile.js';
import { checkCiFlags } from './ciFlags.js';
import type { CiFlags, CiOptions } from './ciFlags.js';

/** Flags of `labelkit eval`. */
export interface EvalFlags extends ConnectionFlags, CiFlags {
  project?: string;
  labeler?: string;
  match?: string;
  layer?: string;
  minConfidence?: string;
  failUnder?: string;
  /** One of {@link SCHEMES}: its table is printed too. */
  scheme?: string;
  /** A file (.csv, .ndjson or .jsonl) that receives every mistake of the model. */
  errors?: string;
  /** A file that receives the report as `--json` prints it, whatever `--format` prints. */
  jsonOut?: string;
}

/** What the flags of `labelkit eval` ask for besides the scoring, read once: the bootstrap, the baseline, the gates and the output. */
export interface EvalOutput extends CiOptions {
  /** `--fail-under`: exit 11 when micro F1 is under it. */
  failUnder?: number;
  /** `--scheme`: the scheme whose table the text report adds. */
  scheme?: SchemeName;
}

/** A number flag between 0 and 1, or a problem. */
function fraction(value: string | undefined, field: string, problems: UsageProblem[]): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    problems.push({ field, message: 'must be a number from 0 to 1, e.g. 0.8' });
    return undefined;
  }
  return n;
}

/**
 * Turns a label `--match token` cannot score into a problem of `--match`, and "no such copy" into
 * one of `--labeler` or `--project` ({@link copyProblem}).
 *
 * @param error - what the eval room threw
 * @returns a usage error, or the error unchanged
 */
function evalProblem(error: unknown): unknown {
  if (error instanceof ScoringError) return new CliUsageError([{ field: '--match', message: error.message }]);
  return copyProblem(error);
}

/**
 * Checks the flags of `labelkit eval`, then scores the model's labels of the project.
 *
 * @param flags - `--project`, `--labeler`, `--match`, `--layer`, `--min-confidence`, `--fail-under`,
 * `--scheme`, `--errors`, connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param onProgress - called after each document
 * @returns the report (with `intervals` under `--ci`, `comparison` under `--baseline`), the output
 * options, and the exit code: 0, {@link EXIT.f1BelowThreshold} when micro F1 is under
 * `--fail-under`, {@link EXIT.f1Dropped} when an F1 dropped more than `--max-drop` beyond noise
 * (this one first when both hold); with `--errors`, how many mistakes were written there (the
 * file is written once scoring is done), or `errorsFailed` when it could not be (the old file kept);
 * with `--json-out`, the file the report was written to (whole or not at all, once the comparison
 * is made: the same JSON `--json` prints), or `jsonFailed` when it could not be (the old file kept)
 * @throws {@link CliUsageError} listing every problem with the flags (nothing is sent), or naming
 * `--labeler` when that copy does not exist; the client's errors as they come
 */
export async function runEval(
  flags: EvalFlags,
  context: ActionContext,
  onProgress?: (done: number, total: number) => void,
): Promise<{ report: EvalReport; exitCode: number; output: EvalOutput; errorsWritten?: { path: string; count: number }; errorsFailed?: FileWriteError; jsonWritten?: string; jsonFailed?: FileWriteError }> {
  const problems: UsageProblem[] = [];
  const projectId = requireId(flags.project, '--project', problems);
  const labelerEmail = labelerFlag(flags.labeler, problems);
  const match = (flags.match ?? 'strict').toLowerCase() as MatchMode;
  if (!MATCH_MODES.includes(match)) problems.push({ field: '--match', message: `must be ${MATCH_MODES.join(', ')}` });
  const layer = layerFlag(flags.layer, problems);
  const minConfidence = fraction(flags.minConfidence, '--min-confidence', problems);
  const failUnder = fraction(flags.failUnder, '--fail-under', problems);
  const scheme = flags.scheme?.toLowerCase() as SchemeName | undefined;
  if (scheme !== undefined && !SCHEMES.includes(scheme)) problems.push({ field: '--scheme', message: `must be ${SCHEMES.join(', ')}` });
  const errorsTarget = await checkErrorsFile(flags.errors, problems);
  const jsonOut = flags.jsonOut === undefined ? undefined : await checkWritableFile(flags.jsonOut, '--json-out', problems);
  if (jsonOut !== undefined && jsonOut === errorsTarget?.path) problems.push({ field: '--json-out', message: `names the file of --errors (${flags.errors}): give each its own file` });
  const mistakes: MistakeRow[] = [];
  const output: EvalOutput = { ...checkCiFlags(flags, problems), ...(failUnder !== undefined && { failUnder }), ...(scheme !== undefined && { scheme }) };
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry });
  try {
    const report = await evaluateProject(client, projectId!, {
      match,
      signal: context.signal,
      ...(labelerEmail !== undefined && { labelerEmail }),
      ...(layer !== undefined && { layer }),
      ...(minConfidence !== undefined && { minConfidence }),
      ...(onProgress && { onProgress }),
      ...(errorsTarget && { onMistakeRow: (row: MistakeRow) => void mistakes.push(row) }),
      ...(output.ci && { ci: output.ci }),
    });
    // A full disk: the report is still printed, then the failure (exit 4).
    const errorsFailed = errorsTarget ? await writeErrorsFile(errorsTarget, mistakes).then(() => undefined, (error: unknown) => (error instanceof FileWriteError ? error : Promise.reject(error))) : undefined;
    if (output.baseline) report.comparison = compareReports(report, output.baseline.report, { path: output.baseline.path, ...(output.maxDrop !== undefined && { maxDrop: output.maxDrop }) });
    const jsonFailed = jsonOut !== undefined ? await writeJsonReport(jsonOut, report).then(() => undefined, (error: unknown) => (error instanceof FileWriteError ? error : Promise.reject(error))) : undefined;
    const dropped = (report.comparison?.regressions ?? 0) > 0;
    const exitCode = dropped ? EXIT.f1Dropped : failUnder !== undefined && report.micro.f1 < failUnder ? EXIT.f1BelowThreshold : EXIT.ok;
    return {
      report,
      output,
      ...(errorsTarget && !errorsFailed && { errorsWritten: { path: flags.errors!, count: mistakes.length } }),
      ...(errorsFailed && { errorsFailed }),
      ...(jsonOut !== undefined && !jsonFailed && { jsonWritten: flags.jsonOut! }),
      ...(jsonFailed && { jsonFailed }),
      exitCode,
    };
  } catch (error) {
    throw evalProblem(error);
  } finally {
    client.close();
  }
}
