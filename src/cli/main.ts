import { Command, CommanderError } from 'commander';
import { VERSION } from '../shared/constants.js';
import { terminalLine, terminalText } from '../shared/escape.js';
import { autoLabelCommand } from './commands/autoLabel/index.js';
import { cabinetCommand } from './commands/cabinet/index.js';
import { demoCommand } from './commands/demo/index.js';
import { doctorCommand } from './commands/doctor/index.js';
import { documentsCommand } from './commands/documents/index.js';
import { emulatorCommand } from './commands/emulator/index.js';
import { evalCommand } from './commands/eval/index.js';
import { exportCommand } from './commands/export/index.js';
import { jobsCommand } from './commands/jobs/index.js';
import { journalCommand } from './commands/journal/index.js';
import { labelSetsCommand } from './commands/labelSets/index.js';
import { labelsCommand } from './commands/labels/index.js';
import { modelCommand } from './commands/model/index.js';
import { schemaCommand } from './commands/schemaCheck/index.js';
import { EXIT, EXIT_CODE_HELP } from './exitCodes.js';
import { createPrinter, processIo } from './io.js';
import type { Io } from './io.js';
import { parserErrorLine } from './usageError.js';

export { EXIT } from './exitCodes.js';

const ENVIRONMENT_HELP = [
  'Environment:',
  '  LABELKIT_URL            GraphQL endpoint of the service (or --url)',
  '  LABELKIT_TOKEN          access token (or --token-file, --token-stdin)',
  '  LABELKIT_CLIENT_ID      client id for the client-credentials login (or --client-id)',
  '  LABELKIT_CLIENT_SECRET  client secret (or --client-secret-file)',
  '  LABELKIT_MODEL_SECRET   secret key of your model endpoint (auto-label, model, model check)',
  '  NO_COLOR                no colour',
].join('\n');

/**
 * Builds the `labelkit` program.
 *
 * @param io - the process (or a test's stand-in)
 * @param done - receives the exit code of the command that ran
 * @returns the commander program
 * @remarks Only commander, the client's VERSION and the commands' flag declarations load here;
 * each command imports its runner (the client, the emulator, the model kit, cli-progress) when
 * it runs, so `labelkit --help` starts fast. An error of the argument parser (unknown option,
 * missing argument, unknown command) is printed as one line like every other usage error:
 * `labelkit: unknown option '--bogus' (hint: labelkit cabinet --help)`; the parse then throws a
 * `CommanderError`, which {@link main} turns into exit code 2.
 * @example
 * ```ts
 * let code = 0;
 * await buildProgram(processIo(), (c) => (code = c)).parseAsync(process.argv);
 * ```
 */
export function buildProgram(io: Io, done: (code: number) => void): Command {
  const program = new Command('labelkit')
    .description('Client, emulator and model kit for the labeling service')
    .version(VERSION, '-V, --version', 'print the version')
    .exitOverride()
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => void io.stdout.write(terminalLine(s, true)), writeErr: (s) => void io.stderr.write(terminalLine(s, true)) })
    .addHelpText('after', `\n${ENVIRONMENT_HELP}\n\n${EXIT_CODE_HELP}\n\nExample:\n  $ labelkit demo`);
  const commands = [
    cabinetCommand(io, done),
    labelSetsCommand(io, done),
    autoLabelCommand(io, done),
    jobsCommand(io, done),
    journalCommand(io, done),
    labelsCommand(io, done),
    evalCommand(io, done),
    exportCommand(io, done),
    emulatorCommand(io, done),
    modelCommand(io, done),
    schemaCommand(io, done),
    documentsCommand(io, done),
    doctorCommand(io, done),
    demoCommand(io, done),
  ];
  // Parser errors through the printer, so that even they pass the one redactor (`Bearer …`).
  const printer = createPrinter(io);
  const parserErrors = (command: Command, path: string) =>
    command.configureOutput({ outputError: (text: string) => printer.err(parserErrorLine(text, path)) });
  parserErrors(program, '');
  // addCommand() does not pass settings down as command() does: exit override, output, help.
  const inherit = (command: Command, path: string) => {
    command.copyInheritedSettings(program);
    parserErrors(command, path);
    command.addHelpText('after', `\n${EXIT_CODE_HELP}`);
    command.commands.forEach((sub) => inherit(sub as Command, `${path} ${sub.name()}`));
  };
  for (const command of commands) {
    inherit(command, command.name());
    program.addCommand(command);
  }
  return program;
}

/**
 * Runs the `labelkit` command line.
 *
 * @param argv - `process.argv` (node, script, then the arguments)
 * @param io - the process; tests pass buffers and an environment
 * @returns the exit code (see docs/CONTRACTS.md; `labelkit --help` lists them)
 * @example
 * ```ts
 * process.exitCode = await main(process.argv);
 * ```
 */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    io.stderr.write(`labelkit: unexpected error: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    return EXIT.unexpected;
  }
  return code;
}
