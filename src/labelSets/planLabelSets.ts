import { ValidationError } from 'labelkit';
import type { Role, ValidationProblem } from 'labelkit';
import { ROLES } from '../shared/constants.js';
import { checkLabelSets, pathText } from './checkLabelSets.js';
import { diffLabelSets } from './diffLabelSets.js';
import type { DiffOptions } from './diffLabelSets.js';
import { PlanStaleError } from './errors.js';
import { compareFingerprints } from './fingerprint.js';
import type { LabelSetFingerprint, LabelSetPlan } from './plan.js';
import { countsBySet } from './types.js';
import type { AppliedLabelCounts, LabelSetsClient, LabelSetsFile } from './types.js';

/** Options of {@link planLabelSets}. */
export interface PlanLabelSetsOptions extends DiffOptions {
  /** Ends the read. */
  signal?: AbortSignal;
  /** Time-out of each call, in ms (the client's default otherwise). */
  timeoutMs?: number;
  /**
   * What a saved plan was computed against: the plan is refused ({@link PlanStaleError}) when the
   * live sets differ from it, so re-planning a saved plan shows exactly what was saved.
   */
  against?: readonly LabelSetFingerprint[];
}

/**
 * Checks the arguments shared by planning and applying: a project id and a role.
 *
 * @param projectId - the project
 * @param role - the cabinet's role
 * @returns the problems, each with its path
 */
export function checkProjectAndRole(projectId: unknown, role: unknown): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  if (typeof projectId !== 'string' || projectId.trim() === '') problems.push({ path: 'projectId', message: 'must be a non-empty string' });
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) problems.push({ path: 'role', message: `must be ${ROLES.join(' or ')}` });
  return problems;
}

/**
 * Reads a project's label sets and computes what it takes to make them as `desired` says.
 *
 * @param client - a client made by `createLabelingClient` (or anything with `getProjectLabelSets`)
 * @param projectId - the project
 * @param role - the cabinet's role, `LABELER` or `REVIEWER`
 * @param desired - the sets as they should be: a label-set file's contents (see `readLabelSetsFile`)
 * @param options - applied-label counts (`appliedLabels`; read with the client's
 * `getAppliedLabelCounts` when not given and the client has it), how to name file lines
 * (`where`), what a saved plan was computed against (`against`), signal, time-out
 * @returns the plan: steps, writes, and what it was computed against; print it with
 * `formatLabelSetPlan`, save it as JSON, apply it with {@link applyLabelSetPlan}
 * @throws {@link ValidationError} listing every problem with the arguments (nothing is sent);
 * {@link LabelSetsPlanError} when the desired sets cannot be reached (see `diffLabelSets`);
 * {@link PlanStaleError} when `against` is given and the live sets differ from it;
 * the client's errors for the read
 * @remarks Reads only. The matching rules and the choice of writes are those of `diffLabelSets`.
 * When the counts are not known (the service cannot tell; the emulator can), the plan does not
 * know how many applied labels a removal takes, and counts it as destructive.
 * @example
 * ```ts
 * import { createLabelingClient } from 'labelkit';
 * import { planLabelSets, readLabelSetsFile, formatLabelSetPlan } from 'labelkit-tools/label-sets';
 *
 * const client = createLabelingClient({ url, token });
 * const { spec, where } = await readLabelSetsFile('labels.json');
 * const plan = await planLabelSets(client, 'demo-project', 'LABELER', spec, { where });
 * console.log(formatLabelSetPlan(plan).join('\n'));
 * ```
 */
export async function planLabelSets(
  client: Pick<LabelSetsClient, 'getProjectLabelSets' | 'getAppliedLabelCounts'>,
  projectId: string,
  role: Role,
  desired: Pick<LabelSetsFile, 'labelSets'>,
  options: PlanLabelSetsOptions = {},
): Promise<LabelSetPlan> {
  const problems = checkProjectAndRole(projectId, role);
  if (typeof client?.getProjectLabelSets !== 'function') problems.push({ path: 'client', message: 'must have getProjectLabelSets (a client made by createLabelingClient)' });
  const checked = checkLabelSets(desired);
  problems.push(...checked.problems.map((p) => ({ path: `desired.${pathText(p.path)}`.replace(/\.\(top\)$/, ''), message: p.message })));
  if (problems.length > 0 || !checked.file) throw new ValidationError(problems, { operationName: 'planLabelSets' });
  const call = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  const live = await client.getProjectLabelSets(projectId.trim(), role, call);
  const moved = options.against ? compareFingerprints(options.against, live) : [];
  if (moved.length > 0) throw new PlanStaleError(moved);
  const appliedLabels: AppliedLabelCounts | undefined =
    options.appliedLabels ?? (client.getAppliedLabelCounts ? countsBySet(await client.getAppliedLabelCounts(projectId.trim(), call)) : undefined);
  return diffLabelSets(projectId.trim(), role, live, checked.file.labelSets, { ...options, ...(appliedLabels && { appliedLabels }) });
}
