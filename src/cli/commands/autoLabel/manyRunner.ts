import { existsSync } from 'node:fs';
import { createLabelingClient, isLabelkitError } from 'labelkit';
import { autoLabelMany, createMemoryJournal, DEFAULT_JOURNAL_RETRY_MS, displayDatabaseUrl, isPostgresUrl, MAX_JOURNAL_RETRY_MS, openFileJournal, openOutbox, openPostgresJournal, recordOutbox } from '../../../bulk/index.js';
import type { AutoLabelManyResult, Journal, ManyEvent, Outbox, ProjectOutcome } from '../../../bulk/index.js';
import { urlSecrets } from '../../../shared/redact.js';
import { parseDuration } from '../../duration.js';
import type { Printer } from '../../io.js';
import { clientAuth, requireConnection } from '../../connection.js';
import { EXIT } from '../../exitCodes.js';
import { JournalFailure } from '../../journalFailure.js';
import type { ActionContext } from '../../runAction.js';
import { CliUsageError } from '../../usageError.js';
import type { UsageProblem } from '../../usageError.js';
import { parseWaitFlags } from '../../jobWait.js';
import { projectIds } from '../../projectFlags.js';
import { buildAutoLabelInput } from './runner.js';
import type { AutoLabelFlags } from './runner.js';
import { HEARTBEAT_MS, RUN_LIMITS, START_TIMEOUT_MS } from '../../../shared/constants.js';

/** Flags of `labelkit auto-label` over many projects (`--project` repeated or `--projects FILE`). */
export interface AutoLabelManyFlags extends Omit<AutoLabelFlags, 'project'> {
  project?: string[];
  projects?: string;
  journal?: string;
  journalName?: string;
  heartbeat?: string;
  journalRetry?: string;
  outbox?: string;
  concurrency?: string;
  startTimeout?: string;
  maxRunning?: string;
  maxStartsPerMinute?: string;
  /** NDJSON on stdout (the warnings of a lost database then go there as `warning` events). */
  json?: boolean;
  retryFailed?: boolean;
  retryUnknown?: boolean;
  force?: boolean;
}

/**
 * The outbox of a database run unless `--outbox` names one: in the current folder, by run name.
 *
 * @param name - the run's `--journal-name`
 * @returns e.g. `labelkit-outbox-prelabel-2026-11.ndjson`
 */
export function defaultOutbox(name: string): string {
  return `labelkit-outbox-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.ndjson`;
}

/** Default of `--concurrency`. */
const DEFAULT_CONCURRENCY = 4;

/**
 * Whether the flags ask for a many-project run rather than today's single-project one.
 *
 * @param flags - the parsed flags
 * @returns true with `--projects`, several `--project`, `--journal`, `--journal-name`, `--journal-retry`, `--concurrency`, `--start-timeout`, `--max-running`, `--max-starts-per-minute` or a rerun flag
 * @remarks One `--project` without these flags keeps the single-project behaviour (the job id alone on stdout).
 * @example
 * ```ts
 * isManyRun({ project: ['p1'] }); // false
 * isManyRun({ project: ['p1'], journal: 'run.ndjson' }); // true
 * ```
 */
export function isManyRun(flags: AutoLabelManyFlags): boolean {
  return (
    flags.projects !== undefined ||
    (flags.project?.length ?? 0) > 1 ||
    flags.journal !== undefined ||
    flags.journalName !== undefined ||
    flags.journalRetry !== undefined ||
    flags.outbox !== undefined ||
    flags.concurrency !== undefined ||
    flags.startTimeout !== undefined ||
    flags.maxRunning !== undefined ||
    flags.maxStartsPerMinute !== undefined ||
    flags.retryFailed === true ||
    flags.retryUnknown === true ||
    flags.force === true
  );
}

function parseConcurrency(value: string | undefined, problems: UsageProblem[]): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > 1000) problems.push({ field: '--concurrency', message: 'must be an integer from 1 to 1000' });
  return n;
}

