import pc from 'picocolors';
import { ApplyError, DestructiveStepsError, formatLabelSetPlan, isLabelSetsAsCodeError } from '../../../labelSets/index.js';
import type { AppliedWrite, CountProgress, LabelSetPlan } from '../../../labelSets/index.js';
import type { Io, Printer } from '../../io.js';
import { coloured, terminalText } from '../../../shared/escape.js';
import type { LabelSetsApplyOutcome } from './applyRunner.js';
import type { LabelSetsPlanResult } from './planRunner.js';

/**
 * Prints the outcome of `labelkit label-sets plan`.
 *
 * @param printer - where to print
 * @param result - the plan, and where it was saved
 * @param options - `json`: the plan as one JSON object on stdout; `color`: coloured signs
 */
export function printPlan(printer: Printer, result: LabelSetsPlanResult, options: { json: boolean; color: boolean }): void {
  if (options.json) printer.json(result.plan);
  else for (const line of formatLabelSetPlan(result.plan, { color: options.color })) printer.out(coloured(line));
  if (result.savedTo !== undefined) printer.err(`labelkit: plan saved to ${result.savedTo} (apply it with: labelkit label-sets apply --plan ${result.savedTo})`);
}

/**
 * Prints the plan an apply is about to carry out (on stdout, before the question).
 *
 * @param printer - where to print
 * @param plan - the plan
 * @param color - coloured signs
 * @param destructiveAllowed - `--allow-destructive` was given (the destructive line says so)
 */
export function printApplyPlan(printer: Printer, plan: LabelSetPlan, color: boolean, destructiveAllowed = false): void {
  for (const line of formatLabelSetPlan(plan, { color, destructiveAllowed })) printer.out(coloured(line));
}

/**
 * The question asked before writing.
 *
 * @param plan - the plan
 * @returns e.g. `Apply 2 writes to demo-project (LABELER)? [y/N] `
 */
export function applyQuestion(plan: LabelSetPlan): string {
  const n = plan.writes.length;
  return `Apply ${n} write${n === 1 ? '' : 's'} to ${plan.projectId} (${plan.role})? [y/N] `;
}

/**
 * Prints one confirmed write, as progress on stderr.
 *
 * @param printer - where to print
 * @param write - the write
 */
export function printWrite(printer: Printer, write: AppliedWrite): void {
  printer.err(`labelkit: done: ${write.description}`);
}

/**
 * Progress of counting the applied labels a removal takes (one read of every label of the
 * project), on stderr: a line when a count starts (what it reads, and how to skip it), the
 * documents read so far rewritten in place on a terminal, and a line when it ends.
 *
 * @param io - the process (a terminal's stderr gets the rewritten line)
 * @param printer - where the start and end lines go
 * @returns `onCountProgress` for `planLabelSets`/`applyLabelSetPlan`, and `stop()` to clear the
 * rewritten line (after an error part way)
 */
export function createCountProgress(io: Io, printer: Printer): { onCountProgress: (progress: CountProgress) => void; stop: () => void } {
  let counts = 0;
  let shown = false;
  const stop = () => {
    if (shown) io.stderr.write('\r\u001b[K');
    shown = false;
  };
  return {
    onCountProgress(p) {
      if (p.documents === 0) {
        const again = counts++ > 0 ? ' again' : '';
        printer.err(
          `labelkit: counting${again} the applied labels of what the plan removes: reading every label of ${plural(p.totalDocuments, 'document')} in ${plural(p.copies, 'copy', 'copies')} of the project (--no-count-labels skips this)`,
        );
      } else if (io.stderr.isTTY === true) {
        io.stderr.write(`\r  ${p.documents}/${p.totalDocuments} documents, ${plural(p.labels, 'label')} read`);
        shown = true;
      }
      if (p.documents === p.totalDocuments) {
        stop();
        printer.err(`labelkit: counted ${plural(p.labels, 'label')} in ${plural(p.totalDocuments, 'document')}`);
      }
    },
    stop,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Prints how an apply ended: what was written and the ids the service made.
 *
 * @param printer - where to print
 * @param outcome - the apply's outcome
 */
export function printApplyOutcome(printer: Printer, outcome: LabelSetsApplyOutcome): void {
  if (outcome.kind === 'nothing-to-do') return;
  if (outcome.kind === 'declined') {
    printer.err('labelkit: nothing applied (the answer was not yes); nothing was written');
    return;
  }
  const { plan, result } = outcome;
  printer.out(`Applied ${result.writes.length} write${result.writes.length === 1 ? '' : 's'} to ${plan.projectId} (${plan.role}).`);
  for (const set of result.createdSets) printer.out(`  label set ${set.setIndex} "${set.name}" was created with id ${set.setId}`);
  for (const made of result.generatedIds) {
    printer.out(`  "${made.labelName}" in label set ${made.setIndex} (id ${made.setId}) got id ${made.id} from the service`);
  }
  if (result.generatedIds.length > 0 || result.createdSets.length > 0) {
    printer.out('Put these ids in the file to keep it exact (labelkit label-sets --json pulls it again); meanwhile the next plan matches them by name.');
  }
}

/**
 * Prints an error of the label-set workflow (refused, changed since the plan, failed part way):
 * its first line after `labelkit: `, the details indented below, then a hint.
 *
 * @param printer - where to print
 * @param error - what the command threw
 * @param color - red for the first line
 * @returns true when it was such an error (and was printed)
 */
export function printLabelSetsError(printer: Printer, error: unknown, color: boolean): boolean {
  if (!isLabelSetsAsCodeError(error)) return false;
  // A destructive refusal's message names the library's option (allowDestructive); the CLI's way
  // to allow it is its flag, which the hint names.
  const [first, ...rest] = error instanceof DestructiveStepsError ? [`${error.refusal}:`, ...error.steps] : error.message.split('\n');
  printer.err(coloured(pc.createColors(color).red(`labelkit: ${terminalText(first ?? '')}`)));
  for (const line of rest) printer.err(`  ${line}`);
  const hint = {
    FILE: 'fix the file and plan again',
    PLAN: 'change the file: the service cannot make this change',
    DESTRUCTIVE: 'read the plan (labelkit label-sets plan FILE), then add --allow-destructive if the labels may go',
    STALE: 'plan again (labelkit label-sets plan FILE --out plan.json), read it, then apply the new plan',
    APPLY: applyHint(error),
  }[error.code];
  printer.err(`hint: ${hint}`);
  return true;
}

/** What to do after a failed write: never "apply again" when that cannot succeed. */
function applyHint(error: unknown): string {
  if (!(error instanceof ApplyError)) return 'labelkit label-sets plan FILE shows what is left';
  if (error.outcomeUnknown) return 'labelkit label-sets plan FILE shows whether it happened and what is left';
  if (error.refused) return 'the service refused this write, so applying it again fails the same way: change the file (labelkit label-sets plan FILE shows what is left)';
  return 'labelkit label-sets plan FILE shows what is left; apply again to finish';
}
