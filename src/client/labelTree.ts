import { LabelSetError } from './errors.js';
import type { LabelItem, LabelSet } from './types.js';

/** One label in its hierarchy. */
export interface LabelNode {
  readonly item: LabelItem;
  /** The labels whose `parentId` is this label's id, in the set's order. */
  readonly children: LabelNode[];
  /** 0 for a top-level label. */
  readonly depth: number;
  /** The names from the top down to this label, e.g. `['ENTITY', 'PERSON']` (built on first read). */
  readonly path: string[];
}

/** A label set's hierarchy with look-ups both ways; the maps are built on first read. */
export interface LabelTree {
  readonly labelSetId: string;
  /** Top-level labels (no parent), in the set's order. */
  readonly roots: LabelNode[];
  readonly byId: Map<string, LabelNode>;
  /**
   * Lower-cased label name → id, for names that are unique in the set (names compare
   * case-insensitively). A name used under two parents is only in `idByPath`.
   */
  readonly idByName: Map<string, string>;
  /** Lower-cased path joined with `/` (e.g. `entity/person`) → id; always unique. */
  readonly idByPath: Map<string, string>;
  /** Id → name. */
  readonly nameById: Map<string, string>;
  /**
   * Finds a label by its name in any case, as a model emits it.
   *
   * @param name - e.g. `'PERSON'`, `'person'` or `'Person'`
   * @returns the label, or `undefined` when no label, or more than one (under two parents), has that name
   * @example
   * ```ts
   * tree.find('PERSON')?.item.id;
   * ```
   */
  find(name: string): LabelNode | undefined;
  /**
   * Finds a label by the names from the top down, joined with `/`, in any case.
   *
   * @param path - e.g. `'ENTITY/PERSON'`
   * @returns the label, or `undefined` when no label has that path
   * @example
   * ```ts
   * tree.findPath('ENTITY/PERSON')?.depth; // 1
   * ```
   */
  findPath(path: string): LabelNode | undefined;
}

/**
 * Builds the hierarchy of a label set from each item's `parentId`.
 *
 * @param set - a label set from `getLabelSets`
 * @returns the tree; its maps by name (`idByName`, `nameById`, `idByPath`) are built on first read
 * @throws {@link LabelSetError} listing every problem at once: duplicate ids, orphans (a
 * `parentId` that names no item of the set), cycles, and duplicate names (case-insensitive)
 * under one parent. It never loops, whatever the input.
 * @example
 * ```ts
 * const [set] = await client.getLabelSets(cabinet.id);
 * const tree = buildLabelTree(set);
 * for (const root of tree.roots) console.log(root.item.labelName, root.children.length);
 * tree.find('PERSON')?.item.id; // the id of PERSON, whatever the case
 * ```
 */
export function buildLabelTree(set: LabelSet): LabelTree {
  const problems: string[] = [];
  const byId = new Map<string, TreeNode>();
  for (const item of set.labelItems) {
    if (byId.has(item.id)) problems.push(`duplicate label id ${item.id}`);
    else byId.set(item.id, new TreeNode(item));
  }

  const roots: TreeNode[] = [];
  let orphans: TreeNode[] | undefined;
  for (const node of byId.values()) {
    const parentId = node.item.parentId;
    if (parentId === null || parentId === undefined) {
      roots.push(node);
      continue;
    }
    const parent = byId.get(parentId);
    if (parent === node) problems.push(`label ${describe(node)} is its own parent (cycle)`);
    else if (parent) {
      node.parent = parent;
      parent.children.push(node);
    } else {
      problems.push(`label ${describe(node)} has parent ${parentId}, which is not in the set (orphan)`);
      (orphans ??= []).push(node);
    }
  }

  // Depths, depth first from each root with an explicit stack (a deep chain must not overflow
  // the call stack); the stack holds one path's siblings, not the whole set.
  let reached = 0;
  const stack: TreeNode[] = [];
  for (const root of roots) {
    root.depth = 0;
    stack.push(root);
    while (stack.length > 0) {
      const node = stack.pop()!;
      reached++;
      for (const child of node.children) {
        child.depth = node.depth + 1;
        stack.push(child);
      }
    }
  }
  // Whatever was not reached hangs below an orphan (already reported) or has no way up at all: it
  // sits on, or below, a cycle. One pass, each node classified once.
  if (reached < byId.size) {
    const onCycle = unreachable(byId).filter((n) => !isOrphanOrSelf(n, byId));
    if (onCycle.length > 0) {
      const shown = onCycle.slice(0, 20).map(describe).join(', ');
      const more = onCycle.length > 20 ? ` and ${onCycle.length - 20} more` : '';
      problems.push(`labels ${shown}${more} form a cycle (no path to a top-level label)`);
    }
  }
  problems.push(...duplicateNames(set, byId, roots, orphans));
  if (problems.length > 0) throw new LabelSetError(set.id, problems);

  // The maps by name are built on first read: most callers read one of them, or none.
  let idByName: Map<string, string> | undefined;
  let nameById: Map<string, string> | undefined;
  let idByPath: Map<string, string> | undefined;
  const nodeOf = (id: string | undefined) => (id === undefined ? undefined : byId.get(id));
  const tree: LabelTree = {
    labelSetId: set.id,
    roots,
    byId,
    get idByName() {
      if (idByName) return idByName;
      const count = new Map<string, number>();
      for (const node of byId.values()) count.set(node.lowerName, (count.get(node.lowerName) ?? 0) + 1);
      idByName = new Map();
      for (const node of byId.values()) if (count.get(node.lowerName) === 1) idByName.set(node.lowerName, node.item.id);
      return idByName;
    },
    get nameById() {
      if (nameById) return nameById;
      nameById = new Map();
      for (const node of byId.values()) nameById.set(node.item.id, node.item.labelName);
      return nameById;
    },
    get idByPath() {
      if (idByPath) return idByPath;
      idByPath = new Map();
      for (const node of byId.values()) idByPath.set(node.path.join('/').toLowerCase(), node.item.id);
      return idByPath;
    },
    // Not methods on `this`: `const { find } = buildLabelTree(set)` works too.
    find: (name) => nodeOf(tree.idByName.get(name.toLowerCase())),
    findPath: (path) => nodeOf(tree.idByPath.get(path.toLowerCase())),
  };
  return tree;
}

