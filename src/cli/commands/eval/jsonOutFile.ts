import type { EvalReport } from '../../../eval/index.js';
import { writeFileAtomically } from '../../../shared/fileWrites.js';

/**
 * Writes the report to the `--json-out` file: the JSON `labelkit eval --json` prints, whole or not
 * at all (a temporary file beside it, then renamed into place), so a CI job that keeps it as the
 * next baseline never keeps half a report.
 *
 * @param path - the file (checked writable before anything was read)
 * @param report - the report, comparison and intervals included
 * @throws `FileWriteError` naming the file when the write fails; the old file, if any, is kept
 */
export async function writeJsonReport(path: string, report: EvalReport): Promise<void> {
  await writeFileAtomically(path, `${JSON.stringify(report)}\n`);
}
