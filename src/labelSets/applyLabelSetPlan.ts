import { appendLabelItems, createLabelSet, deleteLabelSet, getProjectLabelSets, isLabelkitError, updateLabelSet, ValidationError } from 'labelkit';
import type { LabelSet } from 'labelkit';
import { checkSavedLabelSetPlan } from './checkPlan.js';
import { diffLabelSets } from './diffLabelSets.js';
import { ApplyError, DestructiveStepsError, PlanStaleError } from './errors.js';
import { compareExpected, compareFingerprints } from './fingerprint.js';
import type { ExpectedLabelSet } from './fingerprint.js';
import { classifyFailure, errorCode } from '../shared/classify.js';
import { describeStep, describeWrite } from './formatPlan.js';
import { destructiveSteps } from './plan.js';
import type { LabelSetPlan, PlanWrite, SavedLabelSetPlan } from './plan.js';
import { canCount, countAppliedLabels, needsCounts } from './countAppliedLabels.js';
import type { CountProgress } from './countAppliedLabels.js';
import type { AppliedLabelCounts, LabelSetsClient } from './types.js';

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
  /**
   * Applied labels per label (set id → label id → count), when they are not counted (a client
   * without `request`, or `countLabels: false`): as for `planLabelSets`. A client that can count
   * counts them again instead.
   */
  appliedLabels?: AppliedLabelCounts;
  /**
   * Count the applied labels of what a write removes (see `countAppliedLabels`): right after
   * reading the sets, when the writes remove labels, and again right before a later write that
   * removes labels counted with none. `false`: not counted; `appliedLabels` stands, and a removal
   * not in it counts as destructive.
   * @defaultValue true
   */
  countLabels?: boolean;
  /** Progress of each count: called once the copies are known, then after each document. */
  onCountProgress?: (progress: CountProgress) => void;
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
 * Applies a plan: re-reads the sets, writes nothing if any changed since the plan, computes the
 * writes again from what was wanted, then sends them in order.
 *
 * @param client - a client made by `createLabelingClient` (only its `request` is used, through the helpers of `labelkit`)
 * @param given - from `planLabelSets`, or a saved plan read back (see `savedLabelSetPlan`): its
 * `projectId`, `role`, `against` and `desired` are what is used
 * @param options - `allowDestructive`, signal, time-out, `onWrite`, `countLabels`, `onCountProgress`
 * @returns the writes done, the ids the service made, the sets created
 * @throws `ValidationError` when the plan is not a plan (nothing is sent);
 * {@link DestructiveStepsError} when a step removes labels with applied labels (or an unknown
 * number) and `allowDestructive` is not set: before reading, for the steps of a plan in memory;
 * after reading, for the writes computed again with the applied labels counted then (nothing is
 * written); before a later write, when labels were applied meanwhile to what it removes (it names
 * the writes done);
 * {@link PlanStaleError} when a set differs from what the plan was computed against ("changed
 * since the plan: re-plan"; nothing is written), or, later, from what the writes done so far left
 * (it names them: nothing else is written), or when the service refuses a write because the set
 * changed (a stale signature);
 * {@link LabelSetsPlanError} when the desired sets cannot be reached (see `diffLabelSets`);
 * {@link ApplyError} when a write fails part way: it names the writes done, the one that failed
 * and those not sent; `outcomeUnknown` when the failed write was sent and its answer was lost,
 * `refused` when the service said no (sending it again fails the same way)
 * @remarks Compare-and-swap: the read right before the first write must match the plan's
 * `against` (id, index, name, signature and a hash of the items of every set). The writes are
 * not taken from the plan but computed again (`diffLabelSets`) from `desired` and those sets,
 * which equal the ones planned against: the same writes, and nothing an edited plan file could
 * add. The sets are read again right before each later write and must be as the writes done so
 * far left them: a change someone made while a write was in flight stops the apply before its
 * next write (a deletion carries no signature). Each write to an existing set also sends
 * `labelSetSignature` (the last one read or returned), but the guard does not rely on the
 * service enforcing it. Writes are mutations: none is ever retried. A lost answer
 * (`mutationOutcomeUnknown`) is reported as unknown: the next plan shows what happened. The
 * writes are ordered (see `diffLabelSets`) so that a failure part way leaves a state that the
 * next plan finishes.
 * @example
 * ```ts
 * const plan = await planLabelSets(client, 'demo-project', 'LABELER', spec);
 * const result = await applyLabelSetPlan(client, plan, { allowDestructive: false });
 * for (const g of result.generatedIds) console.log(`${g.labelName}: id ${g.id}`);
 * ```
 */
export async function applyLabelSetPlan(client: LabelSetsClient, given: SavedLabelSetPlan, options: ApplyLabelSetPlanOptions = {}): Promise<ApplyLabelSetPlanResult> {
  const problems = checkSavedLabelSetPlan(given);
  if (typeof client?.request !== 'function') problems.push({ path: 'client', message: 'must have request (a client made by createLabelingClient)' });
  if (problems.length > 0) throw new ValidationError(problems, { operationName: 'applyLabelSetPlan' });
  // What was shown (a plan in memory has its steps): refused before anything is read.
  if ('steps' in given) assertDestructiveAllowed(given as LabelSetPlan, options.allowDestructive);
  const call = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  const readSets = () => getProjectLabelSets(client, given.projectId, given.role, call);
  // Counting reads every label of every copy of the project (the service's own reads).
  const countOptions = { ...call, ...(options.onCountProgress && { onProgress: options.onCountProgress }) };
  const countApplied =
    options.countLabels !== false && canCount(client) ? (sets: readonly LabelSet[]) => countAppliedLabels(client, given.projectId, sets, countOptions) : undefined;
  const live = await readSets();
  const differences = compareFingerprints(given.against, live);
  if (differences.length > 0) throw new PlanStaleError(differences);
  // The sets are as planned, so the writes follow from what was wanted, as when it was planned;
  // the applied labels are counted now, when a write removes labels (labeling goes on between a
  // plan and its apply), or, when they are not counted, taken from the caller.
  const known = options.appliedLabels && !countApplied ? { appliedLabels: options.appliedLabels } : {};
  let plan = diffLabelSets(given.projectId, given.role, live, given.desired, known);
  if (countApplied && needsCounts(plan)) plan = diffLabelSets(given.projectId, given.role, live, given.desired, { appliedLabels: await countApplied(live) });
  const destructive = destructiveSteps(plan);
  if (destructive.steps.length > 0 && options.allowDestructive !== true) {
    throw new DestructiveStepsError(destructive.steps.map((step) => `${describeStep(step)} (counted again right before writing)`), destructive.appliedLabels);
  }

  // What each set should be right now: as read, then as this apply's own writes left it (in an
  // order the answers to writes need not share with reads, so not compared).
  const expected = new Map<string, ExpectedLabelSet>(live.map((set) => [set.id, { set }]));
  const changedSince = async () => compareExpected([...expected.values()], await readSets());
  const signatures = new Map(live.map((set) => [set.id, set.signature ?? undefined]));
  const result: ApplyLabelSetPlanResult = { writes: [], generatedIds: [], createdSets: [] };
  const done = () => result.writes.map((w) => w.description);
  for (let index = 0; index < plan.writes.length; index++) {
    const write = plan.writes[index]!;
    const description = describeWrite(plan, index);
    const fail = (reason: string, how: { outcomeUnknown?: boolean; refused?: boolean }, cause?: unknown): never => {
      const notSent = plan.writes.slice(index + 1).map((_, j) => describeWrite(plan, index + 1 + j));
      throw new ApplyError({ done: done(), failed: description, notSent, outcomeUnknown: how.outcomeUnknown === true, refused: how.refused === true, reason }, cause);
    };
    if (options.signal?.aborted) fail('interrupted before it was sent', {});
    // Someone may have changed a set while the previous write was in flight: read again right
    // before this one (a delete carries no signature, and a service may not enforce one).
    if (index > 0) {
      const moved = await changedSince();
      if (moved.length > 0) throw new PlanStaleError(moved, done());
      if (options.allowDestructive !== true && countApplied) await refuseNewlyApplied(plan, index, done(), () => countApplied([...expected.values()].map((e) => e.set)));
    }
    let setId: string;
    try {
      setId = await send(write);
    } catch (error) {
      if (error instanceof Error && 'mutationOutcomeUnknown' in error && error.mutationOutcomeUnknown === true) fail(lostAnswer(error), { outcomeUnknown: true }, error);
      const refused = refusedByService(error);
      // A refusal because the set changed (a stale signature, whatever the service calls it) is a
      // change since the plan, like one seen by a read.
      const moved = refused ? await changedSince().catch(() => []) : [];
      if (moved.length > 0) throw new PlanStaleError(moved, done(), error);
      fail(error instanceof Error ? error.message : String(error), { refused }, error);
    }
    const applied: AppliedWrite = { index, op: write.op, setIndex: write.setIndex, setId: setId!, description };
    result.writes.push(applied);
    options.onWrite?.(applied);
  }
  return result;

  async function send(write: PlanWrite): Promise<string> {
    const signature = (setId: string) => {
      const value = signatures.get(setId);
      return value === undefined ? {} : { labelSetSignature: value };
    };
    switch (write.op) {
      case 'create': {
        const set = await createLabelSet(client, plan.projectId, { index: write.setIndex, name: write.name, labelItems: write.labelItems }, call);
        signatures.set(set.id, set.signature ?? undefined);
        expected.set(set.id, { set, anyOrder: true });
        result.createdSets.push({ setIndex: write.setIndex, setId: set.id, name: set.name });
        return set.id;
      }
      case 'update': {
        const set = await updateLabelSet(
          client,
          { id: write.setId, projectId: plan.projectId, ...signature(write.setId), ...(write.name !== undefined && { name: write.name }), ...(write.labelItems && { labelItems: write.labelItems }) },
          call,
        );
        signatures.set(write.setId, set.signature ?? undefined);
        expected.set(write.setId, { set, anyOrder: true });
        return write.setId;
      }
      case 'append': {
        const added = await appendLabelItems(client, { labelSetId: write.setId, ...signature(write.setId), labelItems: write.labelItems }, call);
        // The answer has the new labels only, and no new signature: a later write to this set sends none.
        signatures.delete(write.setId);
        const before = expected.get(write.setId)!.set;
        expected.set(write.setId, { set: { ...before, labelItems: [...before.labelItems, ...added] }, anyOrder: true, signatureUnknown: true });
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
        await deleteLabelSet(client, write.setId, call);
        signatures.delete(write.setId);
        expected.delete(write.setId);
        return write.setId;
    }
  }
}

/** Why a write's answer was lost, in words (the client's message would say "could not reach" for a connection cut after sending). */
function lostAnswer(error: unknown): string {
  const code = errorCode(error);
  if (code === 'TIMEOUT') return 'no answer within the time-out';
  if (code === 'ABORTED') return 'interrupted while waiting for the answer';
  if (code === 'BAD_RESPONSE') return 'the answer was not GraphQL JSON';
  return 'the connection ended before the answer arrived';
}

/** Whether the service answered and said no (sending the same write again fails the same way). */
function refusedByService(error: unknown): boolean {
  if (!isLabelkitError(error)) return false;
  if (error.code === 'GRAPHQL' || error.code === 'VALIDATION') return true;
  return error.status !== undefined && classifyFailure({ status: error.status }) === 'refused';
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
 * Labeling goes on while an apply writes: right before a later write that removes labels counted
 * with no applied labels, they are counted again (when the client can count), and the write is
 * refused if labels were applied to them meanwhile.
 */
async function refuseNewlyApplied(plan: LabelSetPlan, write: number, done: string[], count: () => Promise<AppliedLabelCounts>): Promise<void> {
  const removals = plan.steps.filter((s) => s.write === write && (s.kind === 'remove-items' || s.kind === 'delete-set') && s.appliedLabels === 0 && s.items.length > 0);
  if (removals.length === 0) return;
  const now = await count();
  const grown: string[] = [];
  let total = 0;
  for (const step of removals) {
    const n = step.items.reduce((sum, item) => sum + (now[step.setId ?? '']?.[item.id ?? ''] ?? 0), 0);
    if (n > 0) grown.push(`${describeStep(step)}, but ${n} applied label${n === 1 ? ' has' : 's have'} been added while the apply wrote`);
    total += n;
  }
  if (grown.length > 0) throw new DestructiveStepsError(grown, total, done);
}
