import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { CabinetFlags } from './runner.js';

/**
 * Declares `labelkit cabinet --project P --role R`: prints the cabinet id.
 *
 * @param io - the process
 * @param done - receives the exit code
 * @returns the command
 */
export function cabinetCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('cabinet')
    .description("print the id of a project's cabinet for a role")
    .option('--project <id>', 'project id')
    .option('--role <role>', 'LABELER or REVIEWER')
    .option('--json', 'print {"projectId","role","cabinetId"}')
    .option('--verbose', 'details, and the stack of an error')
    .addHelpText('after', '\nExample:\n  $ labelkit cabinet --project demo-project --role LABELER\n  demo-project:labeler');
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'cabinet' }, async (flags: CabinetFlags & CommonFlags, context) => {
      const { runCabinet } = await import('./runner.js');
      const { printCabinet } = await import('./print.js');
      printCabinet(context.printer, await runCabinet(flags, context), flags.json === true);
      return EXIT.ok;
    }),
  );
  return command;
}