/**
 * `--max-running K` and `--max-starts-per-minute R`: integers within {@link RUN_LIMITS};
 * `--max-running` only with `--wait` (or `--dry-run`): a job holds its lease until the run sees it end.
 */
function parseRunLimits(flags: AutoLabelManyFlags, problems: UsageProblem[]): { maxRunning?: number; maxStartsPerMinute?: number } {
  const read = (value: string | undefined, field: string, { min, max }: { min: number; max: number }, what: string) => {
    if (value === undefined) return undefined;
    const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) problems.push({ field, message: `must be an integer from ${min} to ${max} (${what})` });
    return n;
  };
  const maxRunning = read(flags.maxRunning, '--max-running', RUN_LIMITS.maxRunning, 'jobs running at once across every worker of the run');
  const maxStartsPerMinute = read(flags.maxStartsPerMinute, '--max-starts-per-minute', RUN_LIMITS.maxStartsPerMinute, 'starts a minute across every worker of the run');
  if (maxRunning !== undefined && flags.wait !== true && flags.dryRun !== true) {
    problems.push({ field: '--max-running', message: 'needs --wait: a job counts as running until the run sees it end' });
  }
  return { ...(maxRunning !== undefined && { maxRunning }), ...(maxStartsPerMinute !== undefined && { maxStartsPerMinute }) };
}

/** `--start-timeout`: a duration within {@link START_TIMEOUT_MS} (default 5m). */
function parseStartTimeout(value: string | undefined, problems: UsageProblem[]): number {
  if (value === undefined) return START_TIMEOUT_MS.default;
  const ms = parseDuration(value);
  if (ms === undefined || ms < START_TIMEOUT_MS.min || ms > START_TIMEOUT_MS.max) {
    problems.push({ field: '--start-timeout', message: `must be a duration from ${START_TIMEOUT_MS.min / 1000}s to ${START_TIMEOUT_MS.max / 60_000}m, such as 5m` });
  }
  return ms ?? START_TIMEOUT_MS.default;
}

/**
 * Reads `--journal`, `--journal-name`, `--heartbeat` and `--journal-retry`: a file path, or a
 * PostgreSQL URL with the run's name. Problems go to `problems`; the database password joins the
 * printer's secrets.
 */
function journalFlags(
  flags: AutoLabelManyFlags,
  env: Record<string, string | undefined>,
  printer: Printer,
  problems: UsageProblem[],
): { file?: string; url?: string; name?: string; heartbeatMs?: number; retryMs?: number } {
  const value = flags.journal?.trim();
  if (flags.journal !== undefined && value === '') problems.push({ field: '--journal', message: 'must be a file path or a postgres:// URL' });
  if (value === undefined || value === '' || !isPostgresUrl(value)) {
    if (flags.journalName !== undefined) problems.push({ field: '--journal-name', message: 'names a run in a database: only with --journal postgres://… (a file journal is its own run)' });
    if (flags.heartbeat !== undefined) problems.push({ field: '--heartbeat', message: 'only with --journal postgres://… (a file journal has one worker)' });
    if (flags.journalRetry !== undefined) problems.push({ field: '--journal-retry', message: 'only with --journal postgres://… (a file journal has no connection to lose)' });
    if (flags.outbox !== undefined) problems.push({ field: '--outbox', message: 'only with --journal postgres://… (a file journal has no connection to lose)' });
    return value ? { file: value } : {};
  }
  let retryMs: number | undefined;
  if (flags.journalRetry !== undefined) {
    retryMs = /^\s*0\s*$/.test(flags.journalRetry) ? 0 : parseDuration(flags.journalRetry);
    if (retryMs === undefined || retryMs > MAX_JOURNAL_RETRY_MS) problems.push({ field: '--journal-retry', message: `must be a duration from 0 to ${MAX_JOURNAL_RETRY_MS / 60_000}m, such as 30s (0: fail at once)` });
  }
  for (const secret of urlSecrets(value)) printer.addSecret(secret);
  printer.addSecret(env.PGPASSWORD);
  let heartbeatMs: number | undefined;
  if (flags.heartbeat !== undefined) {
    heartbeatMs = parseDuration(flags.heartbeat);
    if (heartbeatMs === undefined || heartbeatMs < HEARTBEAT_MS.min || heartbeatMs > HEARTBEAT_MS.max) problems.push({ field: '--heartbeat', message: `must be a duration from ${HEARTBEAT_MS.min}ms to ${HEARTBEAT_MS.max / 60_000}m, such as 5s` });
  }
  if (flags.journalName === undefined || flags.journalName.trim() === '') {
    problems.push({ field: '--journal-name', message: 'required with a database --journal: the name of the run, the same for every worker (e.g. --journal-name prelabel-2026-11)' });
  }
  return { url: value, name: flags.journalName?.trim() ?? '', ...(heartbeatMs !== undefined && { heartbeatMs }), ...(retryMs !== undefined && { retryMs }) };
}

