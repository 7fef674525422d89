import { describe, expect, it } from 'vitest';
import { LabelHierarchyError } from '../../src/client/errors.js';
import type { LabelItem, LabelSet } from '../../src/client/index.js';
import { buildLabelTree } from '../../src/labels/index.js';
import type { LabelNode } from '../../src/labels/index.js';

const item = (id: string, labelName: string, parentId: string | null = null): LabelItem => ({ id, labelName, parentId, color: null, desc: null });
const set = (...labelItems: LabelItem[]): LabelSet => ({ id: 's1', index: 0, name: 'Entities', signature: null, labelItems });

describe('buildLabelTree', () => {
  it('builds the hierarchy with depths, paths and name↔id maps', () => {
    const tree = buildLabelTree(
      set(item('1', 'ENTITY'), item('2', 'Person', '1'), item('3', 'ORG', '1'), item('4', 'Other', '2'), item('5', 'Other', '3'), item('6', 'DATE')),
    );
    expect(tree.roots.map((n) => n.item.labelName)).toEqual(['ENTITY', 'DATE']);
    expect(tree.byId.get('1')!.children.map((n) => n.item.id)).toEqual(['2', '3']);
    expect(tree.byId.get('4')).toMatchObject({ depth: 2, path: ['ENTITY', 'Person', 'Other'] });
    expect(tree.idByName.get('person')).toBe('2');
    expect(tree.idByName.has('other')).toBe(false); // used under two parents
    expect(tree.idByPath.get('entity/org/other')).toBe('5');
    expect(tree.nameById.get('6')).toBe('DATE');
  });

  it('reports orphans, cycles, self-parents and duplicate names under one parent, all at once', () => {
    const broken = set(
      item('1', 'ENTITY'),
      item('2', 'person', '1'),
      item('3', 'PERSON', '1'),
      item('4', 'Lost', 'nowhere'),
      item('5', 'A', '6'),
      item('6', 'B', '5'),
      item('7', 'Self', '7'),
    );
    const error = (() => {
      try {
        buildLabelTree(broken);
      } catch (e) {
        return e;
      }
    })() as LabelHierarchyError;
    expect(error).toBeInstanceOf(LabelHierarchyError);
    // In the words of the label-item rules' one home (src/shared/labelItemRules.ts): each item's own problems first, then the hierarchy's.
    expect(error.problems).toEqual([
      'label 3 ("PERSON"), labelName: "PERSON" is also the name of label 2 ("person") (both under the parent "1"; names compare case-insensitively)',
      'label 4 ("Lost"), parentId: "nowhere" is not the id of a label of this set',
      'label 5 ("A"), parentId: the parent chain of "5" comes back to "5" (a cycle: "5" → "6" → "5")',
      'label 6 ("B"), parentId: the parent chain of "6" comes back to "6" (a cycle: "6" → "5" → "6")',
      'label 7 ("Self"), parentId: a label cannot be its own parent',
    ]);
    expect(error.message).toMatch(/^\[LabelSet\] label set s1: /);
  });

  it('finishes on a long cycle and on a deep chain', () => {
    const n = 5_000;
    const ring = Array.from({ length: n }, (_, i) => item(String(i), `L${i}`, String((i + 1) % n)));
    expect(() => buildLabelTree(set(...ring))).toThrow(LabelHierarchyError);
    const chain = Array.from({ length: n }, (_, i) => item(String(i), `L${i}`, i === 0 ? null : String(i - 1)));
    const deepest = buildLabelTree(set(...chain)).byId.get(String(n - 1))!;
    expect(deepest.depth).toBe(n - 1);
    expect(deepest.path).toHaveLength(n);
    expect(deepest.path.slice(0, 2)).toEqual(['L0', 'L1']);
  });

  it('lists at most 20 labels of a long cycle in the message, and counts the rest', () => {
    const ring = Array.from({ length: 100 }, (_, i) => item(String(i), `L${i}`, String((i + 1) % 100)));
    const error = (() => {
      try {
        buildLabelTree(set(...ring));
      } catch (e) {
        return e;
      }
    })() as LabelHierarchyError;
    expect(error.problems).toHaveLength(100); // every label of the cycle, in the error's problems
    expect(error.message).toMatch(/label 19 \("L19"\), parentId: the parent chain of "19" comes back to "19" \(a cycle: [^;]*\); and 80 more$/);
    expect(error.message).not.toContain('label 20 ("L20")');
  });

  it('finds a label by name or path in any case, as a model emits it', () => {
    const tree = buildLabelTree(
      set(item('1', 'ENTITY'), item('2', 'Person', '1'), item('3', 'ORG', '1'), item('4', 'Other', '2'), item('5', 'Other', '3'), item('6', 'Straße')),
    );
    for (const name of ['PERSON', 'person', 'Person', 'pErSoN']) expect(tree.find(name)?.item.id).toBe('2');
    expect(tree.find('STRASSE')).toBeUndefined(); // toLowerCase folds, it does not expand ß
    expect(tree.find('STRAßE')?.item.id).toBe('6');
    expect(tree.find('OTHER')).toBeUndefined(); // under two parents: ask by path
    expect(tree.find('nobody')).toBeUndefined();
    expect(tree.findPath('ENTITY/PERSON')?.item.id).toBe('2');
    expect(tree.findPath('entity/org/OTHER')?.item.id).toBe('5');
    expect(tree.findPath('ENTITY/PERSON/OTHER')).toMatchObject({ depth: 2, path: ['ENTITY', 'Person', 'Other'] });
    expect(tree.findPath('PERSON')).toBeUndefined();
    const { find, findPath } = tree; // as the README destructures the tree
    expect([find('DATE'), findPath('entity/ORG')].map((node) => node?.item.id)).toEqual([undefined, '3']);
    expect(find('straße')).toBe(tree.byId.get('6'));
    // The maps keep their documented keys: lower-cased names and paths.
    expect(tree.idByName.get('PERSON')).toBeUndefined();
    expect(tree.idByName.get('person')).toBe('2');
    expect(tree.idByPath.get('entity/person')).toBe('2');
    // One object per label, whichever way it is reached.
    expect(tree.find('person')).toBe(tree.roots[0]!.children[0]);
    expect(tree.findPath('entity/org')).toBe(tree.byId.get('3'));
    expect(tree.roots[0]!.children).toBe(tree.roots[0]!.children);
  });

  it('matches a plain reading of parentId on a large random forest', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const n = 2_000;
    // Parents anywhere in the set (before or after their children), names in mixed case.
    const ids = Array.from({ length: n }, (_, i) => `id-${(i * 7919) % n}`);
    const parentOf = ids.map((_, i) => (i % 10 === 0 ? null : ids[(i + 1 + random(n - 1)) % n]!));
    // Make it a forest: a label may hang only below a label with a smaller number in `ids`.
    const rank = new Map(ids.map((id, i) => [id, i]));
    const labelItems = ids.map((id, i) => {
      const parentId = parentOf[i] !== null && rank.get(parentOf[i]!)! < i ? parentOf[i]! : null;
      return item(id, `${random(2) ? 'L' : 'l'}abel-${i}-${random(5)}`, parentId);
    });
    const reversed = [...labelItems].reverse(); // every parent after its children
    for (const items of [labelItems, reversed]) {
      const tree = buildLabelTree(set(...items));
      const children = new Map<string | null, string[]>();
      for (const x of items) children.set(x.parentId ?? null, [...(children.get(x.parentId ?? null) ?? []), x.id]);
      const childrenOf = (id: string | null) => children.get(id) ?? [];
      expect(tree.roots.map((node) => node.item.id)).toEqual(childrenOf(null));
      let seen = 0;
      const walk = (node: LabelNode, depth: number, path: string[]) => {
        seen++;
        expect(node.depth).toBe(depth);
        expect(node.path).toEqual([...path, node.item.labelName]);
        expect(node.children.map((c) => c.item.id)).toEqual(childrenOf(node.item.id));
        expect(tree.byId.get(node.item.id)).toBe(node);
        expect(tree.find(node.item.labelName.toUpperCase())).toBe(node);
        expect(tree.findPath(node.path.join('/').toUpperCase())).toBe(node);
        for (const child of node.children) walk(child, depth + 1, node.path);
      };
      for (const root of tree.roots) walk(root, 0, []);
      expect(seen).toBe(n);
      expect(tree.nameById.size).toBe(n);
    }
  });

  it('compares names case-insensitively beyond ASCII, and reports repeated ids and orphans that share a name', () => {
    expect(() => buildLabelTree(set(item('1', 'A_\u212A'), item('2', 'a_k'), item('3', 'ÉCOLE'), item('4', 'école'), item('5', ''), item('6', '')))).toThrow(
      expect.objectContaining({
        code: 'LABEL_SET',
        labelSetId: 's1',
        problems: [
          expect.stringMatching(/^label 2 \("a_k"\), labelName: "a_k" is also the name of label 1 /),
          expect.stringMatching(/^label 4 \("école"\), labelName: "école" is also the name of label 3 /),
          expect.stringMatching(/^label 6 \(""\), labelName: "" is also the name of label 5 /),
        ],
      }),
    );
    const error = (() => {
      try {
        buildLabelTree(set(item('1', 'A'), item('1', 'B'), item('2', 'x', 'gone'), item('3', 'X', 'gone'), item('4', 'x', 'elsewhere')));
      } catch (e) {
        return e;
      }
    })() as LabelHierarchyError;
    expect(error.problems).toEqual([
      'label 1 ("B"), id: "1" is also the id of label 1 ("A")',
      'label 3 ("X"), labelName: "X" is also the name of label 2 ("x") (both under the parent "gone"; names compare case-insensitively)',
      'label 2 ("x"), parentId: "gone" is not the id of a label of this set',
      'label 3 ("X"), parentId: "gone" is not the id of a label of this set',
      'label 4 ("x"), parentId: "elsewhere" is not the id of a label of this set',
    ]);
  });

  it('reports a label hanging below an orphan only through the orphan', () => {
    expect(() => buildLabelTree(set(item('1', 'Lost', 'gone'), item('2', 'Child', '1')))).toThrow(
      '[LabelSet] label set s1: label 1 ("Lost"), parentId: "gone" is not the id of a label of this set',
    );
  });
});
