import { Command } from 'commander';
import { addConnectionOptions } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { useColor } from '../../io.js';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { DocumentsCheckFlags } from '../../checks/documents.js';
import type { DocumentsMigrateFlags } from './migrate.js';

/**
 * Declares `labelkit documents check [globs…]` and `labelkit documents migrate`: the app's own
 * operations across the tag→label rename.
 *
 * @param io - the process
 * @param done - receives the exit code (check: 0 valid, 8 something breaks, 2 unreadable input)
 * @returns the `documents` command with its subcommands
 */
export function documentsCommand(io: Io, done: (code: number) => void): Command {
  const check = new Command('check')
    .description("validate the app's own operations and fragments (.graphql files, graphql(`…`) and gql`…` in .ts/.tsx) against today's schema, the renamed one and, with --url, the service's")
    .argument('[globs...]', "the documents (default: the documents of the app's codegen configuration, else **/*.graphql; node_modules left out)")
    .option('--dir <folder>', "the app's folder (default: the current one)")
    .option('--json', 'print the result as one JSON object')
    .option('--verbose', 'the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 every operation and fragment is valid everywhere it was checked, 8 something breaks (each on one line: file:line:column), 2 a file cannot be read or is not GraphQL.\n' +
        '\nExamples:\n  $ labelkit documents check\n  $ labelkit documents check "src/**/*.graphql" --url https://labeling.example.com/graphql   # token from LABELKIT_TOKEN',
    );
  addConnectionOptions(check).action(
    commandAction(io, done, { command: 'documents check' }, async (flags: DocumentsCheckFlags & CommonFlags, context, globs: string[]) => {
      const { runDocumentsCheck } = await import('../../checks/documents.js');
      const { printDocumentsCheck } = await import('./print.js');
      const result = await runDocumentsCheck(globs, flags, context);
      printDocumentsCheck(context.printer, result, { json: flags.json === true, color: useColor(io, io.stdout) });
      return result.problems.some((p) => p.kind === 'breaks') ? EXIT.schemaIncompatible : EXIT.ok;
    }),
  );
  const migrate = new Command('migrate')
    .description("rewrite the app's own documents across the tag→label rename, keeping their result types: --to both before it (labelItems: tagItems { labelName: tagName }, today's schema), --to labels after it (the aliases go); only the renamed fields change, every other character stays")
    .argument('[globs...]', "the documents (default: the documents of the app's codegen configuration, else **/*.graphql; node_modules left out)")
    .option('--to <form>', "'both' (runs on today's schema, gives the renamed result names) or 'labels' (runs on the renamed schema)")
    .option('--check', 'write nothing; exit 9 when a rewrite is due (for CI)')
    .option('--dir <folder>', "the app's folder (default: the current one)")
    .option('--json', 'print the result as one JSON object')
    .option('--verbose', 'the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 rewritten (or nothing to do), 9 --check: a rewrite is due (nothing written), 2 bad flags or a file that cannot be read or is not GraphQL.\n' +
        '\nExamples:\n  $ labelkit documents migrate --to both\n  $ labelkit documents migrate --to labels --check',
    )
    .action(
      commandAction(io, done, { command: 'documents migrate', service: false }, async (flags: DocumentsMigrateFlags, context, globs: string[]) => {
        const { runDocumentsMigrate } = await import('./migrate.js');
        const { printDocumentsMigrate } = await import('./print.js');
        const result = await runDocumentsMigrate(globs, flags);
        printDocumentsMigrate(context.printer, result, { json: flags.json === true, check: flags.check === true });
        return flags.check === true && result.changed.length > 0 ? EXIT.labelSetsDiffer : EXIT.ok;
      }),
    );
  return new Command('documents').description("the app's own operations across the tag→label rename (see: documents check, documents migrate)").enablePositionalOptions().addCommand(check)
    .addCommand(migrate);
}
