import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { exitCodeOf } from '../../exitCodeOf.js';
import { useColor } from '../../io.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { LabelSetsApplyFlags } from './applyRunner.js';
import type { AskingIo } from './confirm.js';

/**
 * Declares `labelkit label-sets apply FILE | --plan plan.json`: shows the plan, asks, writes it.
 *
 * @param io - the process
 * @param done - receives the exit code (0 applied, nothing to do, or declined at the question; 10 changed since the plan; 2 refused or bad input)
 * @returns the command
 */
export function labelSetsApplyCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('apply')
    .description('make the label sets of a project as a file (or a saved plan) says: shows the plan, asks, then writes it; nothing is written if the sets changed since the plan')
    .argument('[file]', 'the label-set file (planned now); or give --plan')
    .option('--plan <file>', 'apply a plan saved by label-sets plan --out')
    .option('--project <id>', 'project id (default: "projectId" in the file)')
    .option('--role <role>', 'LABELER or REVIEWER (default: "role" in the file)')
    .option('--yes', 'apply without asking (required when stdin is not a terminal)')
    .option('--allow-destructive', 'carry out steps that remove labels with applied labels (the plan shows how many)')
    .option('--no-count-labels', 'do not count the applied labels a removal takes (counting reads every label of the project, at the plan and again right before writing); such a removal then counts as destructive')
    .option('--verbose', 'details (e.g. a switch to the renamed schema), and the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 applied (or nothing to change, or the answer to the question was not yes: nothing applied), 10 the label sets changed since the plan or while it wrote (nothing more was written: plan again),\n' +
        '2 a destructive step without --allow-destructive, a bad file or flags (nothing was written), 4 a write\'s answer was lost (plan again to see).\n' +
        '\nExamples:\n  $ labelkit label-sets apply labels.json\n  $ labelkit label-sets plan labels.json --out plan.json && labelkit label-sets apply --plan plan.json --yes',
    );
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'label-sets apply' }, async (flags: LabelSetsApplyFlags & CommonFlags, context, file: string | undefined) => {
      const { runLabelSetsApply } = await import('./applyRunner.js');
      const { applyQuestion, createCountProgress, printApplyOutcome, printApplyPlan, printLabelSetsError, printWrite } = await import('./planPrint.js');
      const progress = createCountProgress(io, context.printer);
      const { askYes } = await import('./confirm.js');
      try {
        const outcome = await runLabelSetsApply(file, flags, context, {
          showPlan: (plan) => printApplyPlan(context.printer, plan, useColor(io, io.stdout), flags.allowDestructive === true),
          confirm: (plan) => askYes(io as AskingIo, applyQuestion(plan), context.signal),
          onWrite: (write) => printWrite(context.printer, write),
          onCountProgress: progress.onCountProgress,
        });
        printApplyOutcome(context.printer, outcome);
        return EXIT.ok; // declining at the question is an answer, not a failure
      } catch (error) {
        progress.stop();
        if (printLabelSetsError(context.printer, error, useColor(io, io.stderr))) return exitCodeOf(error);
        throw error;
      }
    }),
  );
  return command;
}
