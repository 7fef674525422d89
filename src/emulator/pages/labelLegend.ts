import type { StoredLabelSet, StoredLabel } from '../types.js';
import type { LabelLook } from './highlightLine.js';
import { escapeHtml, safeColor } from './html.js';

/**
 * How each label of a project is drawn, by lower-case name (names compare case-insensitively).
 *
 * @param labelSets - the project's label sets
 * @returns a look-up that also answers labels no set has (grey, their own name)
 * @remarks When two sets share a name, the first set's colour wins. A label without a usable
 * colour gets one from a fixed palette, by its position.
 * @example
 * ```ts
 * const lookOf = labelLooks(project.labelSets);
 * lookOf('person'); // { name: 'PERSON', color: '#ef4444' }
 * ```
 */
export function labelLooks(labelSets: readonly StoredLabelSet[]): (label: string) => LabelLook {
  const looks = new Map<string, LabelLook>();
  let n = 0;
  for (const set of labelSets) {
    for (const item of set.labels) {
      const key = item.name.toLowerCase();
      if (!looks.has(key)) looks.set(key, { name: item.name, color: safeColor(item.color, n) });
      n++;
    }
  }
  return (label) => looks.get(label.toLowerCase()) ?? { name: label, color: '#94a3b8' };
}

/**
 * The legend: each label set as its label tree, with swatches and how many spans each label got.
 *
 * @param labelSets - the project's label sets
 * @param counts - spans per lower-case label name
 * @returns HTML (`<div class="legend">` per set)
 * @remarks Labels whose parent is missing from the set are shown at the top, so none is lost.
 * @example
 * ```ts
 * const html = labelLegendHtml(project.labelSets, new Map([['person', 7]]));
 * ```
 */
export function labelLegendHtml(labelSets: readonly StoredLabelSet[], counts: ReadonlyMap<string, number>): string {
  const lookOf = labelLooks(labelSets);
  return labelSets
    .map((set) => {
      const ids = new Set(set.labels.map((i) => i.id));
      const children = new Map<string | null, StoredLabel[]>();
      for (const item of set.labels) {
        const parent = item.parentId !== null && ids.has(item.parentId) && item.parentId !== item.id ? item.parentId : null;
        children.set(parent, [...(children.get(parent) ?? []), item]);
      }
      const seen = new Set<string>();
      const list = (parent: string | null): string => {
        const items = (children.get(parent) ?? []).filter((i) => !seen.has(i.id));
        if (items.length === 0) return '';
        for (const i of items) seen.add(i.id);
        return `<ul>${items
          .map((i) => {
            const look = lookOf(i.name);
            const count = counts.get(i.name.toLowerCase()) ?? 0;
            const desc = i.desc ? ` <span class="muted small">${escapeHtml(i.desc)}</span>` : '';
            return `<li data-legend-label="${escapeHtml(i.name)}"><span class="swatch" style="background:${look.color}"></span><strong>${escapeHtml(i.name)}</strong> <span class="muted">(${count})</span>${desc}${list(i.id)}</li>`;
          })
          .join('')}</ul>`;
      };
      return `<div class="legend box"><strong>${escapeHtml(set.name)}</strong> <span class="muted small">label set ${set.index}, ${set.labels.length} labels</span>${list(null)}</div>`;
    })
    .join('\n');
}
