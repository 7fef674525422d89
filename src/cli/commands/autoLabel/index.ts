import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { runAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import { AUTO_LABEL_FIELDS } from './fields.js';
import type { AutoLabelFlags } from './runner.js';

/**
 * Declares `labelkit auto-label`: starts an auto-labeling job (and waits with `--wait`).
 *
 * @param io - the process
 * @param done - receives the exit code (with `--wait`: 0 delivered, 5 failed, 6 timed out, 7 not found)
 * @returns the command
 */
export function autoLabelCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('auto-label')
    .description("start ML-assisted labeling of a project with your model endpoint; prints the job id")
    .option('--project <id>', 'project id')
    .option('--labeler-email <email>', "the labeler whose copies receive the labels")
    .option('--endpoint <url>', 'URL of your model endpoint (https, or http on loopback)')
    .option('--files-per-request <n>', 'lines per model request; 0 sends all lines of a document at once')
    .option('--role <role>', 'LABELER or REVIEWER (default: the service decides)')
    .option('--secret-key-env <VAR>', 'environment variable holding the model secret (default: LABELKIT_MODEL_SECRET)')
    .option('--secret-key-file <file>', 'read the model secret from a file')
    .option('--wait', 'wait until the job ends; a bar on a terminal, plain lines otherwise')
    .option('--timeout <duration>', 'with --wait: give up after 90s, 10m, 1h or milliseconds (default 10m)')
    .option('--interval <duration>', 'with --wait: first poll interval (default 1s)')
    .option('--dry-run', 'print the exact request (secret as ***) and send nothing; input is still checked')
    .option('--allow-insecure-endpoint', 'accept a plain-http endpoint on a non-loopback host (the secret travels in clear)')
    .option('--json', 'NDJSON on stdout: started, progress and outcome events; the request with --dry-run')
    .option('--verbose', 'details, and the stack of an error')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  $ export LABELKIT_MODEL_SECRET=…   # the secret your model expects\n' +
        '  $ labelkit auto-label --project demo-project --labeler-email labeler@example.com \\\n' +
        '      --endpoint http://127.0.0.1:5000/ --files-per-request 10 --wait\n' +
        '  $ labelkit auto-label --project demo-project --labeler-email labeler@example.com \\\n' +
        '      --endpoint https://model.example.com/predict --files-per-request 0 --dry-run',
    );
  addConnectionOptions(command).action(async (flags: AutoLabelFlags & CommonFlags) => {
    done(
      await runAction(
        io,
        flags,
        async (context) => {
          const { runAutoLabel } = await import('./runner.js');
          const { printAutoLabel, printStarted } = await import('./logger.js');
          const { createJobWatcher } = await import('../jobs/logger.js');
          const { outcomesExitCode } = await import('../jobs/runner.js');
          const json = flags.json === true;
          const result = await runAutoLabel(flags, context, {
            onStarted: (job) => printStarted(context.printer, job, json),
            makeWatcher: (jobIds) => createJobWatcher(io, context.printer, { json, jobIds }),
          });
          printAutoLabel(context.printer, result, json);
          return result.kind === 'waited' ? outcomesExitCode([result.outcome]) : EXIT.ok;
        },
        AUTO_LABEL_FIELDS,
      ),
    );
  });
  return command;
}
