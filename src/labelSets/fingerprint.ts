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
 * const against = (await getProjectLabelSets(client, 'p', 'LABELER')).map(fingerprintLabelSet);
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
 * compareFingerprints(plan.against, await getProjectLabelSets(client, plan.projectId, plan.role));
 * // ['label set 0 "Entities" (id 1): its labels changed (signature abc… → def…)']
 * ```
 */
export function compareFingerprints(against: readonly LabelSetFingerprint[], live: readonly LabelSet[]): string[] {
  return differences(against, live, fingerprintLabelSet);
}

/**
 * What an apply expects a set to be right before its next write: as it was read, or as the
 * apply's own writes left it.
 */
export interface ExpectedLabelSet {
  set: LabelSet;
  /** The order of the labels is not known (as a write's answer left them: an append's answer holds the new labels only). */
  anyOrder?: boolean;
  /** The signature is not known (an append answers none). */
  signatureUnknown?: boolean;
}

/**
 * How the live sets differ from what an apply expects them to be between its writes (so a
 * change made by someone else while a write was in flight is seen before the next one).
 *
 * @param expected - every set the project should have now
 * @param live - the sets as read now
 * @returns one sentence per difference, in the words of {@link compareFingerprints}
 */
export function compareExpected(expected: readonly ExpectedLabelSet[], live: readonly LabelSet[]): string[] {
  const anyOrder = new Set(expected.filter((e) => e.anyOrder).map((e) => e.set.id));
  const was = expected.map((e) => ({ ...fingerprintOf(e.set, e.anyOrder === true), ...(e.signatureUnknown && { signature: undefined }) }));
  return differences(was, live, (set) => fingerprintOf(set, anyOrder.has(set.id)));
}

/** A fingerprint whose items hash ignores their order when asked. */
function fingerprintOf(set: LabelSet, anyOrder: boolean): LabelSetFingerprint {
  const fingerprint = fingerprintLabelSet(set);
  return anyOrder ? { ...fingerprint, itemsHash: itemsHash([...set.labelItems].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) } : fingerprint;
}

/** `signature: undefined`: not known, so not compared. */
type Seen = Omit<LabelSetFingerprint, 'signature'> & { signature?: string | null };

function differences(against: readonly Seen[], live: readonly LabelSet[], fingerprint: (set: LabelSet) => LabelSetFingerprint): string[] {
  const found: string[] = [];
  const now = new Map(live.map((set) => [set.id, fingerprint(set)]));
  const name = (f: Seen) => `label set ${f.index} "${f.name}" (id ${f.id})`;
  for (const was of against) {
    const is = now.get(was.id);
    if (!is) {
      found.push(`${name(was)} is gone`);
      continue;
    }
    now.delete(was.id);
    if (is.index !== was.index) found.push(`${name(was)} is now at index ${is.index}`);
    if (is.name !== was.name) found.push(`${name(was)} is now named "${is.name}"`);
    const signed = was.signature !== undefined && is.signature !== was.signature;
    if (is.itemsHash !== was.itemsHash || signed) {
      const signature = signed ? ` (signature ${was.signature ?? 'none'} → ${is.signature ?? 'none'})` : '';
      found.push(`${name(was)}: its labels changed, ${was.labelCount} → ${is.labelCount} labels${signature}`);
    }
  }
  for (const added of now.values()) found.push(`${name(added)} is new`);
  return found;
}
