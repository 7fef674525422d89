import { errorCode } from '../shared/classify.js';

/** Machine-readable kinds of the errors of label sets as code. */
export type LabelSetsAsCodeErrorCode = 'FILE' | 'PLAN' | 'STALE' | 'DESTRUCTIVE' | 'APPLY';

/** One problem of a label-set file, where it is. */
export interface FileProblem {
  /** The file as it was named to the reader. */
  file: string;
  /** 1-based; absent when the problem is the whole file (it cannot be read). */
  line?: number;
  message: string;
}

/**
 * Where a problem is: `file:line`, or the file alone when no line applies.
 *
 * @param problem - a problem of a label-set file
 * @returns e.g. `labels.json:12`, or `nope.json` for a file that cannot be read
 */
export function placeOf(problem: FileProblem): string {
  return problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
}

/**
 * The base of the errors of label sets as code (a label-set file, its plan, its apply).
 *
 * @remarks Not to be confused with the client's `LabelHierarchyError` (a label set read from the
 * service whose hierarchy is broken) or the emulator's `LabelSetWriteRefusedError` (its store
 * refusing a write).
 *
 * Messages start with `[LabelSets]`. They hold label and set names and ids, never a
 * token or secret; a client error that caused one is kept as `cause` (not enumerable, and
 * already a redacted copy).
 * @example
 * ```ts
 * try {
 *   await applyLabelSetPlan(client, plan);
 * } catch (error) {
 *   if (isLabelSetsAsCodeError(error) && error.code === 'STALE') console.error('re-plan');
 *   else throw error;
 * }
 * ```
 */
export class LabelSetsAsCodeError extends Error {
  override name = 'LabelSetsAsCodeError';
  readonly code: LabelSetsAsCodeErrorCode;
  declare readonly cause?: unknown;
  /**
   * @param code - the kind
   * @param message - the text without the `[LabelSets]` prefix
   * @param cause - the error that caused it, kept non-enumerable
   */
  constructor(code: LabelSetsAsCodeErrorCode, message: string, cause?: unknown) {
    super(`[LabelSets] ${message}`);
    this.code = code;
    if (cause !== undefined) Object.defineProperty(this, 'cause', { value: cause, enumerable: false, writable: false });
  }
}

/** A label-set file that cannot be read, parsed or accepted; `problems` lists every one with its line. */
export class LabelSetsFileError extends LabelSetsAsCodeError {
  override name = 'LabelSetsFileError';
  readonly problems: FileProblem[];
  /**
   * @param file - the file's name as given
   * @param problems - every problem, each with its line
   */
  constructor(file: string, problems: FileProblem[]) {
    super('FILE', `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `${placeOf(p)}: ${p.message}`).join('\n')}`);
    this.problems = problems;
  }
}

/** The desired sets cannot be reached from the live ones (e.g. a set would move to another index). */
export class LabelSetsPlanError extends LabelSetsAsCodeError {
  override name = 'LabelSetsPlanError';
  readonly problems: string[];
  /** @param problems - every problem, each a sentence (with `file:line` when the sets came from a file) */
  constructor(problems: string[]) {
    super('PLAN', `cannot plan, ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.join('\n')}`);
    this.problems = problems;
  }
}

/** The live sets differ from what the plan was computed against: nothing was written. */
export class PlanStaleError extends LabelSetsAsCodeError {
  override name = 'PlanStaleError';
  /** What differs, one sentence each. */
  readonly differences: string[];
  /** The writes already done before the difference was seen (only after a write of the same apply). */
  readonly done: string[];
  /**
   * @param differences - what differs
   * @param done - the writes already done (empty when nothing was written)
   * @param cause - the service's refusal of a write, when that is how the change was seen (a stale signature)
   */
  constructor(differences: string[], done: string[] = [], cause?: unknown) {
    const wrote = done.length === 0 ? 'nothing was written' : `done before it was seen: ${done.join('; ')}; nothing else was written`;
    super('STALE', `the label sets changed since the plan: re-plan (${wrote}):\n${differences.join('\n')}`, cause);
    this.differences = differences;
    this.done = done;
  }
}

