import { createHash } from 'node:crypto';
import type { LabelItem, LabelSet } from 'labelkit';
import type { LabelSetFingerprint } from './plan.js';

/** A live label as read. */
export type LiveLabelItem = LabelItem;

/**
 * A digest of a set's items as read: every field of every item, in the set's order.
 *
 * @param items - the set's items
 * @returns sha256, hex
 * @remarks Computed here, not taken from the service's `signature`, which may be absent and
 * whose recipe is not published; a plan carries both and applying compares both.
 * @example
 * ```ts
 * itemsHash(set.labelItems); // '3f7a…'
 * ```
 */
export function itemsHash(items: readonly LiveLabelItem[]): string {
  const rows = items.map((item) => [item.id, item.parentId ?? null, item.labelName, item.color ?? null, item.desc ?? null]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/**
 * What a plan remembers of one live set.
 *
 * @param set - a set as read
 * @returns its id, index, name, signature, items hash and number of labels
 * @example
 * ```ts
 * const against = (await client.getProjectLabelSets('p', 'LABELER')).map(fingerprintLabelSet);
 * ```
 */
export function fingerprintLabelSet(set: LabelSet): LabelSetFingerprint {
  return { id: set.id, index: set.index, name: set.name, signature: set.signature ?? null, itemsHash: itemsHash(set.labelItems), labelCount: set.labelItems.length };
}

/**
 * How the live sets differ from what a plan was computed against.
 *
 * @param against - the plan's fingerprints
 * @param live - the sets as read now
 * @returns one sentence per difference; empty when they are the same
 * @example
 * ```ts
 * compareFingerprints(plan.against, await client.getProjectLabelSets(plan.projectId, plan.role));
 * // ['label set 0 "Entities" (id 1): its labels changed (signature abc… → def…)']
 * ```
 */
export function compareFingerprints(against: readonly LabelSetFingerprint[], live: readonly LabelSet[]): string[] {
  const differences: string[] = [];
  const now = new Map(live.map((set) => [set.id, fingerprintLabelSet(set)]));
  const name = (f: LabelSetFingerprint) => `label set ${f.index} "${f.name}" (id ${f.id})`;
  for (const was of against) {
    const is = now.get(was.id);
    if (!is) {
      differences.push(`${name(was)} is gone`);
      continue;
    }
    now.delete(was.id);
    if (is.index !== was.index) differences.push(`${name(was)} is now at index ${is.index}`);
    if (is.name !== was.name) differences.push(`${name(was)} is now named "${is.name}"`);
    if (is.itemsHash !== was.itemsHash || is.signature !== was.signature) {
      const signature = is.signature !== was.signature ? ` (signature ${was.signature ?? 'none'} → ${is.signature ?? 'none'})` : '';
      differences.push(`${name(was)}: its labels changed, ${was.labelCount} → ${is.labelCount} labels${signature}`);
    }
  }
  for (const added of now.values()) differences.push(`${name(added)} is new`);
  return differences;
}
