import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { useColor } from '../../io.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { SchemaCheckFlags } from './runner.js';

/**
 * Declares `labelkit schema check`: compares the service's schema with labelkit's.
 *
 * @param io - the process
 * @param done - receives the exit code: 0 compatible, 8 a breaking change touches what labelkit
 * uses, 2 bad flags, 3 auth, 4 network
 * @returns the `schema` command with its subcommand `check`
 */
export function schemaCommand(io: Io, done: (code: number) => void): Command {
  const check = new Command('check')
    .description("read the service's schema by introspection and compare it with labelkit's: breaking and dangerous changes to what labelkit uses, and whether tag has become label")
    .option('--json', 'print the result as one JSON object')
    .option('--verbose', 'also list every other change, and the breaking changes of each entry of typed documents; the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 compatible, 8 a breaking change touches what labelkit uses.\n' +
        '\nExample:\n  $ labelkit schema check --url https://labeling.example.com/graphql   # token from LABELKIT_TOKEN',
    );
  addConnectionOptions(check).action(
    commandAction(io, done, { command: 'schema check' }, async (flags: SchemaCheckFlags & CommonFlags, context) => {
      const { runSchemaCheck } = await import('./runner.js');
      const { printSchemaCheck } = await import('./print.js');
      const result = await runSchemaCheck(flags, context);
      printSchemaCheck(context.printer, result, { json: flags.json === true, color: useColor(io, io.stdout), verbose: flags.verbose === true });
      return result.compatible ? EXIT.ok : EXIT.schemaIncompatible;
    }),
  );
  return new Command('schema').description("the service's schema (see: schema check)").enablePositionalOptions().addCommand(check);
}
