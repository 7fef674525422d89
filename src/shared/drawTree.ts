/**
 * Draws a tree as text lines with box-drawing branches (`├─`, `└─`, `│`), depth first.
 *
 * @param roots - the top nodes; each node lists its `children` in display order
 * @param label - the text after a node's branch
 * @param indent - put before every line (e.g. two spaces to nest the tree under a heading)
 * @returns one line per node
 * @remarks Used by the CLI's `label-sets` and by the demo, so that both draw label trees alike.
 * Recursion depth equals the tree's depth; label trees are shallow.
 * @example
 * ```ts
 * drawTree([{ name: 'ENTITY', children: [{ name: 'PERSON', children: [] }] }], (n) => n.name);
 * // ['└─ ENTITY', '   └─ PERSON']
 * ```
 */
export function drawTree<T extends { children: readonly T[] }>(roots: readonly T[], label: (node: T) => string, indent = ''): string[] {
  const lines: string[] = [];
  const walk = (nodes: readonly T[], prefix: string): void =>
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      lines.push(`${prefix}${last ? '└─' : '├─'} ${label(node)}`);
      walk(node.children, `${prefix}${last ? '   ' : '│  '}`);
    });
  walk(roots, indent);
  return lines;
}
