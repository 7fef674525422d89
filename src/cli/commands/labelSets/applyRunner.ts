import { readFile } from 'node:fs/promises';
import type { LabelingClient } from 'labelkit';
import { applyLabelSetPlan, assertDestructiveAllowed, checkSavedLabelSetPlan, planIsEmpty, planLabelSets } from '../../../labelSets/index.js';
import type { AppliedWrite, ApplyLabelSetPlanResult, CountProgress, LabelSetPlan, SavedLabelSetPlan } from '../../../labelSets/index.js';
import { decodeUtf8 } from '../../../shared/decodeUtf8.js';
import { jsonNestingProblem, jsonSyntaxProblems } from '../../../shared/jsonLocations.js';
import type { ActionContext } from '../../runAction.js';
import type { UsageProblem } from '../../usageError.js';
import { countOptions, labelSetsClient, readDesiredFile, resolveTarget } from './planRunner.js';
import type { LabelSetsPlanFlags } from './planRunner.js';

/** Flags of `labelkit label-sets apply FILE | --plan plan.json`. */
export interface LabelSetsApplyFlags extends Omit<LabelSetsPlanFlags, 'out' | 'exitCode'> {
  /** A plan saved by `label-sets plan --out`, instead of a file. */
  plan?: string;
  /** Apply without asking. */
  yes?: boolean;
  /** Carry out steps that remove applied labels. */
  allowDestructive?: boolean;
}

/** What the apply command needs from its caller: showing the plan, asking, and progress. */
interface LabelSetsApplyHooks {
  /** The plan about to be applied (before anything is written). */
  showPlan(plan: LabelSetPlan): void;
  /** Asks whether to apply; not called with `--yes`. */
  confirm(plan: LabelSetPlan): Promise<boolean>;
  /** A write the service confirmed. */
  onWrite(write: AppliedWrite): void;
  /** Progress of counting the applied labels a removal takes (at the plan, right before writing, and before a later removal). */
  onCountProgress?(progress: CountProgress): void;
}

/** How `labelkit label-sets apply` ended. */
export type LabelSetsApplyOutcome =
  | { kind: 'nothing-to-do'; plan: LabelSetPlan }
  | { kind: 'declined'; plan: LabelSetPlan }
  | { kind: 'applied'; plan: LabelSetPlan; result: ApplyLabelSetPlanResult };

/** Reads and checks a saved plan, every problem as a usage problem. */
async function readPlanFile(path: string, problems: UsageProblem[]): Promise<SavedLabelSetPlan | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push({ field: '--plan', message: `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}` });
    return undefined;
  }
  const { text, problems: encoding } = decodeUtf8(bytes);
  for (const p of encoding) problems.push({ field: `${path}:${p.line}`, message: p.message });
  const deep = jsonNestingProblem(text);
  if (deep) problems.push({ field: `${path}:${deep.line}`, message: `too deep: ${deep.message} (column ${deep.column})` });
  if (encoding.length > 0 || deep) return undefined;
  const syntax = jsonSyntaxProblems(text);
  if (syntax.length > 0) {
    for (const p of syntax) problems.push({ field: `${path}:${p.line}`, message: `not JSON: ${p.message} (column ${p.column})` });
    return undefined;
  }
  const value = JSON.parse(text) as unknown;
  const found = checkSavedLabelSetPlan(value);
  for (const p of found) problems.push({ field: path, message: `${p.path}: ${p.message}` });
  return found.length === 0 ? (value as SavedLabelSetPlan) : undefined;
}

/**
 * Applies a label-set file (planned first) or a saved plan: shows the plan, asks (or `--yes`),
 * then writes it with a compare-and-swap.
 *
 * @param file - the label-set file, or undefined with `--plan`
 * @param flags - `--plan`, `--project`, `--role`, `--yes`, `--allow-destructive`, `--no-count-labels`, connection flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param hooks - show, confirm, progress of the writes and of counting applied labels
 * @returns what happened: nothing to do, declined, or applied (with the ids the service made)
 * @throws {@link CliUsageError} listing every problem (flags, file lines, plan fields), before
 * anything is sent; `DestructiveStepsError` before asking; `PlanStaleError` when the sets changed
 * since the plan (a saved plan: before asking; nothing written) or while writing; `ApplyError`
 * when a write fails part way
 */
export async function runLabelSetsApply(file: string | undefined, flags: LabelSetsApplyFlags, context: ActionContext, hooks: LabelSetsApplyHooks): Promise<LabelSetsApplyOutcome> {
  const problems: UsageProblem[] = [];
  if ((file === undefined) === (flags.plan === undefined)) problems.push({ field: 'FILE', message: 'give a label-set file or --plan plan.json (one of them)' });
  if (flags.yes !== true && !context.io.stdinIsTTY) problems.push({ field: '--yes', message: 'required when stdin is not a terminal (nothing is written without being asked or told)' });
  let saved: SavedLabelSetPlan | undefined;
  let desired: Awaited<ReturnType<typeof readDesiredFile>>;
  let target: ReturnType<typeof resolveTarget> = {};
  if (flags.plan !== undefined && file === undefined) {
    saved = await readPlanFile(flags.plan, problems);
    for (const [flag, value, planned] of [['--project', flags.project, saved?.projectId], ['--role', flags.role?.toUpperCase(), saved?.role]] as const) {
      if (value !== undefined && planned !== undefined && value.trim() !== planned) problems.push({ field: flag, message: `the plan is for ${planned}: leave ${flag} out, or plan again` });
    }
  } else if (file !== undefined) {
    desired = await readDesiredFile(file, problems);
    target = resolveTarget(flags, desired?.spec, problems);
  }
  const client: LabelingClient = await labelSetsClient(flags, context, problems);
  const counting = countOptions(flags, hooks.onCountProgress && ((p) => hooks.onCountProgress!(p)));
  try {
    // A saved plan is planned again from what it saved; refused (exit 10) when the sets moved since.
    const plan = saved
      ? await planLabelSets(client, saved.projectId, saved.role, { labelSets: saved.desired }, { against: saved.against, signal: context.signal, ...counting })
      : await planLabelSets(client, target.projectId!, target.role!, desired!.spec, { where: desired!.where, signal: context.signal, ...counting });
    hooks.showPlan(plan);
    if (planIsEmpty(plan)) return { kind: 'nothing-to-do', plan };
    assertDestructiveAllowed(plan, flags.allowDestructive);
    if (flags.yes !== true && !(await hooks.confirm(plan))) return { kind: 'declined', plan };
    const result = await applyLabelSetPlan(client, plan, { allowDestructive: flags.allowDestructive === true, signal: context.signal, onWrite: hooks.onWrite, ...counting });
    return { kind: 'applied', plan, result };
  } finally {
    client.close();
  }
}
