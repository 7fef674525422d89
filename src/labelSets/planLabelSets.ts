import { getProjectLabelSets, ValidationError } from 'labelkit';
import type { Role, ValidationProblem } from 'labelkit';
import { ROLES } from '../shared/constants.js';
import { checkLabelSets, pathText } from './checkLabelSets.js';
import { diffLabelSets } from './diffLabelSets.js';
import type { DiffOptions } from './diffLabelSets.js';
import { PlanStaleError } from './errors.js';
import { compareFingerprints } from './fingerprint.js';
import type { LabelSetFingerprint, LabelSetPlan } from './plan.js';
import { canCount, countAppliedLabels, needsCounts } from './countAppliedLabels.js';
import type { CountProgress } from './countAppliedLabels.js';
import type { LabelSetsClient, LabelSetsFile } from './types.js';

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
  /**
   * Count the applied labels of the labels a step removes, when there is such a step and
   * `appliedLabels` is not given (one read of every label of the project, see
   * `countAppliedLabels`). `false`: do not read them; those removals count as destructive.
   * @defaultValue true
   */
  countLabels?: boolean;
  /** Progress of that count: called once the copies are known, then after each document. */
  onCountProgress?: (progress: CountProgress) => void;
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
 * @param client - a client made by `createLabelingClient` (only its `request` is used)
 * @param projectId - the project
 * @param role - the cabinet's role, `LABELER` or `REVIEWER`
 * @param desired - the sets as they should be: a label-set file's contents (see `readLabelSetsFile`)
 * @param options - applied-label counts (`appliedLabels`; counted from the project's labels
 * when not given and a step removes labels, unless `countLabels` is false), their progress
 * (`onCountProgress`), how to name file lines (`where`), what a saved plan was computed against
 * (`against`), signal, time-out
 * @returns the plan: steps, writes, and what it was computed against; print it with
 * `formatLabelSetPlan`, save it as JSON, apply it with {@link applyLabelSetPlan}
 * @throws `ValidationError` listing every problem with the arguments (nothing is sent);
 * {@link LabelSetsPlanError} when the desired sets cannot be reached (see `diffLabelSets`);
 * {@link PlanStaleError} when `against` is given and the live sets differ from it;
 * the client's errors for the reads (the sets, and the labels when they are counted)
 * @remarks Reads only. The matching rules and the choice of writes are those of `diffLabelSets`.
 * The applied labels a removal takes are counted only when the plan removes labels: then every
 * label of every copy of the project is read once (`countAppliedLabels`), which costs a request
 * per document copy and per 100 labels. When they are not known (`countLabels: false`, or a
 * client without `request`), the plan counts such a removal as destructive.
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
  client: LabelSetsClient,
  projectId: string,
  role: Role,
  desired: Pick<LabelSetsFile, 'labelSets'>,
  options: PlanLabelSetsOptions = {},
): Promise<LabelSetPlan> {
  const problems = checkProjectAndRole(projectId, role);
  if (typeof client?.request !== 'function') problems.push({ path: 'client', message: 'must have request (a client made by createLabelingClient)' });
  const checked = checkLabelSets(desired);
  problems.push(...checked.problems.map((p) => ({ path: `desired.${pathText(p.path)}`.replace(/\.\(top\)$/, ''), message: p.message })));
  if (problems.length > 0 || !checked.file) throw new ValidationError(problems, { operationName: 'planLabelSets' });
  const call = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  const live = await getProjectLabelSets(client, projectId.trim(), role, call);
  const moved = options.against ? compareFingerprints(options.against, live) : [];
  if (moved.length > 0) throw new PlanStaleError(moved);
  const { countLabels, onCountProgress, ...diffOptions } = options;
  const plan = diffLabelSets(projectId.trim(), role, live, checked.file.labelSets, diffOptions);
  // Counting reads every label of the project: only when a removal's count is not known.
  if (options.appliedLabels || countLabels === false || !canCount(client) || !needsCounts(plan)) return plan;
  const appliedLabels = await countAppliedLabels(client, projectId.trim(), live, { ...call, ...(onCountProgress && { onProgress: onCountProgress }) });
  return diffLabelSets(projectId.trim(), role, live, checked.file.labelSets, { ...diffOptions, appliedLabels });
}
