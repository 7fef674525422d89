/**
 * An edge of the bipartite graph {@link maxMatching} matches on: left vertex, right vertex, and
 * what the pair costs, a tuple compared left to right (and added position by position).
 */
export interface MatchEdge {
  left: number;
  right: number;
  /** Non-negative whole numbers, all edges' tuples of one length; compared left to right. */
  cost: readonly number[];
}

/** Compares two cost tuples left to right. */
function compareCost(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

const addCost = (a: readonly number[], b: readonly number[], sign: 1 | -1) => a.map((x, i) => x + sign * b[i]!);

/**
 * The largest one-to-one matching of a bipartite graph and, among the largest, one of least total
 * cost.
 *
 * @param edges - the pairs allowed, each with its cost (see {@link MatchEdge}); a vertex is known
 * by its number on its side
 * @returns the matched edges, sorted by left vertex
 * @remarks Successive shortest augmenting paths (the min-cost flow of a unit-capacity bipartite
 * graph): each augmentation adds one pair along the path of least added cost (Bellman-Ford over
 * the residual graph, whose reverse edges cost the negated tuple), so after k augmentations the
 * matching is a cheapest one of k pairs, and when no path is left it is a largest one. The graph
 * is first cut into its connected components, each matched alone: with spans, a component is a
 * run of spans that overlap one another, so the cost is that of the largest run
 * (O(pairs · vertices · edges) within it), not of the document. Ties fall to the lower-numbered
 * vertices, so the result depends only on the input.
 * @example
 * ```ts
 * // Left 0 meets right 0 and 1, left 1 only right 0: both are matched.
 * maxMatching([{ left: 0, right: 0, cost: [0] }, { left: 0, right: 1, cost: [5] }, { left: 1, right: 0, cost: [1] }]);
 * // → [{ left: 0, right: 1, … }, { left: 1, right: 0, … }]
 * ```
 */
export function maxMatching(edges: readonly MatchEdge[]): MatchEdge[] {
  let lefts = 0;
  let rights = 0;
  for (const e of edges) {
    lefts = Math.max(lefts, e.left + 1);
    rights = Math.max(rights, e.right + 1);
  }
  // The common case: every vertex on one edge at most (each span meets one other): all of them.
  const leftDegree = new Uint32Array(lefts);
  const rightDegree = new Uint32Array(rights);
  let shared = false;
  for (const e of edges) if (++leftDegree[e.left]! > 1 || ++rightDegree[e.right]! > 1) shared = true;
  if (!shared) return [...edges].sort((a, b) => a.left - b.left);
  // Connected components: union-find over vertices, left ones 0..lefts-1, right ones after them.
  const parent = Int32Array.from({ length: lefts + rights }, (_, i) => i);
  const find = (x: number): number => {
    let root = x;
    while (parent[root] !== root) root = parent[root]!;
    // Path compression: every vertex on the way now points at the root.
    while (parent[x] !== root) [x, parent[x]] = [parent[x]!, root];
    return root;
  };
  for (const e of edges) {
    const [a, b] = [find(e.left), find(lefts + e.right)];
    if (a !== b) parent[a] = b;
  }
  const components = new Map<number, MatchEdge[]>();
  for (const e of edges) {
    const root = find(e.left);
    let list = components.get(root);
    if (!list) components.set(root, (list = []));
    list.push(e);
  }
  const matched: MatchEdge[] = [];
  for (const component of components.values()) matched.push(...matchComponent(component));
  return matched.sort((a, b) => a.left - b.left);
}

/** Successive shortest paths over one connected component. */
function matchComponent(edges: readonly MatchEdge[]): MatchEdge[] {
  if (edges.length === 1) return [edges[0]!];
  const lefts = [...new Set(edges.map((e) => e.left))].sort((a, b) => a - b);
  const rights = [...new Set(edges.map((e) => e.right))].sort((a, b) => a - b);
  const li = new Map(lefts.map((v, i) => [v, i]));
  const ri = new Map(rights.map((v, i) => [v, i]));
  const width = edges[0]!.cost.length;
  const zero = new Array<number>(width).fill(0);
  // Sorted so that ties fall to the lower-numbered vertices.
  const local = edges.map((e) => ({ e, l: li.get(e.left)!, r: ri.get(e.right)! })).sort((a, b) => a.l - b.l || a.r - b.r);
  const leftMate = new Array<number>(lefts.length).fill(-1); // edge index matched at each left vertex
  const rightMate = new Array<number>(rights.length).fill(-1);
  for (;;) {
    // Nodes: left vertices 0..L-1, right vertices L..L+R-1. Sources: every free left vertex.
    const n = lefts.length + rights.length;
    const dist: (number[] | null)[] = new Array<number[] | null>(n).fill(null);
    const via = new Array<number>(n).fill(-1); // the edge by which a node was reached
    for (let l = 0; l < lefts.length; l++) if (leftMate[l] === -1) dist[l] = zero;
    for (let round = 0, changed = true; changed && round < n; round++) {
      changed = false;
      for (const [k, { e, l, r }] of local.entries()) {
        const rn = lefts.length + r;
        if (leftMate[l] !== k) {
          // Unmatched edge: left → right, its cost.
          const d = dist[l];
          if (d && (dist[rn] === null || compareCost(addCost(d, e.cost, 1), dist[rn]!) < 0)) {
            dist[rn] = addCost(d, e.cost, 1);
            via[rn] = k;
            changed = true;
          }
        } else {
          // Matched edge: right → left, the negated cost.
          const d = dist[rn];
          if (d && (dist[l] === null || compareCost(addCost(d, e.cost, -1), dist[l]!) < 0)) {
            dist[l] = addCost(d, e.cost, -1);
            via[l] = k;
            changed = true;
          }
        }
      }
    }
    let end = -1;
    for (let r = 0; r < rights.length; r++) {
      const d = dist[lefts.length + r];
      if (rightMate[r] === -1 && d && (end === -1 || compareCost(d, dist[lefts.length + end]!) < 0)) end = r;
    }
    if (end === -1) break;
    // Augment: flip the edges along the path back to a free left vertex.
    let node = lefts.length + end;
    for (;;) {
      const k = via[node]!;
      const { l, r } = local[k]!;
      leftMate[l] = k;
      rightMate[r] = k;
      // A free left vertex is where the path began (only a matched one is reached by an edge).
      if (via[l] === -1) break;
      const back = via[l]!;
      node = lefts.length + local[back]!.r;
    }
  }
  return leftMate.filter((k) => k >= 0).map((k) => local[k]!.e);
}
