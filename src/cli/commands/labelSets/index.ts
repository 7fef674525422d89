import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { useColor } from '../../io.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { SchemaChangeEvent } from 'labelkit';
import type { LabelSetsFlags } from './runner.js';
import { labelSetsApplyCommand } from './applyCommand.js';
import { labelSetsPlanCommand } from './planCommand.js';

/**
 * Declares `labelkit label-sets (--project P --role R | --cabinet C)`: each set as a tree; and
 * its subcommands `plan` and `apply` (label sets as code).
 *
 * @param io - the process
 * @param done - receives the exit code
 * @returns the command
 */
export function labelSetsCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('label-sets')
    .description('print the label sets of a cabinet as trees (colour swatches on a terminal; NO_COLOR turns them off)')
    .option('--project <id>', 'project id (with --role)')
    .option('--role <role>', 'LABELER or REVIEWER')
    .option('--cabinet <id>', 'cabinet id (instead of --project/--role)')
    .option('--json', 'print {"projectId","role","cabinetId","labelSets":[…]} as one JSON object (projectId and role with --project/--role)')
    .option('--verbose', 'details (e.g. a switch to the renamed schema), and the stack of an error')
    // `label-sets plan FILE --project P`: the flags after a subcommand are the subcommand's.
    .enablePositionalOptions()
    .addHelpText(
      'after',
      '\nExamples:\n  $ labelkit label-sets --project demo-project --role LABELER\n  $ labelkit label-sets --cabinet demo-project:labeler --json' +
        '\n  $ labelkit label-sets --project demo-project --role LABELER --json > labels.json   # the file plan and apply read',
    );
  command.addCommand(labelSetsPlanCommand(io, done));
  command.addCommand(labelSetsApplyCommand(io, done));
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'label-sets' }, async (flags: LabelSetsFlags & CommonFlags, context) => {
      const { runLabelSets } = await import('./runner.js');
      const { printLabelSets, printSchemaChange } = await import('./print.js');
      const result = await runLabelSets(flags, context, {
        ...(flags.verbose && { onSchemaChange: (event: SchemaChangeEvent) => printSchemaChange(context.printer, event) }),
      });
      printLabelSets(context.printer, result, { json: flags.json === true, color: useColor(io, io.stdout) });
      return EXIT.ok;
    }),
  );
  return command;
}
