import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { exitCodeOf } from '../../exitCodeOf.js';
import { useColor } from '../../io.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { LabelSetsPlanFlags } from './planRunner.js';

/**
 * Declares `labelkit label-sets plan FILE`: what it takes to make the project's label sets as
 * the file says.
 *
 * @param io - the process
 * @param done - receives the exit code (0; 9 with --exit-code when there are changes; 2 bad file or flags)
 * @returns the command
 */
export function labelSetsPlanCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('plan')
    .description('show what it takes to make the label sets of a project as a file says (JSON as label-sets --json prints it, or YAML); writes nothing')
    .argument('<file>', 'the label-set file: .json, or .yaml/.yml')
    .option('--project <id>', 'project id (default: "projectId" in the file)')
    .option('--role <role>', 'LABELER or REVIEWER (default: "role" in the file)')
    .option('--json', 'print the plan as one JSON object')
    .option('--out <file>', 'save the plan as JSON, for label-sets apply --plan')
    .option('--exit-code', 'exit 9 when the plan has changes, 0 when there are none (a drift check for CI)')
    .option('--no-count-labels', 'do not count the applied labels a removal takes (counting reads every label of the project); such a removal then counts as destructive')
    .option('--verbose', 'details (e.g. a switch to the renamed schema), and the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 planned (with --exit-code: nothing to change), 9 with --exit-code: there are changes, 2 a bad file (every problem with its file:line) or flags.\n' +
        '\nExamples:\n  $ labelkit label-sets --project demo-project --role LABELER --json > labels.json\n  $ labelkit label-sets plan labels.json\n  $ labelkit label-sets plan labels.json --out plan.json\n  $ labelkit label-sets plan labels.json --exit-code   # in CI: fails when the project drifted from the file',
    );
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'label-sets plan' }, async (flags: LabelSetsPlanFlags & CommonFlags, context, file: string) => {
      const { runLabelSetsPlan } = await import('./planRunner.js');
      const { createCountProgress, printLabelSetsError, printPlan } = await import('./planPrint.js');
      const progress = createCountProgress(io, context.printer);
      try {
        const result = await runLabelSetsPlan(file, flags, context, progress.onCountProgress);
        printPlan(context.printer, result, { json: flags.json === true, color: useColor(io, io.stdout) });
        return flags.exitCode === true && result.plan.writes.length > 0 ? EXIT.labelSetsDiffer : EXIT.ok;
      } catch (error) {
        progress.stop();
        if (printLabelSetsError(context.printer, error, useColor(io, io.stderr))) return exitCodeOf(error);
        throw error;
      }
    }),
  );
  return command;
}
