import type { LabelSet, Role } from 'labelkit';
import { parentIndexes, pathText } from './checkLabelSets.js';
import type { ValuePath } from './checkLabelSets.js';
import { LabelSetsPlanError } from './errors.js';
import { fingerprintLabelSet } from './fingerprint.js';
import type { LiveLabelItem } from './fingerprint.js';
import { describeWrite } from './formatPlan.js';
import { PLAN_FORMAT } from './plan.js';
import type { LabelSetPlan, PlanItem, PlanStep, PlanStepKind, PlanWrite } from './plan.js';
import type { AppliedLabelCounts, LabelItemSpec, LabelItemWrite, LabelSetSpec } from './types.js';
import { requestLimitText, writeRequestBytes } from './writeSize.js';
import { MAX_BODY_BYTES } from '../shared/constants.js';

/** Options of {@link diffLabelSets}. */
export interface DiffOptions {
  /** Applied labels per label (set id → label id → count); a set left out has unknown counts. */
  appliedLabels?: AppliedLabelCounts;
  /** Names the place of a value of the desired document, e.g. `labels.yaml:12`, for messages. */
  where?: (path: ValuePath) => string;
}

/** A desired label, the live label it is (if any), its id (made for a new one), and its parent's index in the desired list. */
type Matched = { spec: LabelItemSpec; live: LiveLabelItem | undefined; id: string | null; parent: number | null };

/**
 * Computes the plan that brings live label sets to desired ones: pure, no network.
 *
 * @param projectId - the project the sets belong to (kept in the plan)
 * @param role - the cabinet's role (kept in the plan)
 * @param live - the sets as read from the service
 * @param desired - the sets as they should be (checked: see `checkLabelSets`)
 * @param options - applied-label counts, and how to name places in the file
 * @returns the plan; it has no write when nothing differs
 * @throws {@link LabelSetsPlanError} listing every reason the desired sets cannot be reached:
 * a set `id` the project does not have, a set that would move to another index, a write larger
 * than a request to the service may carry (`MAX_BODY_BYTES`, 1 MiB; see `writeRequestBytes`)
 * @remarks **Sets** are matched by `id`, or, without one, by `index`; a live set that nothing
 * matches is deleted. **Labels** are matched by `id`. A label without an id takes the id of the
 * live label of the same name (case-insensitive) that no other label claims: under the same
 * parent first, else the only one of that name in the set; otherwise it is new. A live label
 * that nothing matches is removed. **Writes**: a set whose only changes are new top-level
 * labels (and maybe its name) gets `appendLabelItems` (which keeps everything; the service
 * makes the ids of labels given without one) after a name-only `updateLabelSet`; any other
 * change is one `updateLabelSet` with the whole list (it replaces the set's labels: labels
 * without an id get one made from their name, e.g. `date`, `date-2`). A new set is one
 * `createLabelSet`. Order: updates, then creations, then deletions, each by index, so that
 * nothing is destroyed before everything else has been written. `color`/`desc` left out of
 * a label keep what the service has. Label order is not compared.
 * @example
 * ```ts
 * const plan = diffLabelSets('p', 'LABELER', await getProjectLabelSets(client, 'p', 'LABELER'), spec.labelSets);
 * plan.steps.map((s) => s.kind); // ['rename-items', 'remove-items']
 * ```
 */
