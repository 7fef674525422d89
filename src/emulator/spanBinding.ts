import type { SpanResponse } from 'labelkit/model';
import { coversToken } from './tokens.js';
import type { StoredLabelSet } from './types.js';

/**
 * The span label names of each label set, lower case, by the set's index, and each spelling a
 * model used, once checked (a job's answers repeat a few spellings millions of times).
 */
type NamesByLayer = Map<number, { name: string; names: Set<string>; checked: Map<string, boolean> }>;

/** What {@link spanLabelNames} reads of a label set (a data folder's sets have no name yet). */
export interface LabelSetNames {
  index: number;
  name?: string;
  labels: readonly { name: string; type?: string | null | undefined }[];
}

const namesCache = new WeakMap<readonly LabelSetNames[], NamesByLayer>();

/**
 * The span label names of label sets by set index, made once per list of sets (kept while the list is).
 *
 * @param labelSets - a project's label sets (a new list after any change, as the store keeps them)
 * @returns per set index: the set's name and its span labels' names in lower case (arrow labels left out)
 * @example
 * ```ts
 * spanLabelNames(project.labelSets).get(0)?.names.has('person'); // true when set 0 has a span label PERSON
 * ```
 */
export function spanLabelNames(labelSets: readonly LabelSetNames[]): NamesByLayer {
  let byLayer = namesCache.get(labelSets);
  if (!byLayer) {
    byLayer = new Map(labelSets.map((set) => [set.index, { name: set.name ?? '', names: new Set(set.labels.filter((l) => l.type !== 'ARROW').map((l) => l.name.toLowerCase())), checked: new Map() }]));
    namesCache.set(labelSets, byLayer);
  }
  return byLayer;
}

/**
 * What keeps a model's answer (already checked against the span contract) from being stored as
 * the service stores labels: an entity whose `layer` names no label set, whose label is not a span
 * label of the label set of that index, or whose span holds white space only (no token to snap to).
 *
 * @param labelSets - the project's label sets now
 * @param lines - the lines of the answer's document
 * @param answer - the answer, valid by `validateSpanResponse`
 * @returns one `{ path, message }` per problem, paths as `validateSpanResponse` gives them
 * @remarks The span contract lets a model name any label of the project; the emulator binds a
 * name inside the label set given by the entity's `layer` (0 when absent), as production's labels
 * carry the set's index, so a name from another set is refused rather than bound to the first set
 * that has it.
 * @example
 * ```ts
 * spanBindingProblems(project.labelSets, doc.lines, answer); // [] when every entity can be stored
 * ```
 */
export function spanBindingProblems(labelSets: readonly StoredLabelSet[], lines: readonly string[], answer: SpanResponse): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const byLayer = spanLabelNames(labelSets);
  const labels = answer.documents[0]?.labels ?? [];
  // Plain loops, and a path only for a problem: this runs for every entity of every answer.
  for (let i = 0; i < labels.length; i++) {
    const line = labels[i]!;
    for (let j = 0; j < line.entities.length; j++) {
      const e = line.entities[j]!;
      const path = () => `documents[0].labels[${i}].entities[${j}]`;
      const layer = e.layer ?? 0;
      const set = byLayer.get(layer);
      if (!set) problems.push({ path: `${path()}.layer`, message: `no label set has the index ${layer} (the project's sets have ${[...byLayer.keys()].join(', ') || 'none'})` });
      else {
        let known = set.checked.get(e.label);
        if (known === undefined) set.checked.set(e.label, (known = set.names.has(e.label.toLowerCase())));
        if (!known) problems.push({ path: `${path()}.label`, message: `"${e.label}" is not a span label of label set ${layer} ("${set.name}"), the set the entity's layer names` });
      }
      if (!coversToken(lines[line.id] ?? '', e.start_char, e.end_char)) problems.push({ path: path(), message: `the span ${e.start_char}-${e.end_char} holds white space only: no token to label` });
    }
  }
  return problems;
}