/**
 * The journal as the command hands it to the run: every error of it, except a problem of input
 * (VALIDATION: a missing database, another configuration), becomes a {@link JournalFailure}
 * whose hint names `--journal`, so that the user looks at the journal and not at the service.
 */
function namedJournal(journal: Journal, hint: (error: unknown) => string): Journal {
  const named = <A extends unknown[], R>(call: ((...args: A) => Promise<R>) | undefined) =>
    call &&
    ((...args: A) =>
      call.apply(journal, args).catch((error: unknown) => {
        // A problem of input, or the run's stop (Ctrl-C, SIGTERM) given up on the database: told as such, not as the journal's failure.
        throw isLabelkitError(error) && (error.code === 'VALIDATION' || error.code === 'ABORTED') ? error : new JournalFailure(error, hint(error));
      }));
  return {
    open: named(journal.open)!,
    append: named(journal.append)!,
    claim: named(journal.claim)!,
    close: named(journal.close)!,
    ...(journal.claims && { claims: named(journal.claims) }),
    ...(journal.refresh && { refresh: named(journal.refresh) }),
    ...(journal.otherRuns && { otherRuns: named(journal.otherRuns) }),
    ...(journal.queue && { queue: { load: named(journal.queue.load.bind(journal.queue))!, take: named(journal.queue.take.bind(journal.queue))!, takers: named(journal.queue.takers.bind(journal.queue))! } }),
    ...(journal.limits && { limits: namedMethods(journal.limits, named) }),
  };
}

/** Every method of an object, each through `named` (bound to the object). */
function namedMethods<T extends object>(object: T, named: <A extends unknown[], R>(call: ((...args: A) => Promise<R>) | undefined) => ((...args: A) => Promise<R>) | undefined): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) out[key] = typeof value === 'function' ? named((value as (...args: unknown[]) => Promise<unknown>).bind(object)) : value;
  return out as T;
}

/** The hint of a database journal's failure, by what failed. */
function databaseHint(retryMs: number) {
  return (error: unknown): string => {
    if (isLabelkitError(error) && error.code === 'AUTH') return 'check the user and password of the database in --journal (in its URL, PGPASSWORD or ~/.pgpass)';
    if (isLabelkitError(error)) {
      const waited = retryMs > 0 ? `; a worker keeps trying for --journal-retry (now ${retryMs / 1000}s)` : '; --journal-retry 30s keeps trying while it restarts';
      return `check that the database of --journal is up and reachable from here${waited}`;
    }
    return 'check the database of --journal; --verbose shows details';
  };
}

/** What a many-project `labelkit auto-label` did. */
export type AutoLabelManyRun = AutoLabelManyResult & {
  dryRun: boolean;
  journal?: string;
  interrupted: boolean;
  /** The journal's failure that ended the run early (a {@link JournalFailure}); the outcomes say what was done. */
  failure?: unknown;
};

