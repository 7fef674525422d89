import { describe, expect, it } from 'vitest';
import { buildLabelTree } from '../../src/client/index.js';
import { LabelSetError } from '../../src/client/errors.js';
import type { LabelItem, LabelSet } from '../../src/client/index.js';

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
    })() as LabelSetError;
    expect(error).toBeInstanceOf(LabelSetError);
    expect(error.problems).toEqual([
      'label 4 ("Lost") has parent nowhere, which is not in the set (orphan)',
      'label 7 ("Self") is its own parent (cycle)',
      'labels 5 ("A"), 6 ("B") form a cycle (no path to a top-level label)',
      'duplicate name "PERSON" under 1 (ids 2 and 3)',
    ]);
    expect(error.message).toMatch(/^\[LabelSet\] label set s1: /);
  });

  it('finishes on a long cycle and on a deep chain', () => {
    const n = 5_000;
    const ring = Array.from({ length: n }, (_, i) => item(String(i), `L${i}`, String((i + 1) % n)));
    expect(() => buildLabelTree(set(...ring))).toThrow(LabelSetError);
    const chain = Array.from({ length: n }, (_, i) => item(String(i), `L${i}`, i === 0 ? null : String(i - 1)));
    const deepest = buildLabelTree(set(...chain)).byId.get(String(n - 1))!;
    expect(deepest.depth).toBe(n - 1);
    expect(deepest.path).toHaveLength(n);
    expect(deepest.path.slice(0, 2)).toEqual(['L0', 'L1']);
  });

  it('lists at most 20 labels of a long cycle in the message, and counts the rest', () => {
    const ring = Array.from({ length: 100 }, (_, i) => item(String(i), `L${i}`, String((i + 1) % 100)));
    expect(() => buildLabelTree(set(...ring))).toThrow(/19 \("L19"\) and 80 more form a cycle/);
  });

  it('reports a label hanging below an orphan only through the orphan', () => {
    expect(() => buildLabelTree(set(item('1', 'Lost', 'gone'), item('2', 'Child', '1')))).toThrow(
      '[LabelSet] label set s1: label 1 ("Lost") has parent gone, which is not in the set (orphan)',
    );
  });
});
