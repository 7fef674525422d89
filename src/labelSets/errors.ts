import { errorCode } from '../shared/classify.js';

/** Machine-readable kinds of label-set workflow errors. */
export type LabelSetsErrorCode = 'FILE' | 'PLAN' | 'STALE' | 'DESTRUCTIVE' | 'APPLY';

/** One problem of a label-set file, where it is. */
export interface FileProblem {
  /** The file as it was named to the reader. */
  file: string;
  /** 1-based. */
  line: number;
  message: string;
}

/**
 * The base of the errors of the label-set workflow (file, plan, apply).
 *
 * @remarks Messages start with `[LabelSets]`. They hold label and set names and ids, never a
 * token or secret; a client error that caused one is kept as `cause` (not enumerable, and
 * already a redacted copy).
 * @example
 * ```ts
 * try {
 *   await applyLabelSetPlan(client, plan);
 * } catch (error) {
 *   if (isLabelSetsError(error) && error.code === 'STALE') console.error('re-plan');
 *   else throw error;
 * }
 * ```
 */
export class LabelSetsError extends Error {
  override name = 'LabelSetsError';
  readonly code: LabelSetsErrorCode;
  declare readonly cause?: unknown;
  /**
   * @param code - the kind
   * @param message - the text without the `[LabelSets]` prefix
   * @param cause - the error that caused it, kept non-enumerable
   */
  constructor(code: LabelSetsErrorCode, message: string, cause?: unknown) {
    super(`[LabelSets] ${message}`);
    this.code = code;
    if (cause !== undefined) Object.defineProperty(this, 'cause', { value: cause, enumerable: false, writable: false });
  }
}

/** A label-set file that cannot be read, parsed or accepted; `problems` lists every one with its line. */
export class LabelSetsFileError extends LabelSetsError {
  override name = 'LabelSetsFileError';
  readonly problems: FileProblem[];
  /**
   * @param file - the file's name as given
   * @param problems - every problem, each with its line
   */
  constructor(file: string, problems: FileProblem[]) {
    super('FILE', `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n')}`);
    this.problems = problems;
  }
}

/** The desired sets cannot be reached from the live ones (e.g. a set would move to another index). */
export class LabelSetsPlanError extends LabelSetsError {
  override name = 'LabelSetsPlanError';
  readonly problems: string[];
  /** @param problems - every problem, each a sentence (with `file:line` when the sets came from a file) */
  constructor(problems: string[]) {
    super('PLAN', `cannot plan, ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.join('\n')}`);
    this.problems = problems;
  }
}

/** The live sets differ from what the plan was computed against: nothing was written. */
export class PlanStaleError extends LabelSetsError {
  override name = 'PlanStaleError';
  /** What differs, one sentence each. */
  readonly differences: string[];
  /** The writes already done before the difference was seen (only after a write of the same apply). */
  readonly done: string[];
  /**
   * @param differences - what differs
   * @param done - the writes already done (empty when nothing was written)
   */
  constructor(differences: string[], done: string[] = []) {
    const wrote = done.length === 0 ? 'nothing was written' : `done before it was seen: ${done.join('; ')}`;
    super('STALE', `the label sets changed since the plan: re-plan (${wrote}):\n${differences.join('\n')}`);
    this.differences = differences;
    this.done = done;
  }
}

/** The plan removes labels that may have applied labels, and `allowDestructive` was not given. */
export class DestructiveStepsError extends LabelSetsError {
  override name = 'DestructiveStepsError';
  /** The refused steps, as the plan prints them. */
  readonly steps: string[];
  /** Applied labels the steps would remove, when known for every step. */
  readonly appliedLabels: number | null;
  /**
   * @param steps - the refused steps, described
   * @param appliedLabels - how many applied labels they would remove, or null when not known
   */
  constructor(steps: string[], appliedLabels: number | null) {
    const count = appliedLabels === null ? 'an unknown number of applied labels' : `${appliedLabels} applied label${appliedLabels === 1 ? '' : 's'}`;
    super('DESTRUCTIVE', `refused: the plan would remove ${count} (allow it with allowDestructive / --allow-destructive; nothing was written):\n${steps.join('\n')}`);
    this.steps = steps;
    this.appliedLabels = appliedLabels;
  }
}

/** A write failed, or its answer was lost, part way through an apply. */
export class ApplyError extends LabelSetsError {
  override name = 'ApplyError';
  /** The writes done before it, described. */
  readonly done: string[];
  /** The write that failed, described. */
  readonly failed: string;
  /** The writes not sent. */
  readonly notSent: string[];
  /** True when the failed write's answer was lost: it may or may not have happened. It was not retried. */
  readonly outcomeUnknown: boolean;
  /**
   * @param parts - what was done, what failed and how, what was not sent
   * @param cause - the client's error
   */
  constructor(parts: { done: string[]; failed: string; notSent: string[]; outcomeUnknown: boolean; reason: string }, cause?: unknown) {
    const what = parts.outcomeUnknown
      ? `the answer to "${parts.failed}" was lost: it may or may not have happened (not retried)`
      : `"${parts.failed}" failed`;
    const done = parts.done.length === 0 ? 'nothing before it' : parts.done.join('; ');
    const notSent = parts.notSent.length === 0 ? '' : `; not sent: ${parts.notSent.join('; ')}`;
    super('APPLY', `${what}: ${parts.reason}. Done: ${done}${notSent}. Run the plan again: it shows what is left`, cause);
    this.done = parts.done;
    this.failed = parts.failed;
    this.notSent = parts.notSent;
    this.outcomeUnknown = parts.outcomeUnknown;
  }
}

/**
 * Whether a value is one of the label-set workflow's errors (without `instanceof`, which fails
 * across two copies of the package).
 *
 * @param error - anything caught
 * @returns true for a {@link LabelSetsError}
 * @example
 * ```ts
 * if (isLabelSetsError(error) && error.code === 'DESTRUCTIVE') console.error(error.message);
 * ```
 */
export function isLabelSetsError(error: unknown): error is LabelSetsError {
  if (!(error instanceof Error)) return false;
  const code = errorCode(error);
  return error.message.startsWith('[LabelSets] ') && code !== undefined && ['FILE', 'PLAN', 'STALE', 'DESTRUCTIVE', 'APPLY'].includes(code);
}
