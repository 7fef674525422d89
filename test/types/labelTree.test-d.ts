// The public types of the label tree: the case-folding look-ups of issue 19, the maps as they are
// documented, and a tree whose structure the caller reads but does not assign (its nodes and maps
// are made by the tree on first use).
import { describe, expectTypeOf, it } from 'vitest';
import type { LabelItem, LabelSet } from '../../src/client/index.js';
import { buildLabelTree } from '../../src/labels/index.js';
import type { LabelNode, LabelTree } from '../../src/labels/index.js';

declare const set: LabelSet;

describe('LabelTree', () => {
  it('finds a label by name or by path, or gives undefined', () => {
    const tree = buildLabelTree(set);
    expectTypeOf(tree.find).toEqualTypeOf<(name: string) => LabelNode | undefined>();
    expectTypeOf(tree.findPath).toEqualTypeOf<(path: string) => LabelNode | undefined>();
    expectTypeOf(tree.find('PERSON')?.item).toEqualTypeOf<LabelItem | undefined>();
    expectTypeOf(tree.findPath('ENTITY/PERSON')?.depth).toEqualTypeOf<number | undefined>();
    // @ts-expect-error one name, not a list of names
    tree.find(['PERSON']);
    // @ts-expect-error a path is the names joined with '/'
    tree.findPath(['ENTITY', 'PERSON']);
  });

  it('compiles the README lines that use them, destructured or not', () => {
    const { roots, find, findPath } = buildLabelTree(set);
    expectTypeOf(roots).toEqualTypeOf<LabelNode[]>();
    expectTypeOf(find('PERSON')).toEqualTypeOf<LabelNode | undefined>();
    expectTypeOf(findPath('ENTITY/PERSON')).toEqualTypeOf<LabelNode | undefined>();
    const tree = buildLabelTree(set);
    expectTypeOf(tree.find('PERSON')).toEqualTypeOf<LabelNode | undefined>();
    expectTypeOf(tree.idByName.get('person')).toEqualTypeOf<string | undefined>();
  });

  it('keeps the maps and the nodes as documented', () => {
    expectTypeOf<LabelTree['labelSetId']>().toEqualTypeOf<string>();
    expectTypeOf<LabelTree['roots']>().toEqualTypeOf<LabelNode[]>();
    expectTypeOf<LabelTree['byId']>().toEqualTypeOf<Map<string, LabelNode>>();
    expectTypeOf<LabelTree['idByName']>().toEqualTypeOf<Map<string, string>>();
    expectTypeOf<LabelTree['idByPath']>().toEqualTypeOf<Map<string, string>>();
    expectTypeOf<LabelTree['nameById']>().toEqualTypeOf<Map<string, string>>();
    expectTypeOf<LabelNode['item']>().toEqualTypeOf<LabelItem>();
    expectTypeOf<LabelNode['children']>().toEqualTypeOf<LabelNode[]>();
    expectTypeOf<LabelNode['depth']>().toEqualTypeOf<number>();
    expectTypeOf<LabelNode['path']>().toEqualTypeOf<string[]>();
  });

  it('lets the caller read the structure, not assign it', () => {
    const tree = buildLabelTree(set);
    const node = tree.roots[0]!;
    // @ts-expect-error the roots are the tree's
    tree.roots = [];
    // @ts-expect-error the maps are built by the tree on first read
    tree.byId = new Map();
    // @ts-expect-error a node's children are made by the tree
    node.children = [];
    // @ts-expect-error the depth follows from the parents
    node.depth = 3;
    // @ts-expect-error the path follows from the parents
    node.path = ['ENTITY'];
  });
});
