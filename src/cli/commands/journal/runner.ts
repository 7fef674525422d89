import { displayDatabaseUrl, isPostgresUrl, openPostgresJournal, recordOutbox } from '../../../bulk/index.js';
import { urlSecrets } from '../../../shared/redact.js';
import { parseDuration } from '../../duration.js';
import { EXIT } from '../../exitCodes.js';
import type { ActionContext } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';

/** Flags of `labelkit journal prune`. */
export interface JournalPruneFlags {
  journal: string;
  olderThan: string;
  dryRun?: boolean;
}

/** Flags of `labelkit journal record`. */
export interface JournalRecordFlags {
  journal: string;
  journalName: string;
}

/** The database of `--journal`, checked; its password joins the printer's secrets. */
function databaseUrl(value: string, context: ActionContext, problems: UsageProblem[]): string {
  const url = value.trim();
  for (const secret of urlSecrets(url)) context.printer.addSecret(secret);
  context.printer.addSecret(context.io.env.PGPASSWORD);
  if (!isPostgresUrl(url)) problems.push({ field: '--journal', message: 'must be a database URL such as postgres://user@host:5432/db (a file journal holds one run: remove the file instead)' });
  return url;
}

/** A run name for a journal opened for upkeep only (read-only: nothing of it is written). */
const UPKEEP_RUN = 'labelkit-journal-upkeep';

/**
 * Runs `labelkit journal prune`: removes (or, with `--dry-run`, lists) the runs still for longer than `--older-than`.
 *
 * @param flags - `--journal`, `--older-than`, `--dry-run`
 * @param context - the printer
 * @returns the exit code
 * @throws {@link CliUsageError} for bad flags (every problem, before connecting)
 */
export async function runJournalPrune(flags: JournalPruneFlags, context: ActionContext): Promise<number> {
  const problems: UsageProblem[] = [];
  const url = databaseUrl(flags.journal, context, problems);
  const olderThanMs = parseDuration(flags.olderThan);
  if (olderThanMs === undefined) problems.push({ field: '--older-than', message: 'must be a duration such as 30d, 12h or 90m' });
  if (problems.length > 0) throw new CliUsageError(problems, 'labelkit journal prune --help');
  const dryRun = flags.dryRun === true;
  const journal = openPostgresJournal({ url, name: UPKEEP_RUN, readOnly: true });
  await journal.open();
  let runs;
  try {
    runs = await journal.prune(olderThanMs!, { dryRun });
  } finally {
    await journal.close();
  }
  const records = runs.reduce((n, r) => n + r.records, 0);
  const verb = dryRun ? 'would remove' : 'removed';
  if (context.flags.json === true) {
    for (const r of runs) context.printer.json({ event: 'run', ...r, removed: !dryRun });
    context.printer.json({ event: 'summary', runs: runs.length, records, dryRun });
  } else {
    for (const r of runs) context.printer.out(`${dryRun ? 'would remove' : 'removed'} run ${r.run} (last moved ${r.lastAt}, ${r.records} records)`);
    context.printer.out(`${verb} ${runs.length} run${runs.length === 1 ? '' : 's'} still for longer than ${flags.olderThan} (${records} records) from ${displayDatabaseUrl(url)}`);
  }
  return EXIT.ok;
}

/**
 * Runs `labelkit journal record OUTBOX`: writes the starts of an outbox to its journal, then removes the file.
 *
 * @param path - the outbox file
 * @param flags - `--journal`, `--journal-name`
 * @param context - the printer
 * @returns the exit code
 * @throws {@link CliUsageError} for bad flags or a missing file; the outbox's ValidationError for a file of another journal
 */
export async function runJournalRecord(path: string, flags: JournalRecordFlags, context: ActionContext): Promise<number> {
  const problems: UsageProblem[] = [];
  const url = databaseUrl(flags.journal, context, problems);
  const name = flags.journalName.trim();
  if (name === '') problems.push({ field: '--journal-name', message: 'must name the run of the outbox' });
  if (problems.length > 0) throw new CliUsageError(problems, 'labelkit journal record --help');
  // The outbox names its journal as the run printed it: the URL without its password, and the run.
  const label = `${displayDatabaseUrl(url)} --journal-name ${name}`;
  const recorded = await recordOutbox(openPostgresJournal({ url, name }), path, label);
  if (!recorded) throw new CliUsageError([{ field: 'OUTBOX', message: `there is no file ${path}` }], 'labelkit journal record --help');
  if (context.flags.json === true) context.printer.json({ event: 'recorded', outbox: path, ...recorded });
  else {
    const held = recorded.skipped > 0 ? ` (${recorded.skipped} it held already)` : '';
    context.printer.out(`recorded in the journal ${recorded.written} started job${recorded.written === 1 ? '' : 's'} of the outbox ${path}${held}; removed the file`);
  }
  return EXIT.ok;
}
