import { LabelSetError } from './errors.js';
import type { LabelItem, LabelSet } from './types.js';

/** One label in its hierarchy (made on first access, then the same object on every read). */
export interface LabelNode {
  readonly item: LabelItem;
  /** The labels whose `parentId` is this label's id, in the set's order (made on first read). */
  readonly children: LabelNode[];
  /** 0 for a top-level label. */
  readonly depth: number;
  /** The names from the top down to this label, e.g. `['ENTITY', 'PERSON']` (a new array on each read). */
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
 * @returns the tree: `roots`, then each label's `children`, as objects made on first access;
 * `byId` and the maps by name are built on first read
 * @throws {@link LabelSetError} listing every problem at once: duplicate ids, orphans (a
 * `parentId` that names no item of the set), cycles, and duplicate names (case-insensitive)
 * under one parent. It never loops, whatever the input.
 * @remarks The build allocates almost nothing per label: ids go into an open-addressing table of
 * positions, the children of each label become one range of an array after one counting sort
 * by parent, and depths come from one breadth-first pass, all in typed arrays. A node object, a
 * children array and a map entry per label, made right after the parse, cost 0.8× the parse
 * itself (much of it garbage collection), so a node is made only when `roots`, `children`,
 * `byId` or `find` reach it (BENCHMARKS.md, benchmark 2).
 * @example
 * ```ts
 * const [set] = await client.getLabelSets(cabinet.id);
 * const tree = buildLabelTree(set);
 * for (const root of tree.roots) console.log(root.item.labelName, root.children.length);
 * tree.find('PERSON')?.item.id; // the id of PERSON, whatever the case
 * ```
 */
export function buildLabelTree(set: LabelSet): LabelTree {
  const items = set.labelItems;
  const n = items.length;
  const problems: string[] = [];
  // parent[i]: the parent's position; -1 top level, -2 orphan, -3 own parent or a repeated id.
  const parent = new Int32Array(n);
  const slots = new Int32Array(2 << Math.ceil(Math.log2(n + 1)));
  for (let i = 0; i < n; i++) {
    const s = slotOf(items, slots, items[i]!.id);
    if (slots[s] !== 0) {
      problems.push(`duplicate label id ${items[i]!.id}`);
      parent[i] = -3;
    } else slots[s] = i + 1;
  }
  // start[b] .. start[b + 1] is the range of `order` that holds bucket b: the top-level labels
  // are bucket 0, the children of label i bucket i + 1, each in the set's order.
  const start = new Int32Array(n + 2);
  const broken: number[] = [];
  for (let i = 0; i < n; i++) {
    const parentId = items[i]!.parentId;
    if (parent[i] === -3) continue;
    const p = parentId === null || parentId === undefined ? -1 : slots[slotOf(items, slots, parentId)]! - 1;
    if (p === i || (p === -1 && parentId !== null && parentId !== undefined)) {
      problems.push(`label ${describe(items[i]!)} ${p === i ? 'is its own parent (cycle)' : `has parent ${parentId}, which is not in the set (orphan)`}`);
      broken.push(i);
      parent[i] = p === i ? -3 : -2;
    } else start[(parent[i] = p) + 2]!++;
  }
  for (let b = 2; b < n + 2; b++) start[b]! += start[b - 1]!;
  const order = new Int32Array(n);
  const next = start.slice(0, n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= -1) order[next[parent[i]! + 1]!++] = i;
  // Depths breadth first from the top, and from the broken labels (whose children are reported
  // through them): a label still at -1 is on, or below, a cycle. No recursion: a deep chain is fine.
  const depth = new Int32Array(n).fill(-1);
  let tail = 0;
  for (const i of [...order.subarray(0, start[1]), ...broken]) depth[(next[tail++] = i)] = 0;
  for (let head = 0; head < tail; head++) {
    const i = next[head]!;
    for (let k = start[i + 1]!; k < start[i + 2]!; k++) depth[(next[tail++] = order[k]!)] = depth[i]! + 1;
  }
  const onCycle = items.filter((_, i) => depth[i]! < 0 && parent[i]! >= -1);
  if (onCycle.length > 0) {
    const more = onCycle.length > 20 ? ` and ${onCycle.length - 20} more` : '';
    problems.push(`labels ${onCycle.slice(0, 20).map(describe).join(', ')}${more} form a cycle (no path to a top-level label)`);
  }
  problems.push(...duplicateNames(items, parent, slots.length - 1));
  if (problems.length > 0) throw new LabelSetError(set.id, problems);
  return new Tree(set.id, items, { parent, start, order, depth, slots });
}

/**
 * FNV-1a of a string's UTF-16 units; with `fold`, of its lower-cased form (A–Z folded in the loop,
 * anything beyond ASCII through `toLowerCase`), so that names equal in any case hash alike.
 */
function hash(text: string, fold: boolean): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (fold && c > 127) return hash(text.toLowerCase(), false);
    h = Math.imul(h ^ (fold && c >= 65 && c <= 90 ? c + 32 : c), 0x01000193);
  }
  return h;
}

