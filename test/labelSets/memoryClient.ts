import { createHash } from 'node:crypto';
import type { DocumentNode } from 'graphql';
import type { LabelingClient, LabelItem, LabelSet } from '../../src/client/index.js';
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
/** The project's copies (a labeler's and the reviewer's) and its documents, as the stand-in serves them. */
const COPIES = [
  { id: 'cab-ann', role: 'LABELER' },
  { id: 'cab-rev', role: 'REVIEWER' },
] as const;
const DOCUMENTS = ['doc-1', 'doc-2', 'doc-3'];

const sign = (items: readonly StoredItem[]) => createHash('sha1').update(JSON.stringify(items)).digest('hex').slice(0, 12);

/**
 * A stand-in for the service's label-set operations, in memory: the shapes of the client's
 * methods, a signature per set, ids made for appended labels, and a hook to fail a call.
 */
export function memoryClient(sets: LabelSet[] = demoSets()) {
  const state = sets.map((s) => ({ ...s, labelItems: s.labelItems.map((i) => ({ ...i })), signature: sign(s.labelItems) }));
  /**
   * The applied labels, as the service's reads give them: per document copy (`<cabinet>:<doc>`),
   * nodes with the label's id `l` and `layer` (its set's index). Empty until `setApplied`.
   */
  let labels = new Map<string, { id: string; l: string; layer: number; start: object; end: object; deleted?: boolean }[]>();
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
  /** The label-set operations, by the names the client's documents send, in the words of the tags generation. */
  type TagItem = { id?: string; parentId?: string | null; tagName: string; color?: string | null; desc?: string | null };
  const fromTags = (i: TagItem) => ({ id: i.id!, parentId: i.parentId ?? null, labelName: i.tagName, color: i.color ?? null, desc: i.desc ?? null });
  /** The variables of the label-set documents, as the helpers send them. */
  type WriteInput = { id: string; labelSetId: string; index: number; name: string; tagItems: TagItem[]; [key: string]: unknown };
  type Variables = { projectId: string; role: string; id: string; input: WriteInput };
  const labelSetOps: Record<string, (v: Variables) => unknown> = {
    GetCabinet: (v) => {
      calls.push({ method: 'getProjectLabelSets', input: { projectId: v.projectId, role: v.role } });
      return { getCabinet: { id: `cabinet-${v.projectId}` } };
    },
    getCabinetLabelSetsById: () => ({ getCabinetLabelSetsById: [...state].sort((a, b) => a.index - b.index).map(copy) }),
    CreateLabelSet: ({ projectId, input }) => {
      write('createLabelSet', { projectId, index: input.index, name: input.name, labelItems: input.tagItems.map(fromTags) });
      const set = { id: String(nextSet++), index: input.index, name: input.name, labelItems: input.tagItems.map(fromTags).map(stored), signature: '' };
      set.signature = sign(set.labelItems);
      state.push(set);
      return { createLabelSet: copy(set) };
    },
    UpdateProjectLabelSet: ({ input: { tagItems, ...change } }) => {
      const input = { ...change, ...(tagItems && { labelItems: tagItems.map(fromTags) }) };
      write('updateLabelSet', input);
      const set = find(input.id);
      if (input.name !== undefined) set.name = input.name;
      if (input.labelItems) set.labelItems = input.labelItems.map(stored);
      set.signature = sign(set.labelItems);
      return { updateProjectLabelSet: copy(set) };
    },
    AppendLabelSetLabelItems: ({ input: { tagItems, ...rest } }) => {
      const input = { ...rest, labelItems: tagItems.map((i: TagItem) => ({ ...(i.id !== undefined && { id: i.id }), labelName: i.tagName, ...(i.color != null && { color: i.color }), ...(i.desc != null && { desc: i.desc }) })) };
      write('appendLabelItems', input);
      const set = find(input.labelSetId);
      const added = input.labelItems.map((i: { id?: string; labelName: string }) => stored({ ...i, id: i.id ?? String(nextId++) }));
      set.labelItems.push(...added);
      set.signature = sign(set.labelItems);
      return { appendLabelSetLabelItems: structuredClone(added) };
    },
    DeleteLabelSet: ({ id }) => {
      write('deleteLabelSet', { id });
      const set = find(id);
      state.splice(state.indexOf(set), 1);
      return { deleteLabelSet: [id] };
    },
  };
  /** Whether the project has copies with applied labels (from `setApplied` on; before, it has no copies, so a count finds none). */
  let answersCounts = false;
  /** The service as `client.request` runs it: the label-set operations, and (after `setApplied`) cabinets, then labels a page at a time. */
  const request = async (document: DocumentNode, variables: Record<string, unknown>): Promise<unknown> => {
    const operation = document.definitions.find((d) => d.kind === 'OperationDefinition');
    const name = operation?.kind === 'OperationDefinition' ? operation.name?.value : undefined;
    const op = name ? labelSetOps[name] : undefined;
    if (op) return op(variables as Variables);
    calls.push({ method: name ?? '(anonymous)', input: variables });
    if (name === 'GetProjectCabinets') {
      if (!answersCounts) return { getProjectCabinets: [] };
      return {
        getProjectCabinets: COPIES.map((cabinet) => ({
          id: cabinet.id,
          role: cabinet.role,
          status: 'IN_PROGRESS',
          documents: DOCUMENTS.map((doc) => ({ id: `${cabinet.id}:${doc}`, originId: doc, fileName: `${doc}.txt` })),
        })),
      };
    }
    if (name === 'GetLabelsPaginated') {
      const all = labels.get(variables.documentId as string) ?? [];
      const input = variables.input as { cursor?: string; page?: { skip: number; take: number } };
      const [skip, take] = input.cursor ? input.cursor.split('/').map(Number) : [input.page!.skip, input.page!.take];
      const next = skip! + take! < all.length ? `${skip! + take!}/${take}` : null;
      return { getLabelsPaginated: { nodes: all.slice(skip, skip! + take!), pageInfo: { nextCursor: next, prevCursor: null }, totalCount: all.length } };
    }
    throw new Error(`the stand-in does not answer ${name}`);
  };
  const client: LabelSetsClient = { request: request as unknown as LabelingClient['request'] };
  return {
    client: client as LabelSetsClient,
    state,
    /**
     * Applies labels (set id → label id → how many), spread over every document of both copies,
     * replacing those applied before; from then on the stand-in answers the reads that count them
     * (before: the project has no copies; a run that must not count passes `countLabels: false`).
     */
    setApplied(counts: Record<string, Record<string, number>>, options: { deleted?: number } = {}) {
      labels = new Map();
      let n = 0;
      const place = (l: string, layer: number, deleted: boolean) => {
        const copy = COPIES[n % COPIES.length]!;
        const doc = `${copy.id}:${DOCUMENTS[Math.floor(n / COPIES.length) % DOCUMENTS.length]}`;
        const list = labels.get(doc) ?? [];
        labels.set(doc, list);
        const at = { sentenceId: 0, tokenId: list.length, charId: 0 };
        list.push({ id: `${l}:${layer}:${n}`, l, layer, start: at, end: at, ...(deleted && { deleted }) });
        n++;
      };
      for (const [setId, byItem] of Object.entries(counts)) {
        const set = find(setId);
        for (const [itemId, count] of Object.entries(byItem)) {
          for (let i = 0; i < count; i++) place(itemId, set.index, false);
          for (let i = 0; i < (options.deleted ?? 0); i++) place(itemId, set.index, true);
        }
      }
      answersCounts = true;
    },
    calls,
    /** The calls, with a count (one `GetProjectCabinets` and its `GetLabelsPaginated` pages) shown as one `count`. */
    methods: () => calls.filter((c) => c.method !== 'GetLabelsPaginated').map((c) => (c.method === 'GetProjectCabinets' ? 'count' : c.method)),
    writeCalls: () => calls.filter((c) => c.method !== 'getProjectLabelSets' && c.method !== 'GetProjectCabinets' && c.method !== 'GetLabelsPaginated'),
    failWrites(hook: (method: string, count: number) => void) {
      beforeWrite = hook;
    },
  };
}
