import type { LabelIndex } from './compactLines.js';
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

/** One label as spans refer to it: the name the model gave, and the item it was bound to. */
interface Entry {
  spelling: string;
  /** {@link itemKey} of the item, or undefined when no item had the name when it was stored. */
  item: string | undefined;
}

/**
 * Which label item a name means in a project's label sets: the first set (by index) with a span
 * label (`SPAN` or `ALL`) of that name, compared case-insensitively, else the first with any label
 * of that name.
 */
function itemsByName(labelSets: readonly StoredLabelSet[]): Map<string, string> {
  const spans = new Map<string, string>();
  const any = new Map<string, string>();
  for (const set of [...labelSets].sort((a, b) => a.index - b.index)) {
    for (const item of set.labels) {
      const name = item.name.toLowerCase();
      if (item.type !== 'ARROW' && !spans.has(name)) spans.set(name, itemKey(set.id, item.id));
      if (!any.has(name)) any.set(name, itemKey(set.id, item.id));
    }
  }
  for (const [name, key] of any) if (!spans.has(name)) spans.set(name, key);
  return spans;
}

/**
 * The labels of one copy (a labeler's or reviewer's) bound to label item ids: what the store's
 * spans refer to.
 *
 * @remarks The model names a label by its name; when a span is stored, the name is bound to the
 * label item that has it in the project's label sets at that moment (see `itemsByName`), and the span
 * keeps that item's id. So a rename that keeps the id keeps the applied labels (they show the new
 * name), and a removed item's applied labels can be found and removed ({@link LabelRefs.itemAt}).
 * A name that no item has (only possible in process, the job runner checks names first) is kept
 * as it was given and belongs to no item. A name is shown as the model spelled it while the item
 * still has that name (case aside), else as the item's name now. Call
 * {@link LabelRefs.labelSetsChanged} after every change of the project's label sets.
 * @example
 * ```ts
 * const refs = new LabelRefs(() => store.projects.get('demo-project')!.labelSets);
 * const doc = new CompactLines(refs, 3);
 * ```
 */
export class LabelRefs implements LabelIndex {
  private readonly entries: Entry[] = [];
  private readonly entryByKey = new Map<string, number>();
  /** Name as given → entry, for the label sets as they are now. */
  private byName = new Map<string, number>();
  /** Lower-case name → item key, for the label sets as they are now; built on first use. */
  private names: Map<string, string> | undefined;
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
   * @returns the entry the spans store: the same for the same name and item
   */
  indexOf(name: string): number {
    let index = this.byName.get(name);
    if (index !== undefined) return index;
    this.names ??= itemsByName(this.labelSets());
    const item = this.names.get(name.toLowerCase());
    const key = `${item ?? ''}\u0001${name}`;
    index = this.entryByKey.get(key);
    if (index === undefined) {
      index = this.entries.length;
      this.entries.push({ spelling: name, item });
      this.entryByKey.set(key, index);
    }
    this.byName.set(name, index);
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

  /** Forgets what was worked out from the label sets; the next reads and writes use them as they are now. */
  labelSetsChanged(): void {
    this.byName = new Map();
    this.names = undefined;
    this.items = undefined;
    this.shown = [];
  }
}
