import { describe, expect, it } from 'vitest';
import { NetworkError, ValidationError } from '../../src/client/errors.js';
import { ApplyError, applyLabelSetPlan, checkSavedLabelSetPlan, DestructiveStepsError, planLabelSets, PlanStaleError, savedLabelSetPlan } from '../../src/labelSets/index.js';
import type { LabelSetSpec } from '../../src/labelSets/index.js';
import { demoSets, memoryClient } from './memoryClient.js';

const pull = (service: ReturnType<typeof memoryClient>): LabelSetSpec[] => structuredClone(service.state).map(({ signature: _s, ...set }) => set);
const planFor = (service: ReturnType<typeof memoryClient>, desired: LabelSetSpec[], options = {}) =>
  planLabelSets(service.client, 'demo-project', 'LABELER', { labelSets: desired }, options);

describe('applyLabelSetPlan', () => {
  it('writes the plan in order, sends the signature it last read or was answered, reports made ids, and the next plan is empty', async () => {
    const service = memoryClient();
    const signature = service.state[0]!.signature;
    const desired = pull(service);
    desired[0]!.name = 'Named entities';
    desired[0]!.labelItems.push({ labelName: 'EVENT' });
    const plan = await planFor(service, desired);
    const seen: string[] = [];
    const result = await applyLabelSetPlan(service.client, plan, { onWrite: (w) => seen.push(w.description) });
    expect(service.writeCalls()).toEqual([
      { method: 'updateLabelSet', input: { id: '1', projectId: 'demo-project', labelSetSignature: signature, name: 'Named entities' } },
      // A rename keeps the items, so the signature the rename returned is the same one.
      { method: 'appendLabelItems', input: { labelSetId: '1', labelSetSignature: signature, labelItems: [{ labelName: 'EVENT' }] } },
    ]);
    expect(seen).toEqual(['rename label set 0 "Named entities" (id 1) to "Named entities"', 'append 1 label to label set 0 "Named entities" (id 1)']);
    expect(result.generatedIds).toEqual([{ setIndex: 0, setId: '1', labelName: 'EVENT', id: '100' }]);
    expect((await planFor(service, desired)).writes).toEqual([]);
  });

  it('writes nothing and says "re-plan" when a set changed between the plan and the apply', async () => {
    const service = memoryClient();
    const desired = pull(service);
    desired[0]!.labelItems[0]!.labelName = 'THING';
    const plan = await planFor(service, desired);
    // Someone else's edit, behind the signature's back (it stays the same): the items hash sees it.
    service.state[1]!.labelItems[0]!.color = '#ffffff';
    const error = await applyLabelSetPlan(service.client, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanStaleError);
    expect((error as PlanStaleError).message).toMatch(/changed since the plan: re-plan \(nothing was written\)/);
    expect((error as PlanStaleError).differences).toEqual(['label set 1 "Relations" (id 2): its labels changed, 1 → 1 labels']);
    expect(service.writeCalls()).toEqual([]);
  });

  it('reads again before each later write: its own writes (a rename, an append, a delete) are expected, nothing else is', async () => {
    const service = memoryClient();
    service.setApplied({ '1': {}, '2': {} });
    const desired = pull(service).slice(0, 1);
    desired[0]!.name = 'Named entities';
    desired[0]!.labelItems.push({ labelName: 'EVENT' });
    const plan = await planFor(service, desired);
    expect(plan.writes.map((w) => w.op)).toEqual(['update', 'append', 'delete']);
    await applyLabelSetPlan(service.client, plan);
    // A count (the cabinets, then each document's labels) only where a write removes labels.
    expect(service.methods()).toEqual([
      'getProjectLabelSets', 'count', // the plan
      'getProjectLabelSets', 'count', 'updateLabelSet',
      'getProjectLabelSets', 'appendLabelItems',
      'getProjectLabelSets', 'count', 'deleteLabelSet',
    ]);
    expect(service.state.map((s) => s.id)).toEqual(['1']);
  });

  it('stops before the next write when a set changed while a write was in flight, naming the writes done', async () => {
    const service = memoryClient();
    const desired = pull(service).slice(0, 1);
    desired[0]!.labelItems[0]!.labelName = 'THING';
    const appliedLabels = { '1': {}, '2': {} };
    const plan = await planFor(service, desired, { appliedLabels });
    service.failWrites((method) => {
      if (method === 'updateLabelSet') service.state[1]!.labelItems[0]!.labelName = 'EMPLOYED_BY';
    });
    const error = await applyLabelSetPlan(service.client, plan, { appliedLabels }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanStaleError);
    expect(error).toMatchObject({ code: 'STALE', done: ['replace the labels of label set 0 "Entities" (id 1), 5 labels'], differences: ['label set 1 "Relations" (id 2): its labels changed, 1 → 1 labels'] });
    expect(service.writeCalls().map((c) => c.method)).toEqual(['updateLabelSet']);
    expect(service.state.map((s) => s.id)).toEqual(['1', '2']);
  });

  it('counts applied labels again right before a later write that removes labels, and says what was done', async () => {
    const service = memoryClient();
    service.setApplied({ '1': {}, '2': {} });
    const desired = pull(service).slice(0, 1);
    desired[0]!.name = 'Named entities';
    const plan = await planFor(service, desired);
    service.failWrites((method) => {
      if (method === 'updateLabelSet') service.setApplied({ '1': {}, '2': { '20': 2 } });
    });
    const error = await applyLabelSetPlan(service.client, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestructiveStepsError);
    expect(error).toMatchObject({ appliedLabels: 2, done: ['rename label set 0 "Named entities" (id 1) to "Named entities"'] });
    expect((error as Error).message).toContain('done before it was seen: rename label set 0');
    expect(service.state.map((s) => s.id)).toEqual(['1', '2']);
  });

  it('sees a set created or deleted since the plan', async () => {
    const service = memoryClient();
    const plan = await planFor(service, pull(service));
    service.state.splice(1, 1);
    service.state.push({ id: '7', index: 4, name: 'New', signature: 'x', labelItems: [] });
    await expect(applyLabelSetPlan(service.client, plan)).rejects.toMatchObject({ differences: ['label set 1 "Relations" (id 2) is gone', 'label set 4 "New" (id 7) is new'] });
  });

  it('refuses a destructive step without allowDestructive before reading anything, with the count, naming the option (not the CLI flag)', async () => {
    const service = memoryClient();
    const desired = pull(service).slice(0, 1);
    const plan = await planFor(service, desired, { appliedLabels: { '2': { '20': 4 } } });
    const reads = service.calls.length;
    const error = await applyLabelSetPlan(service.client, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestructiveStepsError);
    expect(error).toMatchObject({ code: 'DESTRUCTIVE', appliedLabels: 4, done: [] });
    const message = (error as Error).message;
    expect(message).toMatch(/refused: .*remove 4 applied labels/);
    // The library names its option, not the CLI's flag (a caller of the library has no flags).
    expect(message).toContain('allowDestructive: true');
    expect(message).not.toContain('--allow-destructive');
    expect(message).toContain('nothing was written');
    expect(message).toMatch(/delete label set 1 "Relations" \(id 2\).*: 4 applied labels/);
    expect(service.calls.length).toBe(reads);
    await applyLabelSetPlan(service.client, plan, { allowDestructive: true });
    expect(service.state.map((s) => s.id)).toEqual(['1']);
  });

  it('lets a removal of labels known to have no applied labels through without the flag', async () => {
    const service = memoryClient();
    const desired = pull(service);
    desired[0]!.labelItems.pop();
    const appliedLabels = { '1': { '10': 2 } };
    const plan = await planFor(service, desired, { appliedLabels });
    // Not counted (countLabels: false, as for a service that cannot count): the caller's counts stand, at plan and at apply.
    await expect(applyLabelSetPlan(service.client, plan, { countLabels: false })).rejects.toBeInstanceOf(DestructiveStepsError);
    await applyLabelSetPlan(service.client, plan, { appliedLabels, countLabels: false });
    expect(service.state[0]!.labelItems.map((i) => i.id)).toEqual(['10', '11', '12', '13']);
  });

  it('counts again right before writing, and refuses a removal of a label that was applied since the plan', async () => {
    const service = memoryClient();
    service.setApplied({ '1': {} });
    const desired = pull(service);
    desired[0]!.labelItems.pop(); // DATE, never applied when planned
    const plan = await planFor(service, desired);
    expect(plan.steps.at(-1)).toMatchObject({ kind: 'remove-items', destroysLabels: false, appliedLabels: 0 });
    service.setApplied({ '1': { '14': 3 } }); // a labeler used DATE meanwhile
    const error = await applyLabelSetPlan(service.client, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestructiveStepsError);
    expect((error as DestructiveStepsError).appliedLabels).toBe(3);
    expect((error as Error).message).toMatch(/remove DATE \(id 14\) from label set 0 "Entities": 3 applied labels .*counted again right before writing/);
    expect(service.writeCalls()).toEqual([]);
    await applyLabelSetPlan(service.client, plan, { allowDestructive: true });
    expect(service.state[0]!.labelItems.map((i) => i.id)).not.toContain('14');
  });

  it('refuses a saved plan edited to remove labels that its steps do not show, and never sends writes taken from the file', async () => {
    const service = memoryClient();
    const desired = pull(service);
    desired[0]!.labelItems[0]!.labelName = 'THING';
    const plan = await planFor(service, desired);
    const edited = JSON.parse(JSON.stringify(plan)) as typeof plan;
    edited.desired[0]!.labelItems = edited.desired[0]!.labelItems.slice(0, 2);
    const error = await applyLabelSetPlan(service.client, edited, { countLabels: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestructiveStepsError);
    expect(error).toMatchObject({ code: 'DESTRUCTIVE', appliedLabels: null });
    expect((error as Error).message).toMatch(/remove ORGANIZATION \(id 12\), LOCATION \(id 13\), DATE \(id 14\) from label set 0 "Entities": an unknown number of applied labels/);
    expect(service.writeCalls()).toEqual([]);
    // Writes are computed again from what was wanted: writes put into the file are not sent.
    const forged = { ...plan, writes: [{ op: 'delete' as const, setIndex: 1, setId: '2' }] };
    await applyLabelSetPlan(service.client, forged);
    expect(service.writeCalls().map((c) => c.method)).toEqual(['updateLabelSet']);
    expect(service.state.map((s) => s.id)).toEqual(['1', '2']);
  });

  it('says which writes were done when one fails part way, and the next plan finishes the rest', async () => {
    const service = memoryClient();
    const desired = pull(service);
    desired[0]!.labelItems[0]!.labelName = 'THING';
    desired.push({ index: 2, name: 'Extra', labelItems: [{ labelName: 'X' }] });
    const plan = await planFor(service, desired);
    service.failWrites((method) => {
      if (method === 'createLabelSet') throw new Error('the service said no');
    });
    const error = await applyLabelSetPlan(service.client, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyError);
    expect(error).toMatchObject({
      outcomeUnknown: false,
      done: ['replace the labels of label set 0 "Entities" (id 1), 5 labels'],
      failed: 'create label set 2 "Extra" with 1 label',
      notSent: [],
    });
    // The fields above carry the facts; the message names the failed write, the cause, what was done and what to do.
    expect((error as Error).message).toMatch(/"create label set 2 "Extra" with 1 label" failed: the service said no\b/);
    expect((error as Error).message).toContain('Done: replace the labels of label set 0 "Entities" (id 1), 5 labels');
    expect((error as Error).message).toContain('Run the plan again');
    service.failWrites(() => undefined);
    const rest = await planFor(service, desired);
    expect(rest.writes.map((w) => w.op)).toEqual(['create']);
    await applyLabelSetPlan(service.client, rest);
    expect((await planFor(service, desired)).writes).toEqual([]);
  });

  it('leaves a set that the next plan finishes when the append after its rename fails', async () => {
    const service = memoryClient();
    const desired = pull(service);
    desired[0]!.name = 'Named entities';
    desired[0]!.labelItems.push({ labelName: 'EVENT' });
    const plan = await planFor(service, desired);
    service.failWrites((method) => {
      if (method === 'appendLabelItems') throw new Error('refused');
    });
    await expect(applyLabelSetPlan(service.client, plan)).rejects.toMatchObject({
      done: ['rename label set 0 "Named entities" (id 1) to "Named entities"'],
      failed: 'append 1 label to label set 0 "Named entities" (id 1)',
    });
    service.failWrites(() => undefined);
    const rest = await planFor(service, desired);
    expect(rest.steps.map((s) => s.kind)).toEqual(['add-items']);
    await applyLabelSetPlan(service.client, rest);
    expect((await planFor(service, desired)).writes).toEqual([]);
  });

  it('reports a lost answer as unknown and sends the write once, never again', async () => {
    const service = memoryClient();
    const desired = pull(service);
    desired[0]!.labelItems[0]!.labelName = 'THING';
    desired[1]!.name = 'Links';
    const plan = await planFor(service, desired);
    service.failWrites(() => {
      throw new NetworkError('NETWORK', 'the connection closed before the answer', { operationName: 'updateProjectLabelSet', mutationOutcomeUnknown: true });
    });
    const error = await applyLabelSetPlan(service.client, plan).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'APPLY', outcomeUnknown: true, done: [], notSent: ['rename label set 1 "Links" (id 2) to "Links"'] });
    expect((error as Error).message).toContain('"replace the labels of label set 0 "Entities" (id 1), 5 labels" was sent and its answer was lost');
    expect((error as Error).message).toMatch(/may or may not have happened.*not retried/);
    expect((error as ApplyError).cause).toBeInstanceOf(NetworkError);
    expect(service.writeCalls().map((c) => c.method)).toEqual(['updateLabelSet']);
  });

  it('stops before the next write when the signal is aborted', async () => {
    const service = memoryClient();
    const desired = pull(service);
    desired[0]!.name = 'A';
    desired[1]!.name = 'B';
    const plan = await planFor(service, desired);
    const controller = new AbortController();
    const error = await applyLabelSetPlan(service.client, plan, { signal: controller.signal, onWrite: () => controller.abort() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ done: ['rename label set 0 "A" (id 1) to "A"'], failed: 'rename label set 1 "B" (id 2) to "B"' });
    expect(service.writeCalls().length).toBe(1);
  });

  it('refuses something that is not a plan, naming every problem, before sending anything', async () => {
    const service = memoryClient();
    const plan = await planFor(service, pull(service));
    const reads = service.calls.length;
    const broken = { ...plan, role: 'BOSS', desired: [{ index: 0, name: 'E', labelItems: [{ id: '', labelName: 'X', color: 'red' }] }], against: 'x' };
    const error = await applyLabelSetPlan(service.client, broken as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'plan.role', message: 'must be LABELER or REVIEWER' },
      { path: 'plan.against', message: 'must be a list of the sets the plan was computed against' },
      { path: 'plan.desired[0].labelItems[0].id', message: 'must be a non-empty string, or left out to have one generated' },
      { path: 'plan.desired[0].labelItems[0].color', message: 'must be a #rrggbb colour (six hex digits, e.g. #df3920) or null (got "red")' },
    ]);
    expect(service.calls.length).toBe(reads);
  });
});

