import { createLabelingClient, getCabinet } from 'labelkit';
import type { Role } from 'labelkit';
import { clientAuth, parseRole, requireConnection, requireId } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';

/** Flags of `labelkit cabinet`. */
export interface CabinetFlags extends ConnectionFlags {
  project?: string;
  role?: string;
}

/** What `labelkit cabinet` found. */
export interface CabinetResult {
  projectId: string;
  role: Role;
  cabinetId: string;
}

/**
 * Looks up the cabinet of a project for one role.
 *
 * @param flags - `--project`, `--role` and the connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @returns the project, role and cabinet id
 * @throws {@link CliUsageError} listing every problem with the flags (nothing is sent);
 * the client's errors as they come
 */
export async function runCabinet(flags: CabinetFlags, context: ActionContext): Promise<CabinetResult> {
  const problems: UsageProblem[] = [];
  const projectId = requireId(flags.project, '--project', problems);
  const role = parseRole(flags.role, problems);
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry });
  try {
    const cabinet = await getCabinet(client, projectId!, role!, { signal: context.signal });
    return { projectId: projectId!, role: role!, cabinetId: cabinet.id };
  } finally {
    client.close();
  }
}
