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
 * What a plan is computed and applied with: a client's `request` (a client made by
 * `createLabelingClient`, or a stand-in that answers the same documents).
 *
 * @remarks The room reaches the service only through `request` and the helpers of `labelkit`
 * (`getProjectLabelSets`, `createLabelSet`, `updateLabelSet`, `appendLabelItems`,
 * `deleteLabelSet`), and counts the applied labels a removal would take with the production
 * reads `getProjectCabinets` and `getLabelsPaginated` (see `countAppliedLabels`), again right
 * before writing.
 */
export type LabelSetsClient = Pick<LabelingClient, 'request'>;

/** How many applied labels use each label: label-set id → label id → count. */
export type AppliedLabelCounts = Readonly<Record<string, Readonly<Record<string, number>>>>;
