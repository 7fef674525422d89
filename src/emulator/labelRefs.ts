import type { StoredLabel, StoredLabelSet } from './types.js';

/**
 * The key of one label item of a project: its set's id and its own id (item ids are unique
 * within a set only).
 *
 * @param labelSetId - the set
 * @param labelItemId - the item, within the set
 * @returns a string key, the same for the same pair
 * @example
 * ```ts
 * itemKey('1', '11'); // '1\u000011'
 * ```
 */
export function itemKey(labelSetId: string, labelItemId: string): string {
  return `${labelSetId}\u0000${labelItemId}`;
}

/** One label as spans refer to it: the name the model gave, its layer, and the item it was bound to. */
interface Entry {
  spelling: string;
  /** The index of the label set the name was looked up in (the entity's `layer`). */
  layer: number;
  /** {@link itemKey} of the item, or undefined when that set had no item of the name when it was stored. */
  item: string | undefined;
  /** The item's own id (`TagItem.id`, a label's `l`), or undefined with `item`. */
  itemId: string | undefined;
}

/** The key of a name within a layer, for {@link itemsByName}. */
const nameKey = (layer: number, name: string) => `${layer}\u0000${name.toLowerCase()}`;

/**
 * Which label item a name means in a layer: in the label set whose index is the layer, the span
 * label (`SPAN` or `ALL`) of that name, compared case-insensitively, else a label of any type with
 * that name. Another set's label of the same name is never taken.
 */
function itemsByName(labelSets: readonly StoredLabelSet[]): Map<string, { key: string; id: string }> {
  const spans = new Map<string, { key: string; id: string }>();
  const any = new Map<string, { key: string; id: string }>();
  for (const set of labelSets) {
    for (const item of set.labels) {
      const name = nameKey(set.index, item.name);
      const bound = { key: itemKey(set.id, item.id), id: item.id };
      if (item.type !== 'ARROW' && !spans.has(name)) spans.set(name, bound);
      if (!any.has(name)) any.set(name, bound);
    }
  }
  for (const [name, bound] of any) if (!spans.has(name)) spans.set(name, bound);
  return spans;
}

/**
 * The labels of one copy (a labeler's or the reviewer's) bound to label item ids: what the store's
 * labels refer to.
 *
 * @remarks The model names a label by its name and a `layer` (the index of a label set, 0 when
 * absent); when a label is stored, the name is bound to the label item that has it in the label
 * set of that index at that moment (see `itemsByName`), and the label keeps that item's id. A
 * label set of another index with the same name is never taken (the job runner refuses an entity
 * whose layer has no such label). So a rename that keeps the id keeps the applied labels (they
 * show the new name), and a removed item's applied labels can be found and removed
 * ({@link LabelRefs.itemAt}). A name that the layer's set lacks (only possible in process) is kept
 * as it was given and belongs to no item. A name is shown as the model spelled it while the item
 * still has that name (case aside), else as the item's name now. Call
 * {@link LabelRefs.labelSetsChanged} after every change of the project's label sets.
 * @example
 * ```ts
 * const refs = new LabelRefs(() => store.projects.get('demo-project')!.labelSets);
 * refs.indexOf('person', 0); // the entry of item 11 of set 1 (index 0)
 * ```
 */
export class LabelRefs {
  private readonly entries: Entry[] = [];
  private readonly entryByKey = new Map<string, number>();
  /** Layer → name as given → entry, for the label sets as they are now (no string built per lookup). */
  private byName = new Map<number, Map<string, number>>();
  /** Layer and lower-case name → item, for the label sets as they are now; built on first use. */
  private names: Map<string, { key: string; id: string }> | undefined;
  /** Item key → item, for the label sets as they are now; built on first use. */
  private items: Map<string, StoredLabel> | undefined;
  /** Entry → name shown, for the label sets as they are now. */
  private shown: (string | undefined)[] = [];

  /**
   * @param labelSets - the project's label sets as they are now (read again after each change)
   */
  constructor(private readonly labelSets: () => readonly StoredLabelSet[]) {}

  /**
   * @param name - a label name as the model gave it
   * @param layer - the entity's layer: the index of the label set to look the name up in
   * @returns the entry the labels store: the same for the same name, layer and item
   */
  indexOf(name: string, layer = 0): number {
    let inLayer = this.byName.get(layer);
    if (!inLayer) this.byName.set(layer, (inLayer = new Map()));
    let index = inLayer.get(name);
    if (index !== undefined) return index;
    this.names ??= itemsByName(this.labelSets());
    const bound = this.names.get(nameKey(layer, name));
    const key = `${bound?.key ?? ''}\u0001${layer}\u0000${name}`;
    index = this.entryByKey.get(key);
    if (index === undefined) {
      index = this.entries.length;
      this.entries.push({ spelling: name, layer, item: bound?.key, itemId: bound?.id });
      this.entryByKey.set(key, index);
    }
    inLayer.set(name, index);
    return index;
  }

  /**
   * @param index - an entry given by {@link LabelRefs.indexOf}
   * @returns the name to show: as given while the item keeps that name (case aside), else the
   * item's name now
   */
  nameAt(index: number): string {
    let name = this.shown[index];
    if (name === undefined) {
      const entry = this.entries[index]!;
      this.items ??= new Map(this.labelSets().flatMap((set) => set.labels.map((item) => [itemKey(set.id, item.id), item] as const)));
      const item = entry.item === undefined ? undefined : this.items.get(entry.item);
      name = item && item.name.toLowerCase() !== entry.spelling.toLowerCase() ? item.name : entry.spelling;
      this.shown[index] = name;
    }
    return name;
  }

  /**
   * @param index - an entry given by {@link LabelRefs.indexOf}
   * @returns the {@link itemKey} of the item the entry is bound to, or undefined
   */
  itemAt(index: number): string | undefined {
    return this.entries[index]?.item;
  }

  /**
   * @param index - an entry given by {@link LabelRefs.indexOf}
   * @returns the bound item's own id (a label's `l`), or undefined for a name bound to no item
   */
  itemIdAt(index: number): string | undefined {
    return this.entries[index]?.itemId;
  }

  /**
   * @param index - an entry given by {@link LabelRefs.indexOf}
   * @returns the layer the name was looked up in (the label set's index)
   */
  layerAt(index: number): number {
    return this.entries[index]?.layer ?? 0;
  }

  /** Forgets what was worked out from the label sets; the next reads and writes use them as they are now. */
  labelSetsChanged(): void {
    this.byName = new Map();
    this.names = undefined;
    this.items = undefined;
    this.shown = [];
  }
}
