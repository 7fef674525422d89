import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { EvalFlags } from './runner.js';

/**
 * Declares `labelkit eval --project P [--labeler EMAIL] [--match M] [--layer N] [--min-confidence X] [--fail-under F1] [--scheme S] [--errors FILE] [--json] [--json-out FILE] [--ci [--resamples N] [--seed S]] [--baseline FILE [--max-drop D]] [--format text|json|markdown]`.
 *
 * @param io - the process
 * @param done - receives the exit code (0; 11 when micro F1 is under --fail-under; 12 when an F1
 * dropped more than --max-drop beyond noise; 2 bad flags or no such copy)
 * @returns the command
 */
export function evalCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('eval')
    .description("score the model's labels (the copy of the job's labeler e-mail) against the reviewer copy's, per label")
    .option('--project <id>', 'project id')
    .option('--labeler <email>', "whose copy holds the model's labels: the labelerEmail the job was given (needed when the project has several labelers)")
    .option('--match <mode>', 'strict (same span and label, as seqeval), overlap (one to one: the most pairs, then the closest boundaries) or token (default strict)')
    .option('--layer <n>', 'score one label set only (its index)')
    .option('--min-confidence <x>', 'leave out predictions whose confidence is under x (0 to 1); those without one stay')
    .option('--fail-under <f1>', 'exit 11 when micro F1 is under this (0 to 1): a quality gate for a model in CI')
    .option('--scheme <name>', 'also print the table of one SemEval-2013 9.1 scheme: strict, exact, partial or ent_type (all four are in --json)')
    .option('--errors <file>', 'write every mistake (missed, spurious, wrong label, boundary) with its text to FILE: .csv, or .ndjson/.jsonl')
    .option('--json', 'print the report as one JSON object (docs/evaluation.md, "--json")')
    .option('--json-out <file>', 'also write the report as --json prints it to FILE (whole or not at all), whatever --format prints: one run for a PR comment and the next baseline')
    .option('--ci', "95 % bootstrap intervals (over documents) of micro F1 and each label's F1")
    .option('--resamples <n>', 'how many bootstrap resamples with --ci (default 1000)')
    .option('--seed <n>', 'the seed of the resampling, to repeat --ci exactly (default: drawn, and named in the report)')
    .option('--baseline <report.json>', "compare with a report saved with --json: each label's F1 change, and whether it lies outside the interval")
    .option('--max-drop <d>', "exit 12 when micro F1 or a label's F1 dropped from --baseline by more than d (0 to 1) beyond noise (turns --ci on)")
    .option('--format <f>', 'text (default), json (as --json) or markdown (a table a pull-request comment can hold)')
    .option('--verbose', 'the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 scored (and micro F1 not under --fail-under), 11 micro F1 under --fail-under, 12 an F1 dropped more than --max-drop beyond noise, 2 bad flags or no such copy.\n' +
        '\nExamples:\n  $ labelkit eval --project demo-project --labeler model@example.com\n  $ labelkit eval --project demo-project --match overlap --json\n  $ labelkit eval --project demo-project --scheme partial --errors mistakes.csv\n  $ labelkit eval --project demo-project --fail-under 0.8   # in CI\n  $ labelkit eval --project demo-project --baseline last.json --max-drop 0.02 --format markdown --json-out report.json',
    );
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'eval' }, async (flags: EvalFlags & CommonFlags, context) => {
      const { runEval } = await import('./runner.js');
      const { printEvalReport } = await import('./print.js');
      const { createDocumentProgress } = await import('../../progress.js');
      const progress = createDocumentProgress(io);
      try {
        const { report, exitCode, errorsWritten, errorsFailed, jsonWritten, jsonFailed, output } = await runEval(flags, context, progress.onProgress);
        progress.stop();
        printEvalReport(context.printer, report, output);
        if (jsonWritten !== undefined) context.printer.err(`labelkit: report written to ${jsonWritten}`);
        if (errorsWritten) context.printer.err(`labelkit: ${errorsWritten.count} mistake${errorsWritten.count === 1 ? '' : 's'} written to ${errorsWritten.path}`);
        // The report is out; the --errors or --json-out file is not (exit 4, naming it).
        if (errorsFailed ?? jsonFailed) throw errorsFailed ?? jsonFailed;
        return exitCode;
      } finally {
        progress.stop();
      }
    }),
  );
  return command;
}
