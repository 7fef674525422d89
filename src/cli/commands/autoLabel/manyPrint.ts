import type { ManyEvent, ProjectOutcome, WorklistEntry } from '../../../bulk/index.js';
import type { Io, Printer } from '../../io.js';
import { redact } from '../../../shared/redact.js';
import { AUTO_LABEL_OPTIONS, inFlagTerms } from '../../optionFlags.js';
import type { AutoLabelManyRun } from './manyRunner.js';

/** Which count of the progress bar an outcome adds to. */
const countOf = (o: ProjectOutcome['outcome']) => (o === 'delivered' ? 'delivered' : o === 'failed' || o === 'not-started' ? 'failed' : 'other');

/** The live display of a many-project run. */
interface ManyProgress {
  /** Receives every event of the run. */
  onEvent(event: ManyEvent): void;
  /** Ends the display (before the summary is printed). */
  stop(): void;
}

function detail(o: ProjectOutcome): string {
  // Interrupted (Ctrl-C, or the journal failed): said once below the table; per project only what is known.
  if (o.outcome === 'interrupted' && o.error?.code !== 'AUTH') return o.jobId ? 'started; not waited for to the end' : 'not started';
  if (o.outcome === 'failed') return `${o.errors?.length ?? 0} error(s)${o.errors?.[0] ? `: ${o.errors[0]}` : ''}`;
  if (o.error) return inFlagTerms(o.error.message, AUTO_LABEL_OPTIONS);
  if (o.job) return `${o.job.status} ${o.job.progress}%${o.job.resultId ? ` result ${o.job.resultId}` : ''}`;
  return o.fromJournal ? 'from the journal' : '';
}

/**
 * What the worklist event warns of: the journal's warnings, and the other runs of the same
 * journal database that already started some of these projects (a second job each).
 */
function worklistWarnings(e: ManyEvent & { event: 'worklist' }): string[] {
  const n = e.worklist.length;
  const [one] = e.otherRuns;
  const who =
    e.otherRuns.length === 1 && one
      ? `${one.projects} of these ${n} projects were already started by another run of this journal database, --journal-name ${one.run}`
      : `some of these ${n} projects were already started by other runs of this journal database: ${e.otherRuns.map((r) => `--journal-name ${r.run} (${r.projects})`).join(', ')}`;
  const other = e.otherRuns.length === 0 ? [] : [`${who}: this run starts a second job for each; to continue a run instead, give its --journal-name`];
  return [...e.warnings, ...other];
}

/** The worklist as `plan` events, one at a time (a 100,000-project plan is not copied whole). */
function* planEvents(worklist: readonly WorklistEntry[]) {
  // Reasons repeat (most projects of a run share one): each is put in flag terms once.
  const said = new Map<string, string>();
  for (const p of worklist) {
    let reason = said.get(p.reason);
    if (reason === undefined) {
      reason = inFlagTerms(p.reason, AUTO_LABEL_OPTIONS);
      if (said.size < 1000) said.set(p.reason, reason);
    }
    yield { event: 'plan', ...p, reason };
  }
}

/**
 * The progress display: NDJSON events on stdout with `--json`; one summary bar on a terminal
 * (cli-progress, stderr); otherwise one plain stderr line per start and per outcome (CI logs).
 *
 * @param io - the process (decides TTY or not)
 * @param printer - where lines go (redacts every secret)
 * @param options - `json`, `dryRun` (no bar); the bar starts with the worklist, which gives the number of projects
 * @returns the display
 * @remarks The bar counts projects done (an outcome, also one read from the journal) and shows
 * started, delivered, failed and other counts; every line passes the printer's redaction. The
 * reasons of `plan` events name the flags (`--retry-failed`), as the table does.
 * @example
 * ```ts
 * const progress = await createManyProgress(io, printer, { json: false, dryRun: false });
 * await autoLabelMany(client, inputs, { onEvent: (e) => progress.onEvent(e) });
 * progress.stop();
 * ```
 */