describe('checkSavedLabelSetPlan', () => {
  it('refuses a plan saved in the old form (steps and writes, no desired sets), asking to plan again', async () => {
    const service = memoryClient();
    const { desired: _desired, ...old } = { ...(await planFor(service, pull(service))), version: 1 };
    expect(checkSavedLabelSetPlan(old)).toEqual([
      { path: 'plan.version', message: 'must be 2 (a plan saved by another version of labelkit: plan again)' },
      { path: 'plan.desired', message: 'required: a list of label sets' },
    ]);
    expect(checkSavedLabelSetPlan(savedLabelSetPlan(await planFor(service, pull(service))))).toEqual([]);
  });
});

describe('planLabelSets', () => {
  it('checks its arguments and the desired sets before reading, naming every problem', async () => {
    const service = memoryClient(demoSets());
    const error = await planLabelSets(service.client, ' ', 'BOSS' as never, { labelSets: [{ index: 9, name: '', labelItems: [] }] as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'projectId', message: 'must be a non-empty string' },
      { path: 'role', message: 'must be LABELER or REVIEWER' },
      { path: 'desired.labelSets[0].index', message: 'must be an integer from 0 to 4 (got 9)' },
      { path: 'desired.labelSets[0].name', message: 'must be a non-empty string' },
    ]);
    expect(service.calls).toEqual([]);
  });
});
