import { ValidationError } from 'labelkit';
import type { AppliedLabelCount, LabelSet } from 'labelkit';
import { checkLabelSetPlan } from './checkPlan.js';
import { ApplyError, DestructiveStepsError, PlanStaleError } from './errors.js';
import { compareFingerprints } from './fingerprint.js';
import { describeStep, describeWrite } from './formatPlan.js';
import { destructiveSteps } from './plan.js';
import type { LabelSetPlan, PlanWrite } from './plan.js';
import { countsBySet } from './types.js';
import type { LabelSetsClient } from './types.js';

/** Options of {@link applyLabelSetPlan}. */
export interface ApplyLabelSetPlanOptions {
  /**
   * Carry out steps that remove labels with applied labels (or whose count is not known).
   * @defaultValue false
   */
  allowDestructive?: boolean;
  /** Stops before the next write (a write already sent is not taken back). */
  signal?: AbortSignal;
  /** Time-out of each call, in ms (the client's default otherwise). */
  timeoutMs?: number;
  /** Called after each write the service confirmed. */
  onWrite?: (write: AppliedWrite) => void;
}

/** A write the service confirmed. */
export interface AppliedWrite {
  /** Its index in the plan's `writes`. */
  index: number;
  op: PlanWrite['op'];
  setIndex: number;
  /** The set's id (for a creation: the id the service gave it). */
  setId: string;
  /** In words, e.g. `append 1 label to label set 0 "Entities" (id 1)`. */
  description: string;
}

/** An id the service made for a label that was appended without one. */
export interface GeneratedLabelId {
  setIndex: number;
  setId: string;
  labelName: string;
  id: string;
}

/** What {@link applyLabelSetPlan} did. */
export interface ApplyLabelSetPlanResult {
  /** Every write, in order (all of the plan's). */
  writes: AppliedWrite[];
  /** Ids the service made; put them in the file to keep it exact (the next plan matches these labels by name meanwhile). */
  generatedIds: GeneratedLabelId[];
  /** Sets created, with the ids the service gave them. */
  createdSets: { setIndex: number; setId: string; name: string }[];
}

/**
 * Applies a plan: re-reads the sets, writes nothing if any changed since the plan, then sends
 * the plan's writes in order.
 *
 * @param client - a client made by `createLabelingClient` (or anything with the same methods)
 * @param plan - from `planLabelSets`, or read back from a saved plan file
 * @param options - `allowDestructive`, signal, time-out, `onWrite`
 * @returns the writes done, the ids the service made, the sets created
 * @throws {@link ValidationError} when the plan is not a plan (nothing is sent);
 * {@link DestructiveStepsError} when a step removes labels with applied labels (or an unknown
 * number) and `allowDestructive` is not set (nothing is sent), also when labels were applied
 * since the plan to a label it removes (counted again when the client can count; nothing written);
 * {@link PlanStaleError} when a set differs from what the plan was computed against ("changed
 * since the plan: re-plan"; nothing is written);
 * {@link ApplyError} when a write fails part way: it names the writes done, the one that failed
 * and those not sent; `outcomeUnknown` when the failed write's answer was lost
 * @remarks Compare-and-swap: the read right before writing must match the plan's `against`
 * (id, index, name, signature and a hash of the items of every set). Each write to an existing
 * set also sends `labelSetSignature` (the last one read or returned), but the guard does not rely
 * on the service enforcing it. Writes are mutations: none is ever retried. A lost answer
 * (`NetworkError` with `mutationOutcomeUnknown`) is reported as unknown: the next plan shows
 * what happened. The writes are ordered (see `diffLabelSets`) so that a failure part way leaves
 * a state that the next plan finishes.
 * @example
 * ```ts
 * const plan = await planLabelSets(client, 'demo-project', 'LABELER', spec);
 * const result = await applyLabelSetPlan(client, plan, { allowDestructive: false });
 * for (const g of result.generatedIds) console.log(`${g.labelName}: id ${g.id}`);
 * ```
 */