export async function createManyProgress(io: Io, printer: Printer, options: { json: boolean; dryRun: boolean }): Promise<ManyProgress> {
  if (options.json) {
    return {
      onEvent: (e) => {
        // The worklist is printed as `plan` events: the word users know from --dry-run.
        if (e.event !== 'worklist') printer.json(e);
        else {
          for (const w of worklistWarnings(e)) printer.json({ event: 'warning', message: w });
          printer.jsonLines(planEvents(e.worklist));
        }
      },
      stop: () => undefined,
    };
  }
  const warn = (e: ManyEvent) => e.event === 'worklist' && worklistWarnings(e).forEach((w) => printer.err(`labelkit: warning: ${w}`));
  // With --max-running: the jobs running across the run's workers, as this worker last counted them.
  let running = '';
  const count = (e: ManyEvent) => {
    if (e.event === 'running') running = `running ${e.running}/${e.maxRunning}`;
    if (e.event === 'worklist' && e.limits?.maxRunning !== undefined) running = `running ${e.limits.running ?? 0}/${e.limits.maxRunning}`;
  };
  if (io.stderr.isTTY !== true || options.dryRun) {
    return {
      onEvent: (e) => {
        warn(e);
        count(e);
        if (options.dryRun) return;
        if (e.event === 'started') printer.err(`project ${e.projectId} started job ${e.jobId}${running ? ` (${running})` : ''}`);
        // Interrupted projects are told once, at the end (what is known of each is in the table).
        if (e.event === 'outcome' && !e.fromJournal && e.outcome !== 'interrupted') printer.err(`project ${e.projectId} ${e.outcome}${e.jobId ? ` (job ${e.jobId})` : ''}`);
      },
      stop: () => undefined,
    };
  }
  const { default: cliProgress } = await import('cli-progress');
  const counts = { started: 0, delivered: 0, failed: 0, other: 0 };
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WritableStream,
      format: (_o, params) =>
        redact(
          `projects ${'█'.repeat(Math.round(params.progress * 30)).padEnd(30, '░')} ${params.value}/${params.total} done | ` +
            `${counts.started} started, ${counts.delivered} delivered, ${counts.failed} failed, ${counts.other} other${running ? ` | ${running}` : ''}`,
          printer.secrets,
        ),
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  // By project: a shared journal's run may report a project twice (claimed elsewhere, then its
  // job's outcome once a dead worker's wait is taken over).
  const outcomeOf = new Map<string, ProjectOutcome['outcome']>();
  let started = false;
  return {
    onEvent: (e) => {
      warn(e);
      count(e);
      if (e.event === 'worklist') {
        bar.start(e.worklist.length, 0);
        started = true;
      }
      if (e.event === 'started') counts.started++;
      if (e.event === 'outcome') {
        // A project's later outcome replaces its earlier one in the counts (no recount of all).
        const before = outcomeOf.get(e.projectId);
        if (before !== undefined) counts[countOf(before)]--;
        counts[countOf(e.outcome)]++;
        outcomeOf.set(e.projectId, e.outcome);
      }
      bar.update(outcomeOf.size);
    },
    stop: () => started && bar.stop(),
  };
}

/** The run's limits in words, e.g. `running 4/5 (--max-running), 120 starts a minute at most (--max-starts-per-minute)`. */
function limitsLine(limits: NonNullable<AutoLabelManyRun['limits']>, dryRun: boolean): string {
  const parts: string[] = [];
  if (limits.maxRunning !== undefined) parts.push(`running ${limits.running ?? 0}/${limits.maxRunning} across the run's workers ${dryRun ? 'now' : 'as this worker began'} (--max-running ${limits.maxRunning})`);
  if (limits.maxStartsPerMinute !== undefined) parts.push(`at most ${limits.maxStartsPerMinute} starts a minute across the run's workers (--max-starts-per-minute)`);
  return parts.join('; ');
}

function table(rows: string[][]): string[] {
  // Loops, not Math.max(...column): a spread over 150,000 rows overflows the stack.
  const widths = rows[0]!.map(() => 0);
  for (const r of rows) r.forEach((cell, c) => (widths[c] = Math.min(40, Math.max(widths[c]!, cell.length))));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd());
}

/**
 * Prints the end of a many-project run: the worklist as "the plan" (dry run) or the summary table, then counts.
 *
 * @param printer - where to print
 * @param run - what the runner returned
 * @param json - one `{"event":"summary"}` line (the events came before)
 * @param exitCode - the run's exit code, included in the JSON summary
 * @remarks The table (stdout) has one row per project: project, job, outcome, labels or errors.
 * The counts line goes to stderr, with the rerun hints that apply. The worklist's reasons name the flags
 * (`--retry-failed`), not the library's options.
 * @example
 * ```ts
 * printManySummary(printer, run, false, manyExitCode(run));
 * ```
 */