/** The slot of `id` in the table of positions + 1 (a power of two long): its own, or the empty one where it goes. */
function slotOf(items: readonly LabelItem[], slots: Int32Array, id: string): number {
  let s = hash(id, false) & (slots.length - 1);
  while (slots[s] !== 0 && items[slots[s]! - 1]!.id !== id) s = (s + 1) & (slots.length - 1);
  return s;
}

/**
 * The duplicate names (case-insensitive) among siblings, in the set's order, from one table keyed
 * by parent and folded name. Orphans are siblings when they name the same missing parent. A name
 * is lower-cased only when its hash meets an equal one among its siblings.
 */
function duplicateNames(items: readonly LabelItem[], parent: Int32Array, mask: number): string[] {
  const slots = new Int32Array(mask + 1);
  const folded = new Int32Array(items.length);
  const found: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (parent[i] === -3) continue;
    const h = (folded[i] = hash(item.labelName, true));
    let s = (Math.imul(h, 31) ^ (parent[i] === -2 ? hash(item.parentId!, false) : parent[i]!)) & mask;
    for (let j = slots[s]! - 1; j >= 0; s = (s + 1) & mask, j = slots[s]! - 1) {
      const other = items[j]!;
      if (folded[j] !== h || (other.parentId ?? null) !== (item.parentId ?? null) || other.labelName.toLowerCase() !== item.labelName.toLowerCase()) continue;
      found.push(`duplicate name "${item.labelName}" ${item.parentId ? `under ${item.parentId}` : 'at the top level'} (ids ${other.id} and ${item.id})`);
      break;
    }
    if (slots[s] === 0) slots[s] = i + 1;
  }
  return found;
}

function describe(item: LabelItem): string {
  return `${item.id} ("${item.labelName}")`;
}

/** What the build computed (see {@link buildLabelTree}). */
type Layout = Record<'parent' | 'start' | 'order' | 'depth' | 'slots', Int32Array>;

/** A {@link LabelTree} over the arrays of its build; nodes and maps are made on first use. */
class Tree implements LabelTree {
  readonly roots: Node[];
  readonly #items: readonly LabelItem[];
  readonly #layout: Layout;
  readonly #nodes: (Node | undefined)[];
  #byId?: Map<string, Node>;
  #idByName?: Map<string, string>;
  #idByPath?: Map<string, string>;
  #nameById?: Map<string, string>;
  // Arrow functions, not methods: `const { find } = buildLabelTree(set)` works too.
  readonly find = (name: string): Node | undefined => this.#nodeOf(this.idByName.get(name.toLowerCase()));
  readonly findPath = (path: string): Node | undefined => this.#nodeOf(this.idByPath.get(path.toLowerCase()));
  constructor(
    readonly labelSetId: string,
    items: readonly LabelItem[],
    layout: Layout,
  ) {
    this.#items = items;
    this.#layout = layout;
    this.#nodes = new Array<Node | undefined>(items.length);
    this.roots = this.bucket(0);
  }
  /** The nodes of bucket `b` (see {@link buildLabelTree}): the top-level labels, or the children of label b - 1. */
  bucket(b: number): Node[] {
    const { start, order } = this.#layout;
    const nodes: Node[] = [];
    for (let k = start[b]!; k < start[b + 1]!; k++) nodes.push(this.#node(order[k]!));
    return nodes;
  }
  /** The names from the top down to label `i`. */
  pathOf(i: number): string[] {
    const names: string[] = [];
    for (; i >= 0; i = this.#layout.parent[i]!) names.push(this.#items[i]!.labelName);
    return names.reverse();
  }
  get byId(): Map<string, Node> {
    return (this.#byId ??= new Map(this.#items.map((item, i) => [item.id, this.#node(i)])));
  }
  get nameById(): Map<string, string> {
    return (this.#nameById ??= new Map(this.#items.map((item) => [item.id, item.labelName])));
  }
  get idByName(): Map<string, string> {
    if (this.#idByName) return this.#idByName;
    const ids = new Map<string, string | null>();
    for (const { id, labelName } of this.#items) ids.set(labelName.toLowerCase(), ids.has(labelName.toLowerCase()) ? null : id);
    for (const [name, id] of ids) if (id === null) ids.delete(name);
    return (this.#idByName = ids as Map<string, string>);
  }
  get idByPath(): Map<string, string> {
    return (this.#idByPath ??= new Map(this.#items.map((item, i) => [this.pathOf(i).join('/').toLowerCase(), item.id])));
  }
  #nodeOf(id: string | undefined): Node | undefined {
    return id === undefined ? undefined : this.#node(this.#layout.slots[slotOf(this.#items, this.#layout.slots, id)]! - 1);
  }
  #node(i: number): Node {
    return (this.#nodes[i] ??= new Node(this, i, this.#items[i]!, this.#layout.depth[i]!));
  }
}

/** A {@link LabelNode}: its label's position in its tree, its children made on first read. */
class Node implements LabelNode {
  readonly #tree: Tree;
  readonly #at: number;
  #children?: Node[];
  constructor(tree: Tree, at: number, readonly item: LabelItem, readonly depth: number) {
    this.#tree = tree;
    this.#at = at;
  }
  get children(): Node[] {
    return (this.#children ??= this.#tree.bucket(this.#at + 1));
  }
  get path(): string[] {
    return this.#tree.pathOf(this.#at);
  }
}