export async function applyLabelSetPlan(client: LabelSetsClient, plan: LabelSetPlan, options: ApplyLabelSetPlanOptions = {}): Promise<ApplyLabelSetPlanResult> {
  const problems = checkLabelSetPlan(plan);
  for (const method of ['getProjectLabelSets', 'createLabelSet', 'updateLabelSet', 'appendLabelItems', 'deleteLabelSet'] as const) {
    if (typeof client?.[method] !== 'function') problems.push({ path: 'client', message: `must have ${method} (a client made by createLabelingClient)` });
  }
  if (problems.length > 0) throw new ValidationError(problems, { operationName: 'applyLabelSetPlan' });
  assertDestructiveAllowed(plan, options.allowDestructive);
  const call = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  const live = await client.getProjectLabelSets(plan.projectId, plan.role, call);
  const differences = compareFingerprints(plan.against, live);
  if (differences.length > 0) throw new PlanStaleError(differences);
  if (options.allowDestructive !== true) {
    refuseHiddenRemovals(plan, live);
    await refuseNewlyApplied(plan, options.allowDestructive, () => client.getAppliedLabelCounts?.(plan.projectId, call));
  }

  const signatures = new Map(live.map((set) => [set.id, set.signature ?? undefined]));
  const result: ApplyLabelSetPlanResult = { writes: [], generatedIds: [], createdSets: [] };
  for (let index = 0; index < plan.writes.length; index++) {
    const write = plan.writes[index]!;
    const description = describeWrite(plan, index);
    const fail = (reason: string, outcomeUnknown: boolean, cause?: unknown): never => {
      throw new ApplyError(
        { done: result.writes.map((w) => w.description), failed: description, notSent: plan.writes.slice(index + 1).map((_, j) => describeWrite(plan, index + 1 + j)), outcomeUnknown, reason },
        cause,
      );
    };
    if (options.signal?.aborted) fail('interrupted before it was sent', false);
    let setId: string;
    try {
      setId = await send(write);
    } catch (error) {
      const unknown = error instanceof Error && 'mutationOutcomeUnknown' in error && error.mutationOutcomeUnknown === true;
      fail(error instanceof Error ? error.message : String(error), unknown, error);
    }
    const done: AppliedWrite = { index, op: write.op, setIndex: write.setIndex, setId: setId!, description };
    result.writes.push(done);
    options.onWrite?.(done);
  }
  return result;

  async function send(write: PlanWrite): Promise<string> {
    const signature = (setId: string) => {
      const value = signatures.get(setId);
      return value === undefined ? {} : { labelSetSignature: value };
    };
    switch (write.op) {
      case 'create': {
        const set = await client.createLabelSet(plan.projectId, { index: write.setIndex, name: write.name, labelItems: write.labelItems }, call);
        signatures.set(set.id, set.signature ?? undefined);
        result.createdSets.push({ setIndex: write.setIndex, setId: set.id, name: set.name });
        return set.id;
      }
      case 'update': {
        const set = await client.updateLabelSet(
          { id: write.setId, projectId: plan.projectId, ...signature(write.setId), ...(write.name !== undefined && { name: write.name }), ...(write.labelItems && { labelItems: write.labelItems }) },
          call,
        );
        signatures.set(write.setId, set.signature ?? undefined);
        return write.setId;
      }
      case 'append': {
        const added = await client.appendLabelItems({ labelSetId: write.setId, ...signature(write.setId), labelItems: write.labelItems }, call);
        // The answer has the new labels only, and no new signature: a later write to this set sends none.
        signatures.delete(write.setId);
        const unclaimed = [...added];
        for (const sent of write.labelItems) {
          if (sent.id !== undefined) continue;
          const at = unclaimed.findIndex((item) => item.labelName.toLowerCase() === sent.labelName.toLowerCase());
          if (at < 0) continue;
          result.generatedIds.push({ setIndex: write.setIndex, setId: write.setId, labelName: unclaimed[at]!.labelName, id: unclaimed[at]!.id });
          unclaimed.splice(at, 1);
        }
        return write.setId;
      }
      case 'delete':
        await client.deleteLabelSet(write.setId, call);
        signatures.delete(write.setId);
        return write.setId;
    }
  }
}

/**
 * Refuses a plan with destructive steps unless they are allowed: what {@link applyLabelSetPlan}
 * checks first, for callers that want to refuse before asking a person.
 *
 * @param plan - a plan
 * @param allowDestructive - whether steps that remove applied labels (or an unknown number) may run
 * @throws {@link DestructiveStepsError} naming each such step and the applied labels they remove
 * @example
 * ```ts
 * assertDestructiveAllowed(plan, flags.allowDestructive); // before asking "apply?"
 * ```
 */
export function assertDestructiveAllowed(plan: LabelSetPlan, allowDestructive: boolean | undefined): void {
  const destructive = destructiveSteps(plan);
  if (destructive.steps.length > 0 && allowDestructive !== true) {
    throw new DestructiveStepsError(destructive.steps.map(describeStep), destructive.appliedLabels);
  }
}

/**
 * Labeling goes on between a plan and its apply: a removal planned with 0 applied labels is
 * counted again (when the client can count) and refused if labels were applied since.
 */
async function refuseNewlyApplied(
  plan: LabelSetPlan,
  allowDestructive: boolean | undefined,
  count: () => Promise<AppliedLabelCount[] | null> | undefined,
): Promise<void> {
  const removals = plan.steps.filter((s) => (s.kind === 'remove-items' || s.kind === 'delete-set') && s.items.length > 0);
  if (removals.length === 0 || allowDestructive === true) return;
  const now = countsBySet(await count());
  if (!now) return;
  const grown: string[] = [];
  let total = 0;
  for (const step of removals) {
    const n = step.items.reduce((sum, item) => sum + (now[step.setId ?? '']?.[item.id ?? ''] ?? 0), 0);
    if (n > 0) grown.push(`${describeStep(step)}, but ${n} applied label${n === 1 ? ' has' : 's have'} been added since the plan`);
    total += n;
  }
  if (grown.length > 0) throw new DestructiveStepsError(grown, total);
}

/**
 * A saved plan may have been edited: a write that removes labels must be shown by a step the
 * guard saw (a removal with a known count of 0 is the only one let through without
 * `allowDestructive`). Checked against the sets as just read, which equal the plan's.
 */
function refuseHiddenRemovals(plan: LabelSetPlan, live: readonly LabelSet[]): void {
  const hidden: string[] = [];
  plan.writes.forEach((write, index) => {
    const set = live.find((s) => write.op !== 'create' && s.id === write.setId);
    if (!set) return;
    const kept = write.op === 'delete' ? new Set<string>() : write.op === 'update' && write.labelItems ? new Set(write.labelItems.map((i) => i.id)) : undefined;
    if (!kept) return;
    const removed = set.labelItems.filter((item) => !kept.has(item.id)).map((item) => item.id);
    const shown = new Set(
      plan.steps
        .filter((s) => s.write === index && (s.kind === 'remove-items' || s.kind === 'delete-set') && s.appliedLabels === 0)
        .flatMap((s) => s.items.map((item) => item.id)),
    );
    const unshown = removed.filter((id) => !shown.has(id));
    if (unshown.length > 0) hidden.push(`${describeWrite(plan, index)} removes label${unshown.length === 1 ? '' : 's'} ${unshown.join(', ')}, which no step shows as removing no applied label`);
  });
  if (hidden.length > 0) throw new DestructiveStepsError(hidden, null);
}