export function printManySummary(printer: Printer, run: AutoLabelManyRun, json: boolean, exitCode: number): void {
  const tally = new Map<string, number>();
  // What this worker did: a job it only waited for (another worker started it and stopped) is counted apart.
  const items = run.dryRun ? run.worklist.map((p) => p.action) : run.outcomes.map((o) => (o.takenOverFrom !== undefined ? `${o.outcome} (taken over)` : o.outcome));
  for (const k of items) tally.set(k, (tally.get(k) ?? 0) + 1);
  const counts = Object.fromEntries(tally);
  if (json) {
    printer.json({ event: 'summary', dryRun: run.dryRun, projects: items.length, counts, exitCode, ...(run.journal && { journal: run.journal }), ...(run.runTotals && { run: run.runTotals }), ...(run.limits && { limits: run.limits }) });
    return;
  }
  if (run.limits) printer.err(`labelkit: ${limitsLine(run.limits, run.dryRun)}`);
  if (run.dryRun) {
    printer.err(`labelkit: dry run, nothing was sent${run.journal ? ` and ${run.journal} was only read` : ''}. The plan:`);
    const rows = [['PROJECT', 'ACTION', 'JOB', 'WHY']].concat(run.worklist.map((p) => [p.projectId, p.action, p.jobId ?? '-', inFlagTerms(p.reason, AUTO_LABEL_OPTIONS)]));
    for (const line of table(rows)) printer.out(line);
  } else {
    const rows = run.outcomes.map((o) => [o.projectId, o.jobId ?? '-', o.outcome + (o.takenOverFrom !== undefined ? ' (taken over)' : o.fromJournal ? ' (journal)' : ''), detail(o)]);
    for (const line of table([['PROJECT', 'JOB', 'OUTCOME', 'LABELS/ERRORS']].concat(rows))) printer.out(line);
  }
  const summary = [...tally].map(([k, n]) => `${n} ${k}`).join(', ');
  printer.err(`labelkit: ${items.length} project${items.length === 1 ? '' : 's'}: ${summary}`);
  if (run.dryRun) return;
  if (run.runTotals) {
    // Once, from the journal: every worker's projects, each counted once.
    const { projects, states } = run.runTotals;
    printer.err(`labelkit: the whole run in the journal: ${projects} project${projects === 1 ? '' : 's'}: ${Object.entries(states).map(([k, n]) => `${n} ${k}`).join(', ')}`);
  }
  const stopped = run.outcomes.filter((o) => o.outcome === 'interrupted' && o.error?.code !== 'AUTH');
  if (stopped.length > 0) {
    const waiting = stopped.filter((o) => o.jobId).length;
    const why = run.interrupted ? 'the run was interrupted (Ctrl-C or SIGTERM)' : run.failure !== undefined ? 'the journal failed' : 'the run stopped';
    printer.err(`labelkit: ${why}: ${waiting} started job${waiting === 1 ? '' : 's'} not waited for to the end (they keep running on the service), ${stopped.length - waiting} project${stopped.length - waiting === 1 ? '' : 's'} not started`);
  }
  const outboxed = run.outcomes.filter((o) => o.outbox !== undefined);
  if (outboxed.length > 0) {
    const n = outboxed.length;
    printer.err(`labelkit: ${n} started job${n === 1 ? '' : 's'} the journal could not take ${n === 1 ? 'is' : 'are'} kept in the outbox ${outboxed[0]!.outbox} (on disk): the next run with the same --journal records ${n === 1 ? 'it' : 'them'} and waits for ${n === 1 ? 'its project' : 'their projects'}`);
  }
  if (tally.has('outcome-unknown')) {
    printer.err('hint: outcome-unknown projects may already have a job: look at them in the service; --retry-unknown restarts them and MAY START A SECOND JOB');
  }
  if (tally.has('failed') || tally.has('not-started') || tally.has('not-found')) printer.err('hint: --retry-failed starts failed, not-found and not-started projects again (same --journal)');
  if (run.interrupted || tally.has('interrupted') || tally.has('timed-out') || tally.has('started')) {
    printer.err(run.journal ? `hint: rerun with the same --journal ${run.journal} (and --wait) to continue` : 'hint: without --journal a rerun cannot know what this run started');
  }
}
