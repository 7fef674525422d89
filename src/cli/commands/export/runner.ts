import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createLabelingClient } from 'labelkit';
import { EXPORT_FORMATS, ExportError, ExportInterrupted, outputProblem, parseDocumentIds, parseLabelNames, parseStatuses, StrictExportError, writeExport } from '../../../export/index.js';
import type { DocumentFilters, ExportFormat, ExportSummary } from '../../../export/index.js';
import { errorCode } from '../../../shared/classify.js';
import { clientAuth, requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import { Interrupted } from '../../interrupted.js';
import type { ActionContext } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';
import { copyProblem, labelerFlag, layerFlag, projectIds } from '../../projectFlags.js';

/** Flags of `labelkit export`. */
export interface ExportFlags extends ConnectionFlags {
  project?: string[];
  projects?: string;
  labeler?: string;
  format?: string;
  out?: string;
  layer?: string;
  strict?: boolean;
  status?: string;
  documents?: string;
  labels?: string;
}

/**
 * Turns what the export room refuses into a usage problem of the flag at fault (exit 2).
 *
 * @param error - what `writeExport` threw
 * @returns a usage error, the interruption in the CLI's terms (exit 130), or the error unchanged
 */
export function exportProblem(error: unknown): unknown {
  // A refused resume and a held lock say what to do in their own words: no hint after them.
  if (error instanceof ExportError) return new CliUsageError([{ field: error.field, message: error.message }], error.code === 'LOCKED' || error.code === 'RESUME' ? '' : undefined);
  if (error instanceof ExportInterrupted) return new Interrupted(error.message);
  if (error instanceof StrictExportError) return new CliUsageError([{ field: '--strict', message: `${error.message}; without --strict it is left out (or widened) and counted` }]);
  return copyProblem(error);
}

/**
 * What identifies the service an export reads, compared when a run goes on from another's
 * checkpoint: a digest, never the URL (its user info would be written to the checkpoint).
 *
 * @param url - the service's URL
 * @returns `{ service }`, 16 hex digits
 */
export function serviceIdentity(url: string): { service: string } {
  return { service: createHash('sha256').update(url).digest('hex').slice(0, 16) };
}

/**
 * Checks the flags that `labelkit export` and a release (`--split`) share: the projects, the copy
 * (`--labeler`), `--format` and `--layer`.
 *
 * @param flags - the command's flags
 * @param problems - where each problem goes (every one, nothing sent)
 * @returns the project ids, the format (undefined when missing or unknown: a problem says so) and the label set index
 */
export async function checkCopyFlags(flags: ExportFlags, problems: UsageProblem[]): Promise<{ projects: string[]; format: ExportFormat | undefined; layer: number }> {
  const projects = await projectIds(flags, problems);
  labelerFlag(flags.labeler, problems);
  const format = flags.format?.trim().toLowerCase() as ExportFormat | undefined;
  if (format === undefined) problems.push({ field: '--format', message: `required: ${EXPORT_FORMATS.join(', ')}` });
  else if (!EXPORT_FORMATS.includes(format)) problems.push({ field: '--format', message: `must be ${EXPORT_FORMATS.join(', ')}` });
  const layer = layerFlag(flags.layer, problems) ?? 0;
  return { projects, format, layer };
}

/**
 * Checks the filters that `labelkit export` and a release share: `--status`, `--documents FILE`
 * (read here) and `--labels`.
 *
 * @param flags - the command's flags
 * @param problems - where each problem goes (every one, nothing sent)
 * @returns the filters given (each unset when its flag is not)
 */
export async function checkFilterFlags(flags: ExportFlags, problems: UsageProblem[]): Promise<DocumentFilters> {
  const filters: DocumentFilters = {};
  const add = (found: { path: string; message: string }[]) => problems.push(...found.map((p) => ({ field: p.path, message: p.message })));
  if (flags.status !== undefined) {
    const parsed = parseStatuses(flags.status);
    filters.status = parsed.statuses;
    add(parsed.problems);
  }
  if (flags.labels !== undefined) {
    const parsed = parseLabelNames(flags.labels);
    filters.labels = parsed.labels;
    add(parsed.problems);
  }
  if (flags.documents !== undefined) {
    const text = await readFile(flags.documents, 'utf8').catch((error: unknown) => {
      problems.push({ field: '--documents', message: `cannot read ${flags.documents} (${errorCode(error) ?? 'unreadable'})` });
      return undefined;
    });
    if (text !== undefined) {
      const parsed = parseDocumentIds(text);
      filters.documents = parsed.ids;
      add(parsed.problems);
    }
  }
  return filters;
}

/**
 * Checks the flags of `labelkit export`, then writes the export (or goes on from an interrupted one).
 *
 * @param flags - `--project` (repeatable) or `--projects FILE`, `--labeler`, `--format`, `--out`,
 * `--layer`, `--strict`, the filters `--status`, `--documents`, `--labels`, connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param onProgress - called after each document
 * @returns the summary
 * @throws {@link CliUsageError} listing every problem with the flags (nothing is sent, nothing
 * written); naming `--project`/`--labeler` when a copy does not exist, `--layer` when a label set
 * is not there, `--out` for a resume with other flags or from a checkpoint that does not prove
 * itself, and for an output another export writes (its lock), `--strict` for a label it refuses;
 * {@link Interrupted} on Ctrl-C (the export goes on when run again); a `FileWriteError` for a full
 * disk; the client's errors as they come
 */
export async function runExport(flags: ExportFlags, context: ActionContext, onProgress?: (done: number, total: number) => void): Promise<ExportSummary> {
  const problems: UsageProblem[] = [];
  const { projects, format, layer } = await checkCopyFlags(flags, problems);
  const filters = await checkFilterFlags(flags, problems);
  if (flags.out === undefined || flags.out.trim() === '') problems.push({ field: '--out', message: flags.out === undefined ? 'required: the file to write' : 'must not be empty' });
  else {
    const problem = await outputProblem(flags.out);
    if (problem) problems.push({ field: '--out', message: problem });
  }
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry });
  try {
    return await writeExport(client, projects, {
      format: format!,
      out: flags.out!,
      layer,
      strict: flags.strict === true,
      signal: context.signal,
      // Another service, another export: compared on resume.
      identity: serviceIdentity(connection.url),
      ...filters,
      ...(flags.labeler !== undefined && { labelerEmail: flags.labeler.trim() }),
      ...(onProgress && { onProgress }),
    });
  } catch (error) {
    throw exportProblem(error);
  } finally {
    client.close();
  }
}
