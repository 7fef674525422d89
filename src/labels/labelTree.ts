import { LabelHierarchyError } from 'labelkit';
import type { LabelItem, LabelSet } from 'labelkit';
import { labelItemProblems } from '../shared/labelItemRules.js';

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
 * @throws `LabelHierarchyError` (of `labelkit`, code `LABEL_SET`) listing every problem at once, in the words of the label-item
 * rules' one home (`labelItemProblems` of src/shared/labelItemRules.ts, blank text compared too):
 * duplicate ids, duplicate names (case-insensitive) under one parent, orphans (a `parentId` that
 * names no item of the set), labels their own parent, and each label of a cycle. It never loops,
 * whatever the input.
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
  const items = set.labelItems;
  const refer = (i: number) => `label ${items[i]!.id} ("${items[i]!.labelName}")`;
  const problems = labelItemProblems(items, { fields: { name: 'labelName' }, colors: 'any', blanks: true, refer });
  if (problems.length > 0) throw new LabelHierarchyError(set.id, problems.map((p) => `${refer(p.index)}, ${p.field === 'name' ? 'labelName' : p.field}: ${p.message}`));
  // Ids are unique, every parent is in the set and no chain is a cycle: each label hangs below its parent.
  const byId = new Map(items.map((item) => [item.id, new TreeNode(item)]));
  const roots: TreeNode[] = [];
  for (const node of byId.values()) {
    const parent = node.item.parentId == null ? undefined : byId.get(node.item.parentId);
    if (parent) parents.set(node, parent);
    (parent ? parent.children : roots).push(node);
  }
  const queue = [...roots];
  for (const node of queue) for (const child of node.children) queue.push(Object.assign(child, { depth: node.depth + 1 }));
  let idByName: Map<string, string> | undefined;
  let idByPath: Map<string, string> | undefined;
  const tree: LabelTree = {
    labelSetId: set.id,
    roots,
    byId,
    nameById: new Map(items.map((item) => [item.id, item.labelName])),
    get idByName() {
      if (idByName) return idByName;
      const ids = new Map<string, string | null>();
      for (const { id, labelName } of items) ids.set(labelName.toLowerCase(), ids.has(labelName.toLowerCase()) ? null : id);
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

/** Each node's parent, kept off the node so that a node shows (and serialises) only downwards. */
const parents = new WeakMap<LabelNode, LabelNode>();

/** A {@link LabelNode}: its parent (in `parents`) makes `path` on each read. */
class TreeNode implements LabelNode {
  readonly children: TreeNode[] = [];
  depth = 0;
  constructor(readonly item: LabelItem) {}
  get path(): string[] {
    const names = [this.item.labelName];
    for (let node = parents.get(this); node; node = parents.get(node)) names.push(node.item.labelName);
    return names.reverse();
  }
}
