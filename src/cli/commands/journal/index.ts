import { Command } from 'commander';
import type { Io } from '../../io.js';
import { commandAction } from '../../runAction.js';
import type { CommonFlags } from '../../runAction.js';
import type { JournalPruneFlags, JournalRecordFlags } from './runner.js';

/**
 * Declares `labelkit journal prune` and `labelkit journal record`: the upkeep of a PostgreSQL journal.
 *
 * @param io - the process
 * @param done - receives the exit code (0 done, 2 bad flags or no such outbox, 3 login refused, 4 the database cannot be reached)
 * @returns the `journal` command with its subcommands
 */
export function journalCommand(io: Io, done: (code: number) => void): Command {
  const prune = new Command('prune')
    .description('remove the runs of a database journal in which nothing moved for a while (records, queue, workers); a run with a live worker is kept')
    .requiredOption('--journal <url>', 'the database: postgres://user@host:5432/db (password in the URL, PGPASSWORD or ~/.pgpass)')
    .requiredOption('--older-than <duration>', 'how long a run must have been still: 30d, 12h, 90m')
    .option('--dry-run', 'remove nothing: list the runs it would remove, with their records')
    .option('--json', 'one JSON line per run, then a summary line')
    .option('--verbose', 'the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 done (also when no run was old enough), 2 bad flags, 3 login refused, 4 the database cannot be reached.\n' +
        '\nExamples:\n  $ labelkit journal prune --journal "$DATABASE_URL" --older-than 30d --dry-run\n  $ labelkit journal prune --journal "$DATABASE_URL" --older-than 30d',
    )
    .action(
      commandAction(io, done, { command: 'journal prune', service: false }, async (flags: JournalPruneFlags & CommonFlags, context) => {
        const { runJournalPrune } = await import('./runner.js');
        return runJournalPrune(flags, context);
      }),
    );
  const record = new Command('record')
    .description("write the starts an outbox file kept (the database was away when their jobs started) to the journal, then remove the file: their projects are waited for, not unknown")
    .argument('<outbox>', 'the outbox file (labelkit-outbox-<journal-name>.ndjson, or the --outbox of the run)')
    .requiredOption('--journal <url>', 'the database of the run: postgres://user@host:5432/db')
    .requiredOption('--journal-name <name>', 'the run (its --journal-name)')
    .option('--json', 'one JSON line: written and skipped')
    .option('--verbose', 'the stack of an error')
    .addHelpText(
      'after',
      '\nExit: 0 recorded, 2 bad flags, no such file, or an outbox of another journal, 3 login refused, 4 the database cannot be reached.\n' +
        '\nExample:\n  $ labelkit journal record labelkit-outbox-prelabel-2026-11.ndjson --journal "$DATABASE_URL" --journal-name prelabel-2026-11',
    )
    .action(
      commandAction(io, done, { command: 'journal record', service: false }, async (flags: JournalRecordFlags & CommonFlags, context, outbox: string) => {
        const { runJournalRecord } = await import('./runner.js');
        return runJournalRecord(outbox, flags, context);
      }),
    );
  return new Command('journal').description('the upkeep of a PostgreSQL journal (see: journal prune, journal record)').enablePositionalOptions().addCommand(prune).addCommand(record);
}
