import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { JobsFlags } from './runner.js';

/**
 * Declares `labelkit jobs <id…> [--wait] [--timeout D]`: the status of jobs, or waits for all.
 *
 * @param io - the process
 * @param done - receives the exit code (0 all delivered/running, 5 failed, 6 timed out, 7 not found)
 * @returns the command
 */
export function jobsCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('jobs')
    .description('print the status of jobs, or wait until all have ended (one request per interval for all of them)')
    .argument('<id...>', 'job ids')
    .option('--wait', 'wait until every job has ended; a bar on a terminal, plain lines otherwise')
    .option('--timeout <duration>', 'with --wait: give up waiting after this long: 90s, 10m, 1h or milliseconds (default 10m)')
    .option('--interval <duration>', 'with --wait: first poll interval; grows to 5x while nothing changes (default 1s)')
    .option('--json', 'NDJSON on stdout: one line per job, and with --wait one per change of status or progress')
    .option('--verbose', 'details, and the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 every job DELIVERED (or, without --wait, none failed), 5 a job FAILED, 6 --timeout ran out, 7 a job is unknown.\n' +
        '\nExamples:\n  $ labelkit jobs 3f1c… \n  $ labelkit jobs 3f1c… 9a2b… --wait --timeout 10m --json',
    );
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'jobs' }, async (flags: JobsFlags & CommonFlags, context, ids: string[]) => {
      const { runJobs, statusesExitCode } = await import('./runner.js');
      const { printJobs } = await import('./print.js');
      const { outcomesExitCode } = await import('../../jobWait.js');
      const { createJobWatcher } = await import('../../jobLines.js');
      const result = await runJobs(ids, flags, context, () => createJobWatcher(io, context.printer, { json: flags.json === true, jobIds: ids }));
      printJobs(context.printer, result, flags.json === true);
      return result.kind === 'status' ? statusesExitCode(result.jobs) : outcomesExitCode(result.outcomes);
    }),
  );
  return command;
}