/**
 * Runs `labelkit auto-label` over many projects with a journal: worklist, claim and start (bounded), wait, summarize.
 *
 * @param flags - the command's flags
 * @param context - the run's io, printer and Ctrl-C signal
 * @param onEvent - receives every event of the run (the progress display)
 * @returns the worklist, the outcomes and whether Ctrl-C stopped the run
 * @throws {@link CliUsageError} for bad flags or a bad projects file (every problem; nothing sent);
 * the client's ValidationError for a journal from another configuration (without `--force`) or a corrupt one
 * @remarks Without `--journal` the run remembers nothing for a rerun. Ctrl-C stops starting new
 * jobs and stops waiting; mutations already on their way are finished and journaled.
 * @example
 * ```ts
 * const run = await runManyFromFlags({ projects: 'projects.txt', journal: 'run.ndjson', wait: true, labelerEmail: 'a@example.com', endpoint: 'https://model.example.com/', filesPerRequest: '10' }, context, () => {});
 * ```
 */
export async function runManyFromFlags(flags: AutoLabelManyFlags, context: ActionContext, onEvent: (event: ManyEvent) => void): Promise<AutoLabelManyRun> {
  const problems: UsageProblem[] = [];
  const ids = await projectIds(flags, problems);
  const shared: UsageProblem[] = [];
  const input = await buildAutoLabelInput({ ...flags, project: ids[0] ?? 'none' }, context, shared);
  problems.push(...shared.filter((p) => p.field !== '--project'));
  const concurrency = parseConcurrency(flags.concurrency, problems);
  const startTimeoutMs = parseStartTimeout(flags.startTimeout, problems);
  const runLimits = parseRunLimits(flags, problems);
  const { timeoutMs, intervalMs } = parseWaitFlags(flags, problems);
  const where = journalFlags(flags, context.io.env, context.printer, problems);
  if (problems.length > 0) throw new CliUsageError(problems, 'labelkit auto-label --help');
  const connection = await requireConnection(flags, context.io, context.printer);
  const dryRun = flags.dryRun === true;
  let journal: Journal = createMemoryJournal();
  let journalLabel: string | undefined;
  let outbox: Outbox | undefined;
  const say = (message: string) => (flags.json === true ? context.printer.json({ event: 'warning', message }) : context.printer.err(`labelkit: warning: ${message}`));
  if (where.file !== undefined) {
    const file = where.file;
    journal = namedJournal(openFileJournal(file, { readOnly: dryRun }), () => `check the file of --journal (${file}): its folder, its rights and the free space`);
    journalLabel = file;
  } else if (where.url !== undefined) {
    const retryMs = where.retryMs ?? DEFAULT_JOURNAL_RETRY_MS;
    // Two connections beyond the starts (the appends of finished jobs, the heartbeat), within the
    // journal's limit of 100: --concurrency goes to 1000, and claims then queue for a connection.
    const database = openPostgresJournal({
      url: where.url,
      name: where.name ?? '',
      readOnly: dryRun,
      connections: Math.min(concurrency + 2, 100),
      retryMs,
      // Ctrl-C and SIGTERM stop its retries: the worker ends within a second, also with the database gone.
      signal: context.signal,
      ...(where.heartbeatMs !== undefined && { heartbeatMs: where.heartbeatMs }),
      onConnection: (change) =>
        say(change.state === 'lost' ? `${change.message}; trying again for up to ${retryMs / 1000}s (--journal-retry)` : `${change.message} after ${((change.afterMs ?? 0) / 1000).toFixed(1)}s; going on`),
    });
    journal = namedJournal(database, databaseHint(retryMs));
    journalLabel = `${displayDatabaseUrl(where.url)} --journal-name ${where.name}`;
    // Starts the database could not take during an outage: kept here, recorded by the next run.
    const outboxPath = flags.outbox ?? defaultOutbox(where.name ?? '');
    if (dryRun) {
      if (existsSync(outboxPath)) say(`the outbox ${outboxPath} holds started jobs the journal could not take; the next run (not a dry run) records them`);
    } else {
      const recorded = await recordOutbox(journal, outboxPath, journalLabel);
      if (recorded) say(`recorded in the journal ${recorded.written} started job${recorded.written === 1 ? '' : 's'} of the outbox ${outboxPath}${recorded.skipped > 0 ? ` (${recorded.skipped} it held already)` : ''}; their projects are waited for`);
      outbox = openOutbox(outboxPath, journalLabel);
    }
  }

  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), poll: { intervalMs, maxIntervalMs: intervalMs * 5 } });
  // What the run told, for the summary of a run that its journal ended early.
  let worklist: ManyEvent & { event: 'worklist' } | undefined;
  const told = new Map<string, ProjectOutcome>();
  const observe = (event: ManyEvent) => {
    if (event.event === 'worklist') worklist = event;
    // Kept as it is (an outcome with its `event` field): no copy of each of 100,000 outcomes.
    if (event.event === 'outcome') told.set(event.projectId, event);
    onEvent(event);
  };
  try {
    const result = await autoLabelMany(
      client,
      ids.map((projectId) => ({ ...input, projectId })),
      {
        concurrency,
        journal,
        signal: context.signal,
        onEvent: observe,
        wait: flags.wait === true,
        timeoutMs,
        startTimeoutMs,
        ...runLimits,
        retryFailed: flags.retryFailed === true,
        retryUnknown: flags.retryUnknown === true,
        force: flags.force === true,
        allowInsecureEndpoint: flags.allowInsecureEndpoint === true,
        dryRun,
        ...(outbox && { outbox }),
      },
    );
    return { ...result, dryRun, ...(journalLabel !== undefined && { journal: journalLabel }), interrupted: context.signal.aborted };
  } catch (error) {
    // The journal failed mid-run, or the run was stopped while the journal did not answer (the
    // journal's ABORTED): every project has its outcome (what is known), for the summary. After a
    // stop it is the stop that is told (exit 130); any other error (a bug) is told as itself, stop or not.
    const interrupted = context.signal.aborted;
    const stoppedJournal = interrupted && isLabelkitError(error) && error.code === 'ABORTED';
    if (!(error instanceof JournalFailure || stoppedJournal) || worklist === undefined) throw error;
    const outcomes: ProjectOutcome[] = [];
    for (const id of ids) {
      const outcome = told.get(id);
      if (outcome) outcomes.push(outcome);
    }
    return { worklist: worklist.worklist, outcomes, warnings: worklist.warnings, otherRuns: worklist.otherRuns, dryRun, ...(journalLabel !== undefined && { journal: journalLabel }), interrupted, ...(!interrupted && { failure: error }) };
  } finally {
    client.close();
  }
}