export function diffLabelSets(projectId: string, role: Role, live: readonly LabelSet[], desired: readonly LabelSetSpec[], options: DiffOptions = {}): LabelSetPlan {
  const where = (path: ValuePath) => (options.where ? `${options.where(path)}: ` : `${pathText(path)}: `);
  const problems: string[] = [];
  const liveById = new Map(live.map((set) => [set.id, set]));
  const claimed = new Set<string>();
  const pairs = desired.map((spec, d) => {
    let match: LabelSet | undefined;
    if (spec.id !== undefined) {
      match = liveById.get(spec.id);
      if (!match) problems.push(`${where(['labelSets', d, 'id'])}label set id "${spec.id}" is not in the project (deleted since the file was pulled?): leave the id out to create the set anew`);
    }
    if (match) claimed.add(match.id);
    return { spec, d, live: match };
  });
  for (const pair of pairs) {
    if (pair.spec.id !== undefined) continue;
    const atIndex = live.find((set) => set.index === pair.spec.index && !claimed.has(set.id));
    if (atIndex) {
      pair.live = atIndex;
      claimed.add(atIndex.id);
    }
  }
  for (const { spec, d, live: set } of pairs) {
    if (set && set.index !== spec.index) {
      problems.push(
        `${where(['labelSets', d, 'index'])}label set "${set.name}" (id ${set.id}) cannot move from index ${set.index} to ${spec.index}: the service cannot move a set (deleting and creating it anew would remove its applied labels)`,
      );
    }
  }
  if (problems.length > 0) throw new LabelSetsPlanError(problems);

  const plan: LabelSetPlan = {
    format: PLAN_FORMAT,
    version: 2,
    projectId,
    role,
    against: [...live].sort((a, b) => a.index - b.index).map(fingerprintLabelSet),
    desired: [...desired],
    steps: [],
    writes: [],
    warnings: [],
  };
  const counted = (setId: string, itemId: string): number | null => {
    const bySet = options.appliedLabels?.[setId];
    return bySet ? (bySet[itemId] ?? 0) : null;
  };
  const addWrite = (write: PlanWrite) => plan.writes.push(write) - 1;
  const addStep = (step: Omit<PlanStep, 'destroysLabels' | 'appliedLabels'> & { appliedLabels?: number | null }) => {
    const appliedLabels = step.appliedLabels === undefined ? 0 : step.appliedLabels;
    plan.steps.push({ ...step, destroysLabels: appliedLabels !== 0, appliedLabels });
  };
  const byIndex = <T extends { spec: LabelSetSpec }>(list: T[]) => [...list].sort((a, b) => a.spec.index - b.spec.index);

  for (const { spec, d, live: set } of byIndex(pairs)) {
    if (!set) continue;
    const stepsBefore = plan.steps.length;
    diffSet(set, spec, d);
    // Only where the plan changes the set: then it may undo a change made since the pull.
    if (plan.steps.length > stepsBefore && spec.signature && set.signature && spec.signature !== set.signature) {
      plan.warnings.push(
        `${where(['labelSets', d, 'signature'])}label set "${set.name}" changed on the service since the file was pulled (signature ${spec.signature} → ${set.signature}): where the file differs, the plan undoes those changes (pull again to see them)`,
      );
    }
  }
  for (const { spec } of byIndex(pairs)) {
    if (pairs.find((p) => p.spec === spec)!.live) continue;
    const taken = new Set(spec.labelItems.flatMap((item) => (item.id === undefined ? [] : [item.id])));
    const ids = spec.labelItems.map((item) => item.id ?? newItemId(item.labelName, taken));
    const parents = parentIndexes(spec.labelItems);
    const labelItems = spec.labelItems.map((item, i) => itemWrite(item, undefined, ids[i]!, typeof parents[i] === 'number' ? ids[parents[i]]! : null));
    const write = addWrite({ op: 'create', setIndex: spec.index, name: spec.name, labelItems });
    addStep({ kind: 'create-set', setIndex: spec.index, setId: null, setName: spec.name, items: labelItems.map((i) => ({ id: i.id, labelName: i.labelName })), write });
  }
  for (const set of [...live].sort((a, b) => a.index - b.index)) {
    if (claimed.has(set.id)) continue;
    const items: PlanItem[] = set.labelItems.map((item) => ({ id: item.id, labelName: item.labelName, appliedLabels: counted(set.id, item.id) }));
    const write = addWrite({ op: 'delete', setIndex: set.index, setId: set.id });
    addStep({ kind: 'delete-set', setIndex: set.index, setId: set.id, setName: set.name, items, appliedLabels: sum(items), write });
  }
  // Each write is one request: one the service cannot take would fail at apply, every time.
  const tooLarge = plan.writes.flatMap((write, i) => {
    const bytes = writeRequestBytes(projectId, write);
    if (bytes <= MAX_BODY_BYTES) return [];
    const d = pairs.find((p) => p.spec.index === write.setIndex)?.d;
    const at = d === undefined ? '' : where(['labelSets', d, 'labelItems']);
    const labels = 'labelItems' in write && write.labelItems ? ` (${write.labelItems.length} labels)` : '';
    return [
      `${at}the write "${describeWrite(plan, i)}" would send about ${(bytes / 1_048_576).toFixed(1)} MiB${labels}, more than the ${requestLimitText()} a request to the service may carry: ` +
        'it cannot be applied; make the set smaller (new top-level labels of an existing set may be added over several applies: an append sends only them)',
    ];
  });
  if (tooLarge.length > 0) throw new LabelSetsPlanError(tooLarge);
  return plan;

  /** The steps and writes of one set that exists on both sides. */
  function diffSet(set: LabelSet, spec: LabelSetSpec, d: number): void {
    const liveItems = set.labelItems as readonly LiveLabelItem[];
    const matched = matchItems(liveItems, spec.labelItems);
    const claimedIds = new Set(matched.flatMap((m) => (m.live ? [m.live.id] : [])));
    const removed = liveItems.filter((item) => !claimedIds.has(item.id));
    // New labels get their ids now (a label's parent may be one); an append sends none and lets the service make them.
    const taken = new Set([...liveItems.map((i) => i.id), ...spec.labelItems.flatMap((i) => (i.id === undefined ? [] : [i.id]))]);
    const added = matched.filter((m) => !m.live);
    for (const m of added) m.id = m.spec.id ?? newItemId(m.spec.labelName, taken);
    const parentIdOf = (m: Matched) => (m.parent === null ? null : matched[m.parent]!.id);
    for (const m of matched) {
      const clash = !m.live && m.spec.id !== undefined && removed.find((r) => sameName(r, m.spec) && (r.parentId ?? null) === parentIdOf(m));
      if (clash) {
        plan.warnings.push(
          `${where(['labelSets', d, 'labelItems', spec.labelItems.indexOf(m.spec), 'id'])}"${m.spec.labelName}" has id "${m.spec.id}", which the set does not have, so it replaces the live "${clash.labelName}" (id ${clash.id}) and that one's applied labels go; leave the id out (or give ${clash.id}) to keep them`,
        );
      }
    }
    const liveName = new Map(liveItems.map((item) => [item.id, item.labelName]));
    const changed = (pick: (m: Matched & { live: LiveLabelItem }) => PlanItem | undefined) =>
      matched.flatMap((m) => (m.live ? (pick(m as Matched & { live: LiveLabelItem }) ?? []) : []));
    const renamed = changed(({ live: l, spec: s }) => (l.labelName !== s.labelName ? { id: l.id, labelName: s.labelName, from: l.labelName, to: s.labelName } : undefined));
    const recoloured = changed(({ live: l, spec: s }) =>
      s.color !== undefined && (l.color ?? null) !== s.color ? { id: l.id, labelName: s.labelName, from: l.color ?? null, to: s.color } : undefined,
    );
    const reparented = changed((m) => {
      const from = m.live.parentId ?? null;
      const to = parentIdOf(m);
      if (from === to) return undefined;
      const toParent = m.parent === null ? null : matched[m.parent]!.spec.labelName;
      return { id: m.live.id, labelName: m.spec.labelName, from, to, fromParent: from === null ? null : (liveName.get(from) ?? from), toParent };
    });
    const described = changed(({ live: l, spec: s }) =>
      s.desc !== undefined && (l.desc ?? null) !== s.desc ? { id: l.id, labelName: s.labelName, from: l.desc ?? null, to: s.desc } : undefined,
    );
    const renamesSet = set.name !== spec.name;
    const others = renamed.length + recoloured.length + reparented.length + described.length + removed.length;
    if (!renamesSet && added.length === 0 && others === 0) return;

    const base = { setIndex: set.index, setId: set.id, setName: spec.name };
    const step = (kind: PlanStepKind, items: PlanItem[], write: number, extra: { appliedLabels?: number | null } = {}) => {
      if (kind === 'rename-set' ? renamesSet : items.length > 0) addStep({ kind, ...base, items, write, ...(kind === 'rename-set' && { previousSetName: set.name }), ...extra });
    };
    if (others === 0 && added.every((m) => m.parent === null)) {
      // Only new top-level labels (and maybe the name): keep everything, let the service make ids.
      // The name first: its answer carries the signature the append then sends.
      if (renamesSet) step('rename-set', [], addWrite({ op: 'update', setIndex: set.index, setId: set.id, name: spec.name }));
      if (added.length > 0) {
        const labelItems = added.map(({ spec: s }) => ({ ...(s.id !== undefined && { id: s.id }), labelName: s.labelName, ...optional(s, undefined) }));
        step('add-items', added.map(({ spec: s }) => ({ id: s.id ?? null, labelName: s.labelName })), addWrite({ op: 'append', setIndex: set.index, setId: set.id, labelItems }));
      }
      return;
    }
    const labelItems = matched.map((m) => itemWrite(m.spec, m.live, m.id!, parentIdOf(m)));
    const write = addWrite({ op: 'update', setIndex: set.index, setId: set.id, ...(renamesSet && { name: spec.name }), labelItems });
    step('rename-set', [], write);
    step('add-items', added.map((m) => ({ id: m.id, labelName: m.spec.labelName })), write);
    step('rename-items', renamed, write);
    step('recolour-items', recoloured, write);
    step('reparent-items', reparented, write);
    step('describe-items', described, write);
    const removedItems = removed.map((item) => ({ id: item.id, labelName: item.labelName, appliedLabels: counted(set.id, item.id) }));
    step('remove-items', removedItems, write, { appliedLabels: sum(removedItems) });
  }
}

