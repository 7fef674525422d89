import { describe, expect, it } from 'vitest';
import { drawTree } from '../../src/shared/drawTree.js';

interface Node {
  name: string;
  children: Node[];
}
const node = (name: string, ...children: Node[]): Node => ({ name, children });

describe('drawTree', () => {
  it('draws branches, continuation bars and the indent when nodes nest', () => {
    const roots = [node('ENTITY', node('PERSON'), node('PLACE', node('CITY'))), node('DATE')];
    expect(drawTree(roots, (n) => n.name, '  ')).toEqual([
      '  ├─ ENTITY',
      '  │  ├─ PERSON',
      '  │  └─ PLACE',
      '  │     └─ CITY',
      '  └─ DATE',
    ]);
  });

  it('returns no lines when there are no roots', () => {
    expect(drawTree([], (n: Node) => n.name)).toEqual([]);
  });
});
