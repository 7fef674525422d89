/**
 * Shape checks of the service's answers, applied at the one boundary (the executor) before a
 * call resolves: each returns what is wrong, or undefined when the data is what the operation
 * asks for. A wrong shape rejects the call with a `ProtocolError` (code `BAD_RESPONSE`) instead of
 * resolving `undefined` or throwing a `TypeError` later (inside a poller's timer, for instance).
 */

type Check = (data: unknown) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function field(data: unknown, name: string): { value: unknown; problem?: string } {
  if (!isObject(data) || !(name in data) || data[name] === undefined) return { value: undefined, problem: `the answer's data lacks ${name}` };
  return { value: data[name] };
}

/** What is wrong with one job (or, without its errors, a job snapshot), or undefined. */
function jobProblem(job: unknown, where: string, withErrors = true): string | undefined {
  if (!isObject(job)) return `${where} is not a job`;
  if (typeof job.id !== 'string') return `${where}.id is not a string`;
  if (typeof job.status !== 'string') return `${where}.status is not a string`;
  if (typeof job.progress !== 'number') return `${where}.progress is not a number`;
  if (withErrors && !Array.isArray(job.errors)) return `${where}.errors is not a list`;
  return undefined;
}

/**
 * The check of an answer whose field holds one object with a string `id` (a cabinet, a job snapshot).
 *
 * @param name - the field (or alias) in `data`, e.g. `getCabinet` or `result`
 * @param isJob - true when the object is a job snapshot (status and progress are checked too)
 * @returns the check
 * @example
 * ```ts
 * objectField('getCabinet')({}); // "the answer's data lacks getCabinet"
 * ```
 */
export function objectField(name: string, isJob = false): Check {
  return (data) => {
    const { value, problem } = field(data, name);
    if (problem) return problem;
    if (isJob) return jobProblem(value, name, false);
    return isObject(value) && typeof value.id === 'string' ? undefined : `${name} is not an object with an id`;
  };
}

/**
 * The check of `getJob`: a job, or null.
 *
 * @returns the check
 */
export function nullableJob(): Check {
  return (data) => {
    const { value, problem } = field(data, 'getJob');
    if (problem) return problem;
    return value === null ? undefined : jobProblem(value, 'getJob');
  };
}

/**
 * The check of `getJobs`: one job or null per id asked, in order.
 *
 * @param count - how many ids were asked
 * @returns the check
 */
export function jobList(count: number): Check {
  return (data) => {
    const { value, problem } = field(data, 'getJobs');
    if (problem) return problem;
    if (!Array.isArray(value)) return 'getJobs is not a list';
    if (value.length !== count) return `getJobs has ${value.length} entries for ${count} ids`;
    for (const [i, job] of value.entries()) {
      const wrong = job === null ? undefined : jobProblem(job, `getJobs[${i}]`);
      if (wrong) return wrong;
    }
    return undefined;
  };
}

/**
 * The check of `getCabinetLabelSetsById`: a list of label sets, each with an id and an index.
 *
 * @returns the check
 */
export function labelSetList(): Check {
  return (data) => {
    const { value, problem } = field(data, 'getCabinetLabelSetsById');
    if (problem) return problem;
    if (!Array.isArray(value)) return 'getCabinetLabelSetsById is not a list';
    for (const [i, set] of value.entries()) {
      const where = `getCabinetLabelSetsById[${i}]`;
      if (!isObject(set) || typeof set.id !== 'string') return `${where} is not a label set`;
      if (typeof set.index !== 'number') return `${where}.index is not a number`;
    }
    return undefined;
  };
}

/** What is wrong with one label item, or undefined. */
function labelItemProblem(item: unknown, where: string): string | undefined {
  if (!isObject(item) || typeof item.id !== 'string') return `${where} is not a label item`;
  if (typeof item.labelName !== 'string') return `${where}.labelName is not a string`;
  return undefined;
}

/**
 * The check of a write that answers one label set (`createLabelSet`, `updateProjectLabelSet`):
 * an object with an id, an index and a list of label items.
 *
 * @param name - the field in `data`
 * @returns the check
 * @example
 * ```ts
 * labelSetField('createLabelSet')({ createLabelSet: null }); // 'createLabelSet is not a label set'
 * ```
 */
export function labelSetField(name: string): Check {
  return (data) => {
    const { value, problem } = field(data, name);
    if (problem) return problem;
    if (!isObject(value) || typeof value.id !== 'string') return `${name} is not a label set`;
    if (typeof value.index !== 'number') return `${name}.index is not a number`;
    if (!Array.isArray(value.labelItems)) return `${name}.labelItems is not a list`;
    for (const [i, item] of value.labelItems.entries()) {
      const wrong = labelItemProblem(item, `${name}.labelItems[${i}]`);
      if (wrong) return wrong;
    }
    return undefined;
  };
}

/**
 * The check of `appendLabelSetLabelItems`: one label item per label sent, in order.
 *
 * @param count - how many labels were sent
 * @returns the check; production's type allows null, which answers nothing about the new labels
 * and is refused like any other wrong shape
 */
export function labelItemList(count: number): Check {
  return (data) => {
    const name = 'appendLabelSetLabelItems';
    const { value, problem } = field(data, name);
    if (problem) return problem;
    if (!Array.isArray(value)) return `${name} is not a list of label items`;
    if (value.length !== count) return `${name} has ${value.length} label items for ${count} sent`;
    for (const [i, item] of value.entries()) {
      const wrong = labelItemProblem(item, `${name}[${i}]`);
      if (wrong) return wrong;
    }
    return undefined;
  };
}

/**
 * The check of `deleteLabelSet`: a list of ids.
 *
 * @returns the check
 */
export function idList(): Check {
  return (data) => {
    const { value, problem } = field(data, 'deleteLabelSet');
    if (problem) return problem;
    return Array.isArray(value) && value.every((id) => typeof id === 'string') ? undefined : 'deleteLabelSet is not a list of ids';
  };
}

/**
 * The check of the emulator-only `emulatorAppliedLabelCounts`: a list of counts.
 *
 * @returns the check
 */
export function appliedLabelCountList(): Check {
  return (data) => {
    const name = 'emulatorAppliedLabelCounts';
    const { value, problem } = field(data, name);
    if (problem) return problem;
    if (!Array.isArray(value)) return `${name} is not a list`;
    for (const [i, c] of value.entries()) {
      if (!isObject(c) || typeof c.labelSetId !== 'string' || typeof c.labelItemId !== 'string' || typeof c.appliedLabels !== 'number') return `${name}[${i}] is not a count`;
    }
    return undefined;
  };
}
