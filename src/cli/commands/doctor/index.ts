import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { useColor } from '../../io.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { DoctorFlags } from './runner.js';

/**
 * Declares `labelkit doctor`: checks an importer's project, one finding a line with its fix.
 *
 * @param io - the process
 * @param done - receives the exit code (0 healthy, 13 findings, 2 bad flags)
 * @returns the command
 */
export function doctorCommand(io: Io, done: (code: number) => void): Command {
  const command = new Command('doctor')
    .description("check your project's set-up for labelkit: Node against engines, package.json type and tsconfig's module lines, TypeScript's version, whether labelkit/documents is typed there, codegen's overrides, your documents (documents check); with --url the service, with --model the model endpoint")
    .option('--dir <folder>', "the app's folder (default: the current one)")
    .option('--model <url>', "also check the model endpoint's contract (as model check does)")
    .option('--secret-key-env <var>', "with --model: the variable holding the model's secret", 'LABELKIT_MODEL_SECRET')
    .option('--allow-insecure-endpoint', 'with --model: allow http:// to a host that is not loopback')
    .option('--json', 'print the result as one JSON object')
    .option('--verbose', 'also print what each check saw (versions, counts); the stack of an error')
    .addHelpText('after', '\nExit: 0 healthy, 13 a finding (each on one line with its fix), 2 bad flags.\n\nExamples:\n  $ labelkit doctor\n  $ labelkit doctor --url https://labeling.example.com/graphql --model https://model.example.com/predict');
  addConnectionOptions(command).action(
    commandAction(io, done, { command: 'doctor' }, async (flags: DoctorFlags & CommonFlags, context) => {
      const { runDoctor } = await import('./runner.js');
      const { printDoctor } = await import('./print.js');
      const result = await runDoctor(flags, context);
      printDoctor(context.printer, result, { json: flags.json === true, verbose: flags.verbose === true, color: useColor(io, io.stdout) });
      return result.healthy ? EXIT.ok : EXIT.doctorFindings;
    }),
  );
  return command;
}
