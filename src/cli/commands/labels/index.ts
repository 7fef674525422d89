import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { LabelsFlags } from './runner.js';

/**
 * Declares `labelkit labels --project P [--labeler EMAIL] [--json|--csv]`: the labels of one copy.
 *
 * @param io - the process
 * @param done - receives the exit code (0; 2 bad flags or no such copy)
 * @returns the command
 */
export function labelsCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('labels')
    .description("list the labels of a project's copy, one per line, with the document, the text and the label's name")
    .option('--project <id>', 'project id')
    .option('--labeler <email>', "that labeler's copy (e.g. the labelerEmail a job was given); default: the reviewer copy")
    .option('--json', 'one JSON object per label (NDJSON)')
    .option('--csv', 'CSV with a header row')
    .option('--verbose', 'the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 listed, 2 bad flags or no such copy.\n' +
        '\nExamples:\n  $ labelkit labels --project demo-project --labeler model@example.com\n  $ labelkit labels --project demo-project --csv > gold.csv',
    );
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'labels' }, async (flags: LabelsFlags & CommonFlags, context) => {
      const { runLabels } = await import('./runner.js');
      const { labelPrinter, printLabelCount } = await import('./print.js');
      const { createDocumentProgress } = await import('../../progress.js');
      const progress = createDocumentProgress(io);
      const format = flags.json === true ? 'json' : flags.csv === true ? 'csv' : 'text';
      let print: ReturnType<typeof labelPrinter> | undefined;
      // `labelkit labels … | head`: once the reader of stdout is gone, stop reading and exit 0.
      const closed = new Error('stdout closed');
      let gone = false;
      const stdout = io.stdout as { once?: (event: 'error', listener: (error: NodeJS.ErrnoException) => void) => unknown };
      stdout.once?.('error', (error) => {
        if (error.code !== 'EPIPE') throw error;
        gone = true;
      });
      try {
        const count = await runLabels(flags, context, (row) => {
          if (gone) throw closed;
          progress.stop();
          (print ??= labelPrinter(context.printer, format))(row);
        }, progress.onProgress).catch((error: unknown) => {
          if (error === closed || gone) return -1;
          throw error;
        });
        if (count < 0) return EXIT.ok;
        if (print === undefined && format === 'csv') labelPrinter(context.printer, format);
        if (format === 'text') printLabelCount(context.printer, count);
        return EXIT.ok;
      } finally {
        progress.stop();
      }
    }),
  );
  return command;
}
