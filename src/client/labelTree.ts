import { LabelSetError } from './errors.js';
import type { LabelItem, LabelSet } from './types.js';

/** One label in its hierarchy. */
export interface LabelNode {
  item: LabelItem;
  /** The labels whose `parentId` is this label's id, in the set's order. */
  children: LabelNode[];
  /** 0 for a top-level label. */
  depth: number;
  /** The names from the top down to this label, e.g. `['ENTITY', 'PERSON']`. */
  path: string[];
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
    else byId.set(item.id, { item, children: [], depth: 0, path: [] });
  }

  const roots: LabelNode[] = [];
  for (const node of byId.values()) {
    const parentId = node.item.parentId;
    if (parentId === null || parentId === undefined) roots.push(node);
    else if (!byId.has(parentId)) problems.push(`label ${describe(node)} has parent ${parentId}, which is not in the set (orphan)`);
    else if (parentId === node.item.id) problems.push(`label ${describe(node)} is its own parent (cycle)`);
    else byId.get(parentId)!.children.push(node);
  }

  // Walk down from the roots; whatever is not reached (and is no orphan) sits on a cycle.
  const reached = new Set<string>();
  const stack = roots.map((node) => ({ node, depth: 0, path: [] as string[] }));
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop()!;
    reached.add(node.item.id);
    node.depth = depth;
    node.path = [...path, node.item.labelName];
    for (const child of node.children) stack.push({ node: child, depth: depth + 1, path: node.path });
  }
  const orphanOrSelf = (n: LabelNode) => !byId.has(n.item.parentId ?? '') || n.item.parentId === n.item.id;
  const onCycle = [...byId.values()].filter((n) => !reached.has(n.item.id) && !orphanOrSelf(n) && !hasBrokenAncestor(n, byId));
  if (onCycle.length > 0) problems.push(`labels ${onCycle.map(describe).join(', ')} form a cycle (no path to a top-level label)`);

  const nameCount = new Map<string, number>();
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

  const idByName = new Map<string, string>();
  const idByPath = new Map<string, string>();
  const nameById = new Map<string, string>();
  for (const node of byId.values()) {
    const key = node.item.labelName.toLowerCase();
    nameCount.set(key, (nameCount.get(key) ?? 0) + 1);
    idByPath.set(node.path.join('/').toLowerCase(), node.item.id);
    nameById.set(node.item.id, node.item.labelName);
  }
  for (const node of byId.values()) {
    const key = node.item.labelName.toLowerCase();
    if (nameCount.get(key) === 1) idByName.set(key, node.item.id);
  }
  return { labelSetId: set.id, roots, byId, idByName, idByPath, nameById };
}

function describe(node: LabelNode): string {
  return `${node.item.id} ("${node.item.labelName}")`;
}

/** True when some ancestor of `node` is an orphan (so it is unreachable, but not on a cycle). */
function hasBrokenAncestor(node: LabelNode, byId: Map<string, LabelNode>): boolean {
  const seen = new Set<string>();
  let current: LabelNode | undefined = node;
  while (current && !seen.has(current.item.id)) {
    seen.add(current.item.id);
    const parentId = current.item.parentId;
    if (parentId === null || parentId === undefined) return false;
    const parent = byId.get(parentId);
    if (!parent) return true;
    current = parent;
  }
  return false;
}
