import { writeFile } from 'node:fs/promises';
import { createLabelingClient } from 'labelkit';
import type { LabelingClient, Role, SchemaChangeEvent } from 'labelkit';
import { LabelSetsFileError, planLabelSets, readLabelSetsFile, savedLabelSetPlan } from '../../../labelSets/index.js';
import { placeOf } from '../../../labelSets/errors.js';
import type { CountProgress, LabelSetPlan, ParsedLabelSetsFile } from '../../../labelSets/index.js';
import { clientAuth, parseRole, requireConnection } from '../../connection.js';
import type { ConnectionFlags } from '../../connection.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';
import { printSchemaChange } from './print.js';

/** Flags of `labelkit label-sets plan FILE`. */
export interface LabelSetsPlanFlags extends ConnectionFlags {
  project?: string;
  role?: string;
  /** Save the plan as JSON, for `label-sets apply --plan`. */
  out?: string;
  /** Exit 9 when the plan has changes. */
  exitCode?: boolean;
  /** `--no-count-labels` makes it false: removals are not counted (they count as destructive). */
  countLabels?: boolean;
}

/** What `labelkit label-sets plan` computed. */
export interface LabelSetsPlanResult {
  plan: LabelSetPlan;
  /** Where the plan was saved (`--out`). */
  savedTo?: string;
}

/**
 * Reads a label-set file, turning its problems into usage problems (`file:line`), so they are
 * listed together with those of the flags.
 *
 * @param file - the path given
 * @param problems - receives one problem per fault of the file
 * @returns the file, or undefined when it has problems
 */
export async function readDesiredFile(file: string, problems: UsageProblem[]): Promise<ParsedLabelSetsFile | undefined> {
  try {
    return await readLabelSetsFile(file);
  } catch (error) {
    if (!(error instanceof LabelSetsFileError)) throw error;
    for (const p of error.problems) problems.push({ field: placeOf(p), message: p.message });
    return undefined;
  }
}

/**
 * The project and role to plan for: the flags, else the file's `projectId` and `role`.
 *
 * @param flags - `--project`, `--role`
 * @param spec - the file's defaults, when it was read
 * @param problems - receives a problem for each one missing or bad
 * @returns both, or undefined ones where there were problems
 */
export function resolveTarget(flags: { project?: string; role?: string }, spec: { projectId?: string; role?: Role } | undefined, problems: UsageProblem[]): { projectId?: string; role?: Role } {
  let projectId = flags.project?.trim();
  if (projectId === '') problems.push({ field: '--project', message: 'must not be empty' });
  projectId ||= spec?.projectId;
  // Without the file (it has problems of its own) a missing default cannot be told apart.
  if (projectId === undefined && flags.project === undefined && spec) problems.push({ field: '--project', message: 'required (or "projectId" in the file)' });
  const role = flags.role === undefined ? spec?.role : parseRole(flags.role, problems);
  if (role === undefined && flags.role === undefined && spec) problems.push({ field: '--role', message: 'required: LABELER or REVIEWER (or "role" in the file)' });
  return { ...(projectId && { projectId }), ...(role && { role }) };
}

/**
 * A client for the label-set commands, from the connection flags (every problem listed with
 * the command's own).
 *
 * @param flags - the connection flags; with `--verbose`, a switch to the renamed schema (the
 * service renamed tag to label) is told on stderr, as `label-sets --verbose` tells it
 * @param context - the run
 * @param problems - the command's problems so far
 * @returns the client; close it when done
 * @throws {@link CliUsageError} listing every problem
 */
export async function labelSetsClient(flags: ConnectionFlags & { verbose?: boolean }, context: ActionContext, problems: UsageProblem[]): Promise<LabelingClient> {
  const connection = await requireConnection(flags, context.io, context.printer, problems);
  return createLabelingClient({
    url: connection.url,
    ...clientAuth(connection),
    retry: connection.retry,
    ...(flags.verbose === true && { onSchemaChange: (event: SchemaChangeEvent) => printSchemaChange(context.printer, event) }),
  });
}

/**
 * The counting options of a plan or an apply, from `--no-count-labels` and the progress printer.
 *
 * @param flags - `countLabels` (false with `--no-count-labels`)
 * @param onCountProgress - progress of a count
 * @returns `countLabels` and `onCountProgress`, as given
 */
export function countOptions(flags: { countLabels?: boolean }, onCountProgress?: (progress: CountProgress) => void): { countLabels: boolean; onCountProgress?: (progress: CountProgress) => void } {
  return { countLabels: flags.countLabels !== false, ...(onCountProgress && { onCountProgress }) };
}

/**
 * Computes the plan for a label-set file against the project's live sets.
 *
 * @param file - the label-set file (JSON, or YAML by extension)
 * @param flags - `--project`, `--role` (defaults: the file's), `--out`, connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param onCountProgress - progress of counting the applied labels a removal takes
 * @returns the plan, and where it was saved
 * @throws {@link CliUsageError} listing every problem of the flags and the file (`file:line`),
 * before anything is sent; `LabelSetsPlanError` when the file cannot be reached from the live sets
 */
export async function runLabelSetsPlan(file: string, flags: LabelSetsPlanFlags, context: ActionContext, onCountProgress?: (progress: CountProgress) => void): Promise<LabelSetsPlanResult> {
  const problems: UsageProblem[] = [];
  const parsed = await readDesiredFile(file, problems);
  const { projectId, role } = resolveTarget(flags, parsed?.spec, problems);
  if (flags.out !== undefined && flags.out.trim() === '') problems.push({ field: '--out', message: 'must be a file name' });
  const client = await labelSetsClient(flags, context, problems);
  try {
    const plan = await planLabelSets(client, projectId!, role!, parsed!.spec, { where: parsed!.where, signal: context.signal, ...countOptions(flags, onCountProgress) });
    if (flags.out === undefined) return { plan };
    await writeFile(flags.out, `${JSON.stringify(savedLabelSetPlan(plan), null, 2)}\n`);
    return { plan, savedTo: flags.out };
  } finally {
    client.close();
  }
}