const OUTCOME_EXIT: Record<ProjectOutcome['outcome'], number> = {
  delivered: EXIT.ok,
  started: EXIT.ok,
  failed: EXIT.jobFailed,
  'not-started': EXIT.jobFailed,
  'outcome-unknown': EXIT.jobFailed,
  'timed-out': EXIT.jobTimedOut,
  'not-found': EXIT.jobNotFound,
  interrupted: EXIT.interrupted,
  // Another worker of a shared journal runs it: its outcome is that worker's (and the run's, with --dry-run).
  'claimed-elsewhere': EXIT.ok,
};

/**
 * The exit code of a many-project run: the worst of its projects'.
 *
 * @param run - the run
 * @returns 0 all delivered (or started, without `--wait`); 5 any failed, not started or of
 * unknown outcome; 6 any timed out; 7 any not found; 130 after Ctrl-C; the largest wins
 * @remarks A wait ended by an auth failure counts 3 for its project.
 * @example
 * ```ts
 * manyExitCode(run); // 6 when one project failed and another timed out
 * ```
 */
export function manyExitCode(run: AutoLabelManyRun): number {
  if (run.interrupted) return EXIT.interrupted;
  // A loop, not Math.max(...codes): a spread of 150,000 codes overflows the stack.
  let worst: number = EXIT.ok;
  for (const o of run.outcomes) worst = Math.max(worst, o.outcome === 'interrupted' && o.error?.code === 'AUTH' ? EXIT.auth : OUTCOME_EXIT[o.outcome]);
  return worst;
}
