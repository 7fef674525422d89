import { LabelHierarchyError } from './errors.js';
import type { LabelItem, LabelSet } from './types.js';

/** One label in its hierarchy (the same object however it is reached). */
export interface LabelNode {
  readonly item: LabelItem;
  /** The labels whose `parentId` is this label's id, in the set's order. */
  readonly children: LabelNode[];
  /** 0 for a top-level label. */
  readonly depth: number;
  /** The names from the top down to this label, e.g. `['ENTITY', 'PERSON']` (a new array on each read). */
  readonly path: string[];
}

/** A label set's hierarchy with look-ups both ways; the maps by name and path are built on first read. */
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
 * @returns the tree: `roots`, each label's `children`, `byId`; the maps by name and path are
 * built on first read
 * @throws {@link LabelHierarchyError} listing every problem at once: duplicate ids, orphans (a
 * `parentId` that names no item of the set), cycles, and duplicate names (case-insensitive)
 * under one parent. It never loops, whatever the input.
 * @remarks A plain build over `Map`s, linear in the number of labels: one node per label, the
 * children in the set's order, depths from one breadth-first pass from the top (no recursion,
 * so a deep chain is fine). A node's `path` is made on each read, from its parents.
 * @example
 * ```ts
 * const [set] = await getLabelSets(client, cabinet.id);
 * const tree = buildLabelTree(set);
 * for (const root of tree.roots) console.log(root.item.labelName, root.children.length);
 * tree.find('PERSON')?.item.id; // the id of PERSON, whatever the case
 * ```
 */
export function buildLabelTree(set: LabelSet): LabelTree {
  const problems: string[] = [];
  const duplicateNames: string[] = []; // listed after the other problems, as the build has always listed them
  const byId = new Map<string, Node>();
  for (const item of set.labelItems) {
    if (byId.has(item.id)) problems.push(`duplicate label id ${item.id}`);
    else byId.set(item.id, new Node(item));
  }
  const roots: Node[] = [];
  const broken: Node[] = []; // orphans and self-parents: what hangs below them is reported through them
  const siblings = new Map<string, LabelItem>(); // parent id and folded name → the first item of that name there
  for (const node of byId.values()) {
    const { id, parentId, labelName } = node.item;
    const parent = parentId == null ? undefined : byId.get(parentId);
    if (parentId != null && (!parent || parent === node)) {
      problems.push(`label ${describe(node.item)} ${parent ? 'is its own parent (cycle)' : `has parent ${parentId}, which is not in the set (orphan)`}`);
      broken.push(node);
      if (parent) continue;
    } else (parent ? parent.children : roots).push(node);
    const key = JSON.stringify([parentId ?? null, labelName.toLowerCase()]);
    const other = siblings.get(key);
    if (other) duplicateNames.push(`duplicate name "${labelName}" ${parentId ? `under ${parentId}` : 'at the top level'} (ids ${other.id} and ${id})`);
    else siblings.set(key, node.item);
  }
  // Depths breadth first from the top and from the broken labels: a label not reached is on, or below, a cycle.
  const queue = [...roots, ...broken];
  for (const node of queue) {
    for (const child of node.children) {
      child.depth = node.depth + 1;
      parents.set(child, node);
      queue.push(child);
    }
  }
  const reached = new Set(queue);
  const onCycle = [...byId.values()].filter((node) => !reached.has(node)).map((node) => describe(node.item));
  if (onCycle.length > 0) {
    const more = onCycle.length > 20 ? ` and ${onCycle.length - 20} more` : '';
    problems.push(`labels ${onCycle.slice(0, 20).join(', ')}${more} form a cycle (no path to a top-level label)`);
  }
  problems.push(...duplicateNames);
  if (problems.length > 0) throw new LabelHierarchyError(set.id, problems);
  let idByName: Map<string, string> | undefined;
  let idByPath: Map<string, string> | undefined;
  const tree: LabelTree = {
    labelSetId: set.id,
    roots,
    byId,
    nameById: new Map(set.labelItems.map((item) => [item.id, item.labelName])),
    get idByName() {
      if (idByName) return idByName;
      const ids = new Map<string, string | null>();
      for (const { id, labelName } of set.labelItems) ids.set(labelName.toLowerCase(), ids.has(labelName.toLowerCase()) ? null : id);
      for (const [name, id] of ids) if (id === null) ids.delete(name);
      return (idByName = ids as Map<string, string>);
    },
    get idByPath() {
      return (idByPath ??= new Map([...byId.values()].map((node) => [node.path.join('/').toLowerCase(), node.item.id])));
    },
    // Arrow functions, not methods: `const { find } = buildLabelTree(set)` works too.
    find: (name) => byId.get(tree.idByName.get(name.toLowerCase()) ?? ''),
    findPath: (path) => byId.get(tree.idByPath.get(path.toLowerCase()) ?? ''),
  };
  return tree;
}

const describe = (item: LabelItem): string => `${item.id} ("${item.labelName}")`;

/** Each node's parent, kept off the node so that a node shows (and serialises) only downwards. */
const parents = new WeakMap<LabelNode, LabelNode>();

/** A {@link LabelNode}: its parent (in `parents`) makes `path` on each read. */
class Node implements LabelNode {
  readonly children: Node[] = [];
  depth = 0;
  constructor(readonly item: LabelItem) {}
  get path(): string[] {
    const names = [this.item.labelName];
    for (let node = parents.get(this); node; node = parents.get(node)) names.push(node.item.labelName);
    return names.reverse();
  }
}
