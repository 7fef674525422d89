import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import type { Io } from '../../io.js';
import { AUTO_LABEL_OPTIONS } from '../../optionFlags.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import { AUTO_LABEL_FIELDS } from './fields.js';
import type { AutoLabelManyFlags } from './manyRunner.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Declares `labelkit auto-label`: starts an auto-labeling job (and waits with `--wait`).
 *
 * @param io - the process
 * @param done - receives the exit code (with `--wait`: 0 delivered, 5 failed, 6 timed out, 7 not found)
 * @returns the command
 */
export function autoLabelCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('auto-label')
    .description('start ML-assisted labeling of one project (prints the job id) or of many projects with a journal')
    .option('--project <id>', 'project id; repeat it for several projects', collect)
    .option('--projects <file>', 'many projects: a file with one project id per line (# starts a comment)')
    .option('--journal <file|url>', 'many projects: append-only NDJSON journal, or postgres://… shared by many workers; a rerun with it never starts a project twice')
    .option('--journal-name <name>', 'with --journal postgres://…: the run, the same name for every worker')
    .option('--heartbeat <duration>', 'with --journal postgres://…: how often this worker says it is alive (default 5s; dead after 3 missed)')
    .option('--journal-retry <duration>', 'with --journal postgres://…: how long to keep trying when the database cannot be reached, drops the connection or restarts (default 30s; 0 fails at once)')
    .option('--outbox <file>', 'with --journal postgres://…: where a start the database could not take is kept, for the next run to record (default labelkit-outbox-<journal-name>.ndjson)')
    .option('--concurrency <n>', `many projects: jobs being started at once (default 4)`)
    .option('--start-timeout <duration>', 'many projects: how long to wait for the answer to each start (default 5m); a start given up may have started a job and is reported outcome-unknown')
    .option('--max-running <k>', 'many projects, with --wait: jobs started and not yet ended at once across every worker of the run (the journal counts them; default: no limit)')
    .option('--max-starts-per-minute <r>', 'many projects: starts a minute across every worker of the run (default: no limit)')
    .option('--retry-failed', 'many projects: start again the projects the journal has as failed, not-found or not-started')
    .option('--retry-unknown', 'many projects: start again the projects of unknown outcome in the journal (MAY START A SECOND JOB)')
    .option('--force', 'many projects: use a journal written for another service URL, endpoint, files-per-request, labeler or role')
    .option('--labeler-email <email>', "the labeler whose copies receive the labels")
    .option('--endpoint <url>', 'URL of your model endpoint (https, or http on loopback)')
    .option('--files-per-request <n>', 'lines per model request; 0 sends all lines of a document at once')
    .option('--role <role>', 'LABELER or REVIEWER (default: the service decides)')
    .option('--secret-key-env <VAR>', 'environment variable holding the model secret (default: LABELKIT_MODEL_SECRET)')
    .option('--secret-key-file <file>', 'read the model secret from a file')
    .option('--wait', 'wait until the job ends; a bar on a terminal, plain lines otherwise')
    .option('--timeout <duration>', 'with --wait: give up after 90s, 10m, 1h or milliseconds (default 10m)')
    .option('--interval <duration>', 'with --wait: first poll interval (default 1s)')
    .option('--dry-run', 'print the exact request (many projects: the plan, with what the journal skips) and send nothing; input is still checked')
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
        '      --endpoint https://model.example.com/predict --files-per-request 0 --dry-run\n' +
        '  $ labelkit auto-label --projects projects.txt --journal run.ndjson --labeler-email labeler@example.com \\\n' +
        '      --endpoint http://127.0.0.1:5000/ --files-per-request 10 --wait   # rerun the same line to continue\n' +
        '  $ labelkit auto-label --projects projects.txt --journal postgres://labelkit@db.internal/airflow --journal-name prelabel-1 \\\n' +
        '      --labeler-email labeler@example.com --endpoint https://model.example.com/predict --files-per-request 10 --wait   # on each worker',
    );
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'auto-label', fields: AUTO_LABEL_FIELDS, options: AUTO_LABEL_OPTIONS }, async (flags: AutoLabelManyFlags & CommonFlags, context) => {
      const json = flags.json === true;
      const { isManyRun } = await import('./manyRunner.js');
      if (isManyRun(flags)) {
        const { manyExitCode, runManyFromFlags } = await import('./manyRunner.js');
        const { createManyProgress, printManySummary } = await import('./manyPrint.js');
        const progress = await createManyProgress(io, context.printer, { json, dryRun: flags.dryRun === true });
        let run;
        try {
          run = await runManyFromFlags(flags, context, (e) => progress.onEvent(e));
        } finally {
          progress.stop();
        }
        if (run.failure !== undefined) {
          // The journal ended the run: the summary of what was done, then its one line (runAction).
          const { exitCodeOf } = await import('../../exitCodeOf.js');
          printManySummary(context.printer, run, json, exitCodeOf(run.failure));
          throw run.failure;
        }
        const code = manyExitCode(run);
        printManySummary(context.printer, run, json, code);
        return code;
      }
      const { runAutoLabel } = await import('./runner.js');
      const { printAutoLabel, printStarted } = await import('./print.js');
      const { createJobWatcher } = await import('../../jobLines.js');
      const { outcomesExitCode } = await import('../../jobWait.js');
      const result = await runAutoLabel({ ...flags, project: flags.project?.[0] }, context, {
        onStarted: (job) => printStarted(context.printer, job, json),
        makeWatcher: (jobIds) => createJobWatcher(io, context.printer, { json, jobIds }),
      });
      printAutoLabel(context.printer, result, json);
      return result.kind === 'waited' ? outcomesExitCode([result.outcome]) : EXIT.ok;
    }),
  );
  return command;
}
