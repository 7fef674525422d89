import { createHash } from 'node:crypto';
import type { LabelItem, LabelSet } from '../../src/client/index.js';
import type { LabelSetsClient } from '../../src/labelSets/index.js';

/** A label as the in-memory service keeps it. */
export type StoredItem = LabelItem;

/** The demo project's first set, as the emulator serves it, and a second one. */
export const demoSets = (): LabelSet[] => [
  {
    id: '1',
    index: 0,
    name: 'Entities',
    signature: null,
    labelItems: [
      { id: '10', parentId: null, labelName: 'ENTITY', color: '#6b7280', desc: null },
      { id: '11', parentId: '10', labelName: 'PERSON', color: '#ef4444', desc: null },
      { id: '12', parentId: '10', labelName: 'ORGANIZATION', color: '#3b82f6', desc: null },
      { id: '13', parentId: '10', labelName: 'LOCATION', color: '#10b981', desc: null },
      { id: '14', parentId: null, labelName: 'DATE', color: '#f59e0b', desc: null },
    ],
  },
  { id: '2', index: 1, name: 'Relations', signature: null, labelItems: [{ id: '20', parentId: null, labelName: 'WORKS_FOR', color: '#000000', desc: null }] },
];

const stored = (i: { id: string; parentId?: string | null; labelName: string; color?: string | null; desc?: string | null }): StoredItem => ({
  id: i.id,
  parentId: i.parentId ?? null,
  labelName: i.labelName,
  color: i.color ?? null,
  desc: i.desc ?? null,
});
const sign = (items: readonly StoredItem[]) => createHash('sha1').update(JSON.stringify(items)).digest('hex').slice(0, 12);

/**
 * A stand-in for the service's label-set operations, in memory: the shapes of the client's
 * methods, a signature per set, ids made for appended labels, and a hook to fail a call.
 */
export function memoryClient(sets: LabelSet[] = demoSets()) {
  const state = sets.map((s) => ({ ...s, labelItems: s.labelItems.map((i) => ({ ...i })), signature: sign(s.labelItems) }));
  /** Applied labels per label, as `getAppliedLabelCounts` answers them; undefined: the method is missing. */
  let applied: Record<string, Record<string, number>> | undefined;
  const calls: { method: string; input: unknown }[] = [];
  let nextId = 100;
  let nextSet = 10;
  /** Called before each write; throw to fail it. */
  let beforeWrite: ((method: string, count: number) => void) | undefined;
  let writes = 0;
  const find = (id: string) => {
    const set = state.find((s) => s.id === id);
    if (!set) throw new Error(`no label set ${id}`);
    return set;
  };
  const copy = (set: (typeof state)[number]): LabelSet => structuredClone(set);
  const write = (method: string, input: unknown) => {
    calls.push({ method, input });
    beforeWrite?.(method, ++writes);
  };
  const client: LabelSetsClient = {
    async getProjectLabelSets(projectId, role) {
      calls.push({ method: 'getProjectLabelSets', input: { projectId, role } });
      return [...state].sort((a, b) => a.index - b.index).map(copy);
    },
    async createLabelSet(projectId, input) {
      write('createLabelSet', { projectId, ...input });
      const set = { id: String(nextSet++), index: input.index, name: input.name, labelItems: input.labelItems.map(stored), signature: '' };
      set.signature = sign(set.labelItems);
      state.push(set);
      return copy(set);
    },
    async updateLabelSet(input) {
      write('updateLabelSet', input);
      const set = find(input.id);
      if (input.name !== undefined) set.name = input.name;
      if (input.labelItems) set.labelItems = input.labelItems.map(stored);
      set.signature = sign(set.labelItems);
      return copy(set);
    },
    async appendLabelItems(input) {
      write('appendLabelItems', input);
      const set = find(input.labelSetId);
      const added = input.labelItems.map((i) => stored({ ...i, id: i.id ?? String(nextId++) }));
      set.labelItems.push(...added);
      set.signature = sign(set.labelItems);
      return structuredClone(added);
    },
    async deleteLabelSet(id) {
      write('deleteLabelSet', { id });
      const set = find(id);
      state.splice(state.indexOf(set), 1);
      return [id];
    },
  };
  const withCounts = Object.assign(client, {
    async getAppliedLabelCounts(projectId: string) {
      calls.push({ method: 'getAppliedLabelCounts', input: { projectId } });
      if (!applied) return null;
      return state.flatMap((set) => set.labelItems.map((i) => ({ labelSetId: set.id, labelItemId: i.id, appliedLabels: applied![set.id]?.[i.id] ?? 0 })));
    },
  });
  return {
    client: withCounts,
    state,
    /** Sets the applied-label counts the stand-in answers (null until set: a service that cannot tell). */
    setApplied(counts: Record<string, Record<string, number>>) {
      applied = counts;
    },
    calls,
    writeCalls: () => calls.filter((c) => c.method !== 'getProjectLabelSets' && c.method !== 'getAppliedLabelCounts'),
    failWrites(hook: (method: string, count: number) => void) {
      beforeWrite = hook;
    },
  };
}
