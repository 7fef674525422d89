import type { Role } from 'labelkit';
import type { LabelItemWrite, LabelSetSpec, NewLabelItemWrite } from './types.js';

/** What a plan was computed against: one live label set, as it was read. */
export interface LabelSetFingerprint {
  id: string;
  index: number;
  name: string;
  /** The service's signature of the set's items (absent on some sets). */
  signature: string | null;
  /** sha256 of the items as read (id, parentId, labelName, color, desc, in order): see `itemsHash`. */
  itemsHash: string;
  labelCount: number;
}

/** The kinds of change a plan shows, set by set. */
export type PlanStepKind =
  | 'create-set'
  | 'rename-set'
  | 'add-items'
  | 'rename-items'
  | 'recolour-items'
  | 'reparent-items'
  | 'describe-items'
  | 'remove-items'
  | 'delete-set';

/** One label a step touches. */
export interface PlanItem {
  /** The label's id; `null` for a new label whose id the service makes (an append without id). */
  id: string | null;
  /** The name after the step (for a removal: the name it had). */
  labelName: string;
  /** Before and after: the name, colour, parent id or description, by the step's kind. */
  from?: string | null;
  to?: string | null;
  /** For a re-parent: the names of the old and new parent (`null` at the top level). */
  fromParent?: string | null;
  toParent?: string | null;
  /** For a removal: the applied labels that use this label, when known. */
  appliedLabels?: number | null;
}

/** One change of one set, with the labels it touches. */
export interface PlanStep {
  kind: PlanStepKind;
  setIndex: number;
  /** `null` for a set the plan creates. */
  setId: string | null;
  /** The set's name after the plan (for a deletion: the name it had). */
  setName: string;
  /** For `rename-set`: the name it had. */
  previousSetName?: string;
  items: PlanItem[];
  /** True when the step removes labels that have applied labels, or may have (count not known). */
  destroysLabels: boolean;
  /** Applied labels the step removes: 0 when it removes none, `null` when not known. */
  appliedLabels: number | null;
  /** The index in {@link LabelSetPlan.writes} of the write that carries it. */
  write: number;
}

/** One call to the service. */
export type PlanWrite =
  | { op: 'create'; setIndex: number; name: string; labelItems: LabelItemWrite[] }
  | { op: 'append'; setIndex: number; setId: string; labelItems: NewLabelItemWrite[] }
  | { op: 'update'; setIndex: number; setId: string; name?: string; labelItems?: LabelItemWrite[] }
  | { op: 'delete'; setIndex: number; setId: string };

/** The format tag of a saved plan. */
export const PLAN_FORMAT = 'labelkit/label-set-plan';

/**
 * What `label-sets plan --out` saves: what was wanted and what it was planned against, nothing
 * derived. Applying it plans again from these (the same steps and writes while the sets have not
 * moved), so an edited file cannot make a write that its steps do not show.
 */
export interface SavedLabelSetPlan {
  format: typeof PLAN_FORMAT;
  /** 2: the desired sets and the fingerprints (1, which stored steps and writes, is refused: plan again). */
  version: 2;
  projectId: string;
  role: Role;
  /** Every live set the plan was computed against, by index. */
  against: LabelSetFingerprint[];
  /** The sets as they should be: the file's, checked. */
  desired: LabelSetSpec[];
}

/**
 * What it takes to bring a project's label sets to what a file says: what was wanted, what it
 * was computed against, and what follows from them: the changes (steps) and the calls that make
 * them (writes, in order).
 *
 * @remarks `against` lists every live set as it was read (id, index, name, signature, items
 * hash); applying re-reads the sets, writes nothing when any differs, and otherwise computes the
 * steps and writes again from `desired` (see {@link savedLabelSetPlan} for the file form).
 */
export interface LabelSetPlan extends SavedLabelSetPlan {
  steps: PlanStep[];
  writes: PlanWrite[];
  /** Things worth knowing that do not stop the plan (e.g. the file was pulled from another version of a set). */
  warnings: string[];
}

/**
 * The part of a plan that `label-sets plan --out` saves and `apply --plan` reads back.
 *
 * @param plan - a plan
 * @returns what was wanted and what it was planned against
 * @example
 * ```ts
 * await writeFile('plan.json', JSON.stringify(savedLabelSetPlan(plan), null, 2));
 * ```
 */
export function savedLabelSetPlan(plan: SavedLabelSetPlan): SavedLabelSetPlan {
  const { format, version, projectId, role, against, desired } = plan;
  return { format, version, projectId, role, against, desired };
}

/**
 * Whether a plan changes nothing.
 *
 * @param plan - a plan
 * @returns true when it has no write
 * @example
 * ```ts
 * if (planIsEmpty(plan)) console.log('up to date');
 * ```
 */
export function planIsEmpty(plan: LabelSetPlan): boolean {
  return plan.writes.length === 0;
}

/**
 * The applied labels a plan's destructive steps remove.
 *
 * @param plan - a plan
 * @returns the destructive steps, and their total count of applied labels (`null` when any step's count is not known)
 * @example
 * ```ts
 * const { steps, appliedLabels } = destructiveSteps(plan);
 * if (steps.length > 0) console.log(`removes ${appliedLabels ?? 'an unknown number of'} applied labels`);
 * ```
 */
export function destructiveSteps(plan: LabelSetPlan): { steps: PlanStep[]; appliedLabels: number | null } {
  const steps = plan.steps.filter((s) => s.destroysLabels);
  const appliedLabels = steps.some((s) => s.appliedLabels === null) ? null : steps.reduce((n, s) => n + (s.appliedLabels ?? 0), 0);
  return { steps, appliedLabels };
}