/**
 * Each desired label with the live label it is (by id, or by name when it has no id), or none
 * when new; and the index of its parent (by `parentId` or `parent`: see `parentIndexes`).
 */
function matchItems(liveItems: readonly LiveLabelItem[], specs: readonly LabelItemSpec[]): Matched[] {
  const liveById = new Map(liveItems.map((item) => [item.id, item]));
  const claimed = new Set<string>();
  const parents = parentIndexes(specs);
  const matched: Matched[] = specs.map((spec, i) => {
    const live = spec.id === undefined ? undefined : liveById.get(spec.id);
    if (live) claimed.add(live.id);
    return { spec, live, id: live?.id ?? spec.id ?? null, parent: parents[i] ?? null };
  });
  // By name, parents before children: a child looks first under the live label its parent matched.
  const depth = (m: Matched): number => (m.parent === null ? 0 : 1 + depth(matched[m.parent]!));
  for (const m of [...matched].sort((a, b) => depth(a) - depth(b))) {
    if (m.spec.id !== undefined) continue;
    const free = liveItems.filter((item) => !claimed.has(item.id) && sameName(item, m.spec));
    const parentId = m.parent === null ? null : (matched[m.parent]!.id ?? NO_LIVE_PARENT);
    const here = free.find((item) => (item.parentId ?? null) === parentId);
    const live = here ?? (free.length === 1 ? free[0] : undefined);
    if (live) {
      m.live = live;
      m.id = live.id;
      claimed.add(live.id);
    }
  }
  return matched;
}

