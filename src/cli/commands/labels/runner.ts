import { createLabelingClient } from 'labelkit';
import { listLabels } from 'labelkit/labels';
import type { LabelRow } from 'labelkit/labels';
import { clientAuth, requireConnection, requireId } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';
import { copyProblem, labelerFlag } from '../../projectFlags.js';

/** Flags of `labelkit labels`. */
export interface LabelsFlags extends ConnectionFlags {
  project?: string;
  labeler?: string;
  csv?: boolean;
}

/**
 * Checks the flags of `labelkit labels`, then hands each label of the copy to `onRow` as it is read.
 *
 * @param flags - `--project`, `--labeler`, `--json`/`--csv`, connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param onRow - receives each label, document after document (nothing is held)
 * @param onProgress - called after each document
 * @returns how many labels were listed
 * @throws {@link CliUsageError} listing every problem with the flags (nothing is sent), or naming
 * `--labeler` when that copy does not exist; the client's errors as they come
 */
export async function runLabels(
  flags: LabelsFlags & { json?: boolean },
  context: ActionContext,
  onRow: (row: LabelRow) => void,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const problems: UsageProblem[] = [];
  const projectId = requireId(flags.project, '--project', problems);
  const labelerEmail = labelerFlag(flags.labeler, problems);
  if (flags.json === true && flags.csv === true) problems.push({ field: '--csv', message: 'give --json or --csv, not both' });
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry });
  let count = 0;
  try {
    const rows = listLabels(client, projectId!, {
      signal: context.signal,
      ...(labelerEmail !== undefined && { labelerEmail }),
      ...(onProgress && { onProgress }),
    });
    for await (const row of rows) {
      onRow(row);
      count++;
    }
    return count;
  } catch (error) {
    throw copyProblem(error);
  } finally {
    client.close();
  }
}
