import type { CallOptions, LabelItem, LabelSet, Role } from '../client/index.js';

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
export interface LabelItemWrite {
  id: string;
  parentId?: string | null;
  labelName: string;
  color?: string | null;
  desc?: string | null;
}

/** A label sent to `appendLabelItems`: top level only; the service makes an id when none is given. */
export interface NewLabelItemWrite {
  id?: string;
  labelName: string;
  color?: string | null;
  desc?: string | null;
}

/**
 * The client methods a plan is computed and applied with: a structural view of `LabelingClient`
 * (entry `labelkit`), so any object with these methods will do (a test double, a wrapper).
 *
 * @remarks Only `getProjectLabelSets` is needed to plan; the writes are needed to apply.
 * `getAppliedLabelCounts`, when the client has it, gives the plan real counts of the applied
 * labels a step would remove.
 */
export interface LabelSetsClient {
  getProjectLabelSets(projectId: string, role: Role, options?: CallOptions): Promise<LabelSet[]>;
  createLabelSet(
    projectId: string,
    input: { index: number; name: string; labelItems: LabelItemWrite[]; arrowLabelRequired?: boolean },
    options?: CallOptions,
  ): Promise<LabelSet>;
  updateLabelSet(
    input: { id: string; projectId: string; labelSetSignature?: string; name?: string; labelItems?: LabelItemWrite[] },
    options?: CallOptions,
  ): Promise<LabelSet>;
  appendLabelItems(
    input: { labelSetId: string; labelSetSignature?: string; labelItems: NewLabelItemWrite[] },
    options?: CallOptions,
  ): Promise<LabelItem[]>;
  deleteLabelSet(id: string, options?: CallOptions): Promise<string[]>;
}

/** How many applied labels use each label: label-set id → label id → count. */
export type AppliedLabelCounts = Readonly<Record<string, Readonly<Record<string, number>>>>;