const sameName = (a: { labelName: string }, b: { labelName: string }) => a.labelName.toLowerCase() === b.labelName.toLowerCase();

/** `color` and `desc` as they will be: the file's when it gives them, else the service's. */
function optional(spec: LabelItemSpec, live: LiveLabelItem | undefined): { color?: string | null; desc?: string | null } {
  const color = spec.color !== undefined ? spec.color : live?.color;
  const desc = spec.desc !== undefined ? spec.desc : live?.desc;
  return { ...(color !== undefined && { color }), ...(desc !== undefined && { desc }) };
}

function itemWrite(spec: LabelItemSpec, live: LiveLabelItem | undefined, id: string, parentId: string | null): LabelItemWrite {
  return { id, parentId, labelName: spec.labelName, ...optional(spec, live) };
}

/** The parent of a label whose parent is new: no live label has it. */
const NO_LIVE_PARENT = '\u0000new';

function sum(items: readonly PlanItem[]): number | null {
  let total = 0;
  for (const item of items) {
    if (item.appliedLabels === null || item.appliedLabels === undefined) return null;
    total += item.appliedLabels;
  }
  return total;
}

/**
 * An id for a new label sent in a whole list (where the service needs one): its name as a
 * slug, numbered when taken (`date`, `date-2`).
 */
function newItemId(name: string, taken: Set<string>): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'label';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}
