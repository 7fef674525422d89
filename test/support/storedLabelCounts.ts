import type { PageInput } from '../../src/emulator/labelReads.js';
import type { EmulatorStore } from '../../src/emulator/store.js';

/**
 * The labels a store holds per label, keyed `<set id>/<label id>` (0 for a label never applied),
 * read the way `getLabelsPaginated` serves them: every document of every copy, page by page,
 * each label's `layer` taken as its set's index and `l` as its id. Deleted labels count too (the
 * store holds them); a label bound to no label of the sets is left out.
 *
 * @param store - the emulator's store
 * @param projectId - the project
 * @returns `<set id>/<label id>` → labels
 */
export function storedLabelCounts(store: EmulatorStore, projectId: string): Record<string, number> {
  const sets = store.projects.get(projectId)!.labelSets;
  const counts: Record<string, number> = Object.fromEntries(sets.flatMap((s) => s.labels.map((l) => [`${s.id}/${l.id}`, 0])));
  const setOfLayer = new Map(sets.map((s) => [s.index, s.id]));
  for (const cabinet of store.cabinets(projectId)!) {
    for (const doc of store.cabinetDocuments(cabinet)) {
      let input: PageInput = { page: { skip: 0, take: 100 } };
      for (;;) {
        const page = store.labelPage(doc.id, input)!;
        for (const node of page.nodes) {
          const key = `${setOfLayer.get(node.layer)}/${node.l}`;
          if (key in counts) counts[key]! += 1;
        }
        if (page.pageInfo.nextCursor === null) break;
        input = { cursor: page.pageInfo.nextCursor };
      }
    }
  }
  return counts;
}
