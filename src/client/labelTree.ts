import { LabelSetError } from './errors.js';
import type { LabelItem, LabelSet } from './types.js';

/** One label in its hierarchy. */
export interface LabelNode {
  item: LabelItem;
  /** The labels whose `parentId` is this label's id, in the set's order. */
  children: LabelNode[];
  /** 0 for a top-level label. */
  depth: number;
  /** The names from the top down to this label, e.g. `['ENTITY', 'PERSON']` (built on first read). */
  readonly path: string[];
}

/** A label set's hierarchy with look-ups both ways. */
export interface LabelTree {
  labelSetId: string;
  /** Top-level labels (no parent), in the set's order. */
  roots: LabelNode[];
  byId: Map<string, LabelNode>;
  /**
   * Lower-cased label name → id, for names that are unique in the set (names compare
   * case-insensitively). A name used under two parents is only in `idByPath`.
   */
  idByName: Map<string, string>;
  /** Lower-cased path joined with `/` (e.g. `entity/person`) → id; always unique. */
  idByPath: Map<string, string>;
  /** Id → name. */
  nameById: Map<string, string>;
}

/**
 * Builds the hierarchy of a label set from each item's `parentId`.
 *
 * @param set - a label set from `getLabelSets`
 * @returns the tree, with name↔id maps
 * @throws {@link LabelSetError} listing every problem at once: duplicate ids, orphans (a
 * `parentId` that names no item of the set), cycles, and duplicate names (case-insensitive)
 * under one parent. It never loops, whatever the input.
 * @example
 * ```ts
 * const [set] = await client.getLabelSets(cabinet.id);
 * const tree = buildLabelTree(set);
 * for (const root of tree.roots) console.log(root.item.labelName, root.children.length);
 * tree.idByName.get('person'); // the id of PERSON
 * ```
 */
export function buildLabelTree(set: LabelSet): LabelTree {
  const problems: string[] = [];
  const byId = new Map<string, LabelNode>();
  for (const item of set.labelItems) {
    if (byId.has(item.id)) problems.push(`duplicate label id ${item.id}`);
    else byId.set(item.id, makeNode(item));
  }

  const roots: LabelNode[] = [];
  for (const node of byId.values()) {
    const parentId = node.item.parentId;
    if (parentId === null || parentId === undefined) roots.push(node);
    else if (!byId.has(parentId)) problems.push(`label ${describe(node)} has parent ${parentId}, which is not in the set (orphan)`);
    else if (parentId === node.item.id) problems.push(`label ${describe(node)} is its own parent (cycle)`);
    else byId.get(parentId)!.children.push(node);
  }

  // Walk down from the roots (iteratively: a deep chain must not overflow the stack). The key of
  // idByPath grows by concatenation, so a deep chain costs no repeated joins.
  const reached = new Set<string>();
  const idByPath = new Map<string, string>();
  const stack = roots.map((node) => ({ node, depth: 0, key: '' }));
  while (stack.length > 0) {
    const { node, depth, key } = stack.pop()!;
    reached.add(node.item.id);
    node.depth = depth;
    const own = key === '' ? node.item.labelName.toLowerCase() : `${key}/${node.item.labelName.toLowerCase()}`;
    idByPath.set(own, node.item.id);
    for (const child of node.children) {
      parentOf.set(child, node);
      stack.push({ node: child, depth: depth + 1, key: own });
    }
  }
  // Whatever was not reached hangs below an orphan (already reported) or has no way up at all: it
  // sits on, or below, a cycle. One pass, each node classified once.
  const onCycle = unreachable(byId, reached).filter((n) => !isOrphanOrSelf(n, byId));
  if (onCycle.length > 0) {
    const shown = onCycle.slice(0, 20).map(describe).join(', ');
    const more = onCycle.length > 20 ? ` and ${onCycle.length - 20} more` : '';
    problems.push(`labels ${shown}${more} form a cycle (no path to a top-level label)`);
  }

  for (const siblings of [roots, ...[...byId.values()].map((n) => n.children)]) {
    const seen = new Map<string, LabelNode>();
    for (const node of siblings) {
      const key = node.item.labelName.toLowerCase();
      const first = seen.get(key);
      if (first) {
        const parent = node.item.parentId ? `under ${node.item.parentId}` : 'at the top level';
        problems.push(`duplicate name "${node.item.labelName}" ${parent} (ids ${first.item.id} and ${node.item.id})`);
      } else seen.set(key, node);
    }
  }
  if (problems.length > 0) throw new LabelSetError(set.id, problems);

  const nameCount = new Map<string, number>();
  const nameById = new Map<string, string>();
  for (const node of byId.values()) {
    const key = node.item.labelName.toLowerCase();
    nameCount.set(key, (nameCount.get(key) ?? 0) + 1);
    nameById.set(node.item.id, node.item.labelName);
  }
  const idByName = new Map<string, string>();
  for (const node of byId.values()) {
    const key = node.item.labelName.toLowerCase();
    if (nameCount.get(key) === 1) idByName.set(key, node.item.id);
  }
  return { labelSetId: set.id, roots, byId, idByName, idByPath, nameById };
}

const parentOf = new WeakMap<LabelNode, LabelNode>();

/** A node whose `path` is built when first read: eager paths cost O(depth) each, so O(n²) on a deep chain. */
function makeNode(item: LabelItem): LabelNode {
  let path: string[] | undefined;
  return {
    item,
    children: [],
    depth: 0,
    get path(): string[] {
      if (path) return path;
      // Iteratively up to the top (no recursion, so a deep chain cannot overflow the stack).
      const names: string[] = [];
      let current: LabelNode | undefined = this;
      while (current) {
        names.push(current.item.labelName);
        current = parentOf.get(current);
      }
      return (path = names.reverse());
    },
  };
}

function describe(node: LabelNode): string {
  return `${node.item.id} ("${node.item.labelName}")`;
}

function isOrphanOrSelf(node: LabelNode, byId: Map<string, LabelNode>): boolean {
  const parentId = node.item.parentId ?? '';
  return !byId.has(parentId) || parentId === node.item.id;
}

/**
 * The unreached labels that are not below an orphan or a self-parent (those are reported
 * already), in the set's order. Each walk up stops at a label classified before, so the whole
 * pass is linear even for one long cycle.
 */
function unreachable(byId: Map<string, LabelNode>, reached: Set<string>): LabelNode[] {
  // true: below an orphan or a self-parent; false: on or below a cycle.
  const broken = new Map<string, boolean>();
  for (const start of byId.values()) {
    if (reached.has(start.item.id) || broken.has(start.item.id)) continue;
    const walk: string[] = [];
    const inWalk = new Set<string>();
    let current: LabelNode | undefined = start;
    let verdict = false;
    while (current) {
      const id = current.item.id;
      const known = broken.get(id);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      if (inWalk.has(id)) break; // closed a cycle
      walk.push(id);
      inWalk.add(id);
      const parentId = current.item.parentId;
      if (parentId === null || parentId === undefined || parentId === id || !byId.has(parentId)) {
        verdict = parentId !== null && parentId !== undefined; // orphan or self-parent
        break;
      }
      current = byId.get(parentId);
    }
    for (const id of walk) broken.set(id, verdict);
  }
  return [...byId.values()].filter((n) => !reached.has(n.item.id) && broken.get(n.item.id) === false);
}