/**
 * The duplicate names (case-insensitive) among siblings, in the set's order. One map serves every
 * group of siblings in turn, emptied after each (so it never grows beyond the largest group);
 * an only child is neither looked up nor lower-cased.
 */
function duplicateNames(set: LabelSet, byId: Map<string, TreeNode>, roots: TreeNode[], orphans: TreeNode[] | undefined): string[] {
  const found: TreeNode[][] = [];
  const names = new Map<string, TreeNode>();
  const check = (group: readonly TreeNode[]) => {
    if (group.length < 2) return;
    for (const node of group) {
      const earlier = names.get(node.lowerName);
      if (earlier) found.push([earlier, node]);
      else names.set(node.lowerName, node);
    }
    names.clear();
  };
  check(roots);
  for (const node of byId.values()) check(node.children);
  if (orphans) {
    const byParent = new Map<string, TreeNode[]>();
    for (const node of orphans) byParent.set(node.item.parentId!, [...(byParent.get(node.item.parentId!) ?? []), node]);
    for (const group of byParent.values()) check(group);
  }
  if (found.length === 0) return [];
  const order = new Map(set.labelItems.map((item, i) => [item, i]));
  found.sort((a, b) => order.get(a[1]!.item)! - order.get(b[1]!.item)!);
  return found.map(([earlier, node]) => {
    const parentId = node!.item.parentId;
    const where = parentId ? `under ${parentId}` : 'at the top level';
    return `duplicate name "${node!.item.labelName}" ${where} (ids ${earlier!.item.id} and ${node!.item.id})`;
  });
}

/**
 * A label in its tree. `parent` is internal (not part of {@link LabelNode}); `path` is built on
 * first read: eager paths cost O(depth) each, so O(n²) on a deep chain. A class rather than a
 * WeakMap of parents: the WeakMap was a third of the time on 50,000 labels. Few fields: building
 * the tree of a large set is mostly allocation and garbage collection.
 */
class TreeNode implements LabelNode {
  children: TreeNode[] = [];
  /** -1 until reached from a root. */
  depth = -1;
  parent: TreeNode | undefined = undefined;
  private cachedPath: string[] | undefined = undefined;
  private cachedLower: string | undefined = undefined;
  constructor(readonly item: LabelItem) {}
  /** The name, lower-cased (names compare case-insensitively). */
  get lowerName(): string {
    return (this.cachedLower ??= this.item.labelName.toLowerCase());
  }
  get path(): string[] {
    if (this.cachedPath) return this.cachedPath;
    // Iteratively up to the top (no recursion, so a deep chain cannot overflow the stack).
    const names = [this.item.labelName];
    for (let current = this.parent; current; current = current.parent) names.push(current.item.labelName);
    return (this.cachedPath = names.reverse());
  }
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
function unreachable(byId: Map<string, TreeNode>): TreeNode[] {
  // true: below an orphan or a self-parent; false: on or below a cycle.
  const broken = new Map<string, boolean>();
  for (const start of byId.values()) {
    if (start.depth >= 0 || broken.has(start.item.id)) continue;
    const walk: string[] = [];
    const inWalk = new Set<string>();
    let current: TreeNode | undefined = start;
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
  return [...byId.values()].filter((n) => n.depth < 0 && broken.get(n.item.id) === false);
}
