import type { LabelingClient, LabelItemInput, NewLabelItemInput, Role } from 'labelkit';

/**
 * One label of a label-set file: what `labelkit label-sets --json` prints for an item.
 *
 * @remarks `id` may be left out for a new label (see {@link diffLabelSets} for how such a label
 * is matched to a live one by name). `color` and `desc` left out mean "as the service has it"
 * (none for a new label); `null` means none.
 */
export interface LabelItemSpec {
  id?: string;
  /** The id of the label above this one; `null` or absent at the top level. */
  parentId?: string | null;
  /**
   * The label above this one by its name (`"ENTITY"`), or by its path from the top with `/`
   * between names (`"ENTITY/PERSON"`) when its name is not unique in the set; names compare
   * case-insensitively. For a file written by hand, whose labels have no ids. Give `parentId` or
   * `parent`, not both; neither (or `null`): at the top level.
   */
  parent?: string | null;
  /** Compared case-insensitively by the service: two siblings may not differ only in case. */
  labelName: string;
  /** `#rrggbb`, or `null` for none. */
  color?: string | null;
  desc?: string | null;
}

/** One label set of a label-set file. */
export interface LabelSetSpec {
  /** The set's id on the service; left out, the set is matched by `index`. */
  id?: string;
  /** Position 0–4; a project has at most 5 sets. */
  index: number;
  name: string;
  /** As read (`label-sets --json` prints it); ignored by the plan, which reads the live one. */
  signature?: string | null;
  labelItems: LabelItemSpec[];
}

/**
 * A label-set file: exactly the JSON that `labelkit label-sets --project P --role R --json`
 * prints, or the same fields in YAML.
 *
 * @remarks `projectId` and `role` are defaults for `--project`/`--role`; `cabinetId` is informative.
 */
export interface LabelSetsFile {
  projectId?: string;
  role?: Role;
  cabinetId?: string;
  labelSets: LabelSetSpec[];
}

/** A label sent to `createLabelSet` or `updateLabelSet` (the whole list replaces the set's). */
export type LabelItemWrite = LabelItemInput;

/** A label sent to `appendLabelItems`: top level only; the service makes an id when none is given. */
export type NewLabelItemWrite = NewLabelItemInput;

/**
 * The client methods a plan is computed and applied with: a structural view of `LabelingClient`
 * (entry `labelkit`), so any object with these methods will do (a test double, a wrapper).
 *
 * @remarks Only `getProjectLabelSets` is needed to plan; the writes are needed to apply.
 * `request`, which a client made by `createLabelingClient` always has, lets the plan count the
 * applied labels a removal would take (see `countAppliedLabels`: the production reads
 * `getProjectCabinets` and `getLabelsPaginated`), and apply count them again right before
 * writing. Without it, those counts are not known and a removal counts as destructive.
 */
export type LabelSetsClient = Pick<LabelingClient, 'getProjectLabelSets' | 'createLabelSet' | 'updateLabelSet' | 'appendLabelItems' | 'deleteLabelSet'> &
  Partial<Pick<LabelingClient, 'request'>>;

/** How many applied labels use each label: label-set id → label id → count. */
export type AppliedLabelCounts = Readonly<Record<string, Readonly<Record<string, number>>>>;
