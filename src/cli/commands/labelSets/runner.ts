import { createLabelingClient, getCabinet, getLabelSets } from 'labelkit';
import type { LabelSet, Role, SchemaChangeEvent } from 'labelkit';
import { clientAuth, parseRole, requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';

/** Flags of `labelkit label-sets`. */
export interface LabelSetsFlags extends ConnectionFlags {
  project?: string;
  role?: string;
  cabinet?: string;
}

/** What the caller of {@link runLabelSets} hears while it runs. */
interface LabelSetsHooks {
  /** The client switched to the renamed label-set documents (the service renamed tag to label). */
  onSchemaChange?: (event: SchemaChangeEvent) => void;
}

/** What `labelkit label-sets` read. */
export interface LabelSetsResult {
  projectId?: string;
  role?: Role;
  cabinetId: string;
  /** Sorted by `index`. */
  labelSets: LabelSet[];
}

/**
 * Reads the label sets of a cabinet, given directly or as project + role.
 *
 * @param flags - `--cabinet`, or `--project` with `--role`, and the connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param hooks - `onSchemaChange`, called once if the service has renamed tag to label
 * @returns the cabinet id and its label sets
 * @throws {@link CliUsageError} listing every problem with the flags (nothing is sent)
 */
export async function runLabelSets(flags: LabelSetsFlags, context: ActionContext, hooks: LabelSetsHooks = {}): Promise<LabelSetsResult> {
  const problems: UsageProblem[] = [];
  let role: Role | undefined;
  if (flags.cabinet !== undefined) {
    if (flags.project !== undefined || flags.role !== undefined) {
      problems.push({ field: '--cabinet', message: 'give either --cabinet or --project with --role, not both' });
    }
    if (flags.cabinet.trim() === '') problems.push({ field: '--cabinet', message: 'must not be empty' });
  } else {
    if (flags.project === undefined) problems.push({ field: '--project', message: 'required (or give --cabinet)' });
    else if (flags.project.trim() === '') problems.push({ field: '--project', message: 'must not be empty' });
    role = parseRole(flags.role, problems);
  }
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry, ...(hooks.onSchemaChange && { onSchemaChange: hooks.onSchemaChange }) });
  const call = { signal: context.signal };
  try {
    const cabinetId = flags.cabinet?.trim() ?? (await getCabinet(client, flags.project!.trim(), role!, call)).id;
    const labelSets = await getLabelSets(client, cabinetId, call);
    return { ...(flags.cabinet === undefined && { projectId: flags.project!.trim(), role: role! }), cabinetId, labelSets };
  } finally {
    client.close();
  }
}