/** The plan removes labels that may have applied labels, and `allowDestructive` was not given. */
export class DestructiveStepsError extends LabelSetsAsCodeError {
  override name = 'DestructiveStepsError';
  /** The refused steps, as the plan prints them. */
  readonly steps: string[];
  /** Applied labels the steps would remove, when known for every step. */
  readonly appliedLabels: number | null;
  /** The writes already done when labels applied since the plan were seen (empty: nothing was written). */
  readonly done: string[];
  /**
   * The refusal in words without naming how to allow it, e.g. "refused: the plan would remove 2
   * applied labels (nothing was written)": for a front end that names its own switch (the CLI's
   * `--allow-destructive`); `message` names the library's option, `allowDestructive: true`.
   */
  readonly refusal: string;
  /**
   * @param steps - the refused steps, described
   * @param appliedLabels - how many applied labels they would remove, or null when not known
   * @param done - the writes of the same apply already done (counted again right before a later write)
   */
  constructor(steps: string[], appliedLabels: number | null, done: string[] = []) {
    const count = appliedLabels === null ? 'an unknown number of applied labels' : `${appliedLabels} applied label${appliedLabels === 1 ? '' : 's'}`;
    const wrote = done.length === 0 ? 'nothing was written' : `done before it was seen: ${done.join('; ')}; nothing else was written`;
    super('DESTRUCTIVE', `refused: the plan would remove ${count} (allow it with the option allowDestructive: true; ${wrote}):\n${steps.join('\n')}`);
    this.refusal = `refused: the plan would remove ${count} (${wrote})`;
    this.done = done;
    this.steps = steps;
    this.appliedLabels = appliedLabels;
  }
}

/** A write failed, or its answer was lost, part way through an apply. */
export class ApplyError extends LabelSetsAsCodeError {
  override name = 'ApplyError';
  /** The writes done before it, described. */
  readonly done: string[];
  /** The write that failed, described. */
  readonly failed: string;
  /** The writes not sent. */
  readonly notSent: string[];
  /** True when the failed write was sent and its answer was lost: it may or may not have happened. It was not retried. */
  readonly outcomeUnknown: boolean;
  /**
   * True when the service answered and refused the write (a GraphQL error, an HTTP 4xx such as
   * 413 for a body too large): sending it again fails the same way.
   */
  readonly refused: boolean;
  /**
   * @param parts - what was done, what failed and how, what was not sent
   * @param cause - the client's error
   */
  constructor(parts: { done: string[]; failed: string; notSent: string[]; outcomeUnknown: boolean; refused?: boolean; reason: string }, cause?: unknown) {
    const what = parts.outcomeUnknown
      ? `"${parts.failed}" was sent and its answer was lost (${parts.reason}): it may or may not have happened (not retried)`
      : `"${parts.failed}" failed: ${parts.reason}`;
    const done = parts.done.length === 0 ? 'nothing before it' : parts.done.join('; ');
    const notSent = parts.notSent.length === 0 ? '' : `; not sent: ${parts.notSent.join('; ')}`;
    super('APPLY', `${what}. Done: ${done}${notSent}. Run the plan again: it shows what is left`, cause);
    this.done = parts.done;
    this.failed = parts.failed;
    this.notSent = parts.notSent;
    this.outcomeUnknown = parts.outcomeUnknown;
    this.refused = parts.refused === true;
  }
}

/**
 * Whether a value is one of the label-set workflow's errors (without `instanceof`, which fails
 * across two copies of the package).
 *
 * @param error - anything caught
 * @returns true for a {@link LabelSetsAsCodeError}
 * @example
 * ```ts
 * if (isLabelSetsAsCodeError(error) && error.code === 'DESTRUCTIVE') console.error(error.message);
 * ```
 */
export function isLabelSetsAsCodeError(error: unknown): error is LabelSetsAsCodeError {
  if (!(error instanceof Error)) return false;
  const code = errorCode(error);
  return error.message.startsWith('[LabelSets] ') && code !== undefined && ['FILE', 'PLAN', 'STALE', 'DESTRUCTIVE', 'APPLY'].includes(code);
}
