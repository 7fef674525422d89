import { isLabelkitError, startAutoLabel, ValidationError, waitForJobs } from 'labelkit';
import type { AutoLabelInput, ErrorCode, Job, JobOutcome, JobSnapshot, LabelingClient } from 'labelkit';
import { RUN_LIMITS, START_TIMEOUT_MS, STOP_GRACE_MS } from '../shared/constants.js';
import { untilAborted } from '../shared/onAbort.js';
import { redact } from '../shared/redact.js';
import { createMemoryJournal, replayContents, replayJournal } from './journal.js';
import type { Journal, JournalContents, JournalProjectState, JournalRecord, OtherRun, RunLimits, RunLimitSettings } from './journal.js';
import { LeaseGate, localLimits, startPacer } from './runLimits.js';
import { buildWorklist, configMismatches, projectConfig, validateManyInputs } from './worklist.js';
import type { RerunRules, WorklistEntry } from './worklist.js';
import type { Outbox } from './outbox.js';

/** How long a run whose every lease is held waits before it asks the journal again (a lease given back by this process wakes it at once). */
const LEASE_POLL_MS = 200;

/** How one project of a many-project run ended. */
export type ManyOutcomeKind =
  | 'delivered'
  | 'failed'
  | 'timed-out'
  | 'not-found'
  | 'not-started'
  | 'outcome-unknown'
  | 'started'
  | 'interrupted'
  | 'claimed-elsewhere';

/** One project's outcome. */
export interface ProjectOutcome {
  projectId: string;
  /**
   * `delivered`, `failed` (with `errors`), `timed-out`, `not-found`, `not-started` (with `error`:
   * the validation, GraphQL or HTTP error), `outcome-unknown` (the mutation may have started a job
   * whose id never arrived), `started` (with `wait: false`), `interrupted` (the run was
   * stopped first; a rerun continues), or `claimed-elsewhere` (a shared journal: another worker,
   * `worker`, claimed it first; this run sent nothing for it).
   */
  outcome: ManyOutcomeKind;
  /** With `claimed-elsewhere`: the worker that holds it, when known. */
  worker?: string;
  jobId?: string;
  /** The job as last read, when this run read it. */
  job?: Job | null;
  /** The job's errors (first line of each), for `failed`. */
  errors?: string[];
  /** Why it did not start, is unknown or was interrupted. */
  error?: { code?: ErrorCode; message: string };
  /** True when nothing was done this run: the outcome comes from the journal. */
  fromJournal: boolean;
  /** The outbox file that holds this project's start, which the journal could not take (see {@link AutoLabelManyOptions.outbox}). */
  outbox?: string;
  /**
   * A shared journal: the worker that started this project's job and stopped; this run only
   * waited for the job (its outcome is that worker's job's, counted once in the run's totals).
   */
  takenOverFrom?: string;
}

/** Events of a many-project run, in order of occurrence. */
export type ManyEvent =
  | { event: 'worklist'; worklist: WorklistEntry[]; warnings: string[]; otherRuns: OtherRun[]; limits?: RunLimitsNow }
  /** The jobs running across the run's workers changed (with `maxRunning`), as this worker last counted them. */
  | { event: 'running'; running: number; maxRunning: number }
  | { event: 'started'; projectId: string; jobId: string }
  | { event: 'progress'; projectId: string; jobId: string; status: Job['status']; progress: number }
  | ({ event: 'outcome' } & ProjectOutcome);

/** The run's limits across its workers, and (with `maxRunning`) the jobs running now. */
export interface RunLimitsNow extends RunLimitSettings {
  /** Jobs started and not yet ended across every worker of the run, now (with `maxRunning`). */
  running?: number;
}

/** Options of {@link autoLabelMany}. */
export interface AutoLabelManyOptions extends RerunRules {
  /** Jobs being started at once (by this worker). @defaultValue 4 */
  concurrency?: number;
  /**
   * Jobs started and not yet ended at once across EVERY worker of the run (1 to 100,000): each
   * start takes a lease first (a shared journal holds them, a row each, for all its workers; a
   * journal one process holds alone, in that process) and gives it back when its job ends. A
   * dead worker's lease without a job comes back once its heartbeat is overdue; one with a job
   * stays held until the worker that takes over its wait sees the job end (or the wait's
   * `timeoutMs` after its start). Needs `wait` (a job counts until it ends); the waits then poll at
   * the client's first interval (`poll.intervalMs`), without growing. Every worker of a run must give
   * the same (the first fixes it). @defaultValue no limit
   */
  maxRunning?: number;
  /**
   * Starts a minute at most across every worker of the run (1 to 1,000,000): a token bucket of a
   * second's worth of starts (at least 1), refilled by the database's clock on a shared journal.
   * Every worker of a run must give the same. @defaultValue no limit
   */
  maxStartsPerMinute?: number;
  /** Where the run remembers each step. @defaultValue a journal in memory (no memory across runs) */
  journal?: Journal;
  /**
   * Stops starting new jobs and stops waiting; a mutation already sent is given
   * `STOP_GRACE_MS` (400 ms) to answer, so that its job id is journaled, then is given up (its
   * project `outcome-unknown`): a stopped run ends within a second. Pass the same signal to
   * `openPostgresJournal`, so that its retries stop too.
   */
  signal?: AbortSignal;
  /** Told of the worklist, each start, each change of a job and each outcome. */
  onEvent?: (event: ManyEvent) => void;
  /** Wait for the jobs to end. @defaultValue true */
  wait?: boolean;
  /** How long to wait for each job, from its start. @defaultValue 600_000 */
  timeoutMs?: number;
  /**
   * How long to wait for the service's answer to each start (1,000 to 3,600,000 ms). A start
   * given up may have started a job: its project is `outcome-unknown` and is never sent again,
   * so the wait is long (a slow answer costs only the wait). @defaultValue 300_000 (5 minutes)
   */
  startTimeoutMs?: number;
  /** As for `waitForJob`. @defaultValue 10_000 */
  notFoundGraceMs?: number;
  /** Accept a journal written by another run configuration. @defaultValue false */
  force?: boolean;
  /** As for `startAutoLabel`. @defaultValue false */
  allowInsecureEndpoint?: boolean;
  /** Only make the worklist: read the journal, send nothing, write nothing. @defaultValue false */
  dryRun?: boolean;
  /**
   * Where a start goes that the journal could not take (it failed after the job had started):
   * `openOutbox(path, name)` from `labelkit-tools/bulk` (Node only). `recordOutbox` (or the CLI's
   * next run) writes it to the journal, so the project's job is waited for instead of the project
   * being reported unknown. Without it such a project is `outcome-unknown`.
   */
  outbox?: Outbox;
}

/** What {@link autoLabelMany} resolves to. */
export interface AutoLabelManyResult {
  /** What was (or, with `dryRun`, would be) done with each project. */
  worklist: WorklistEntry[];
  /** One per input, in order (empty with `dryRun`). */
  outcomes: ProjectOutcome[];
  /** The journal's warnings (e.g. an incomplete last line after a crash). */
  warnings: string[];
  /**
   * Other runs of the same journal database (another run name) that have already claimed some
   * of these projects: this run starts a second job for each of those. Empty for a journal that
   * holds one run (memory, file).
   */
  otherRuns: OtherRun[];
  /**
   * A shared journal: the whole run's projects by their state in the journal as this worker
   * ended (every worker's, each project once), read once at the end. Absent for a journal one
   * run holds alone, a dry run, a stopped run, or when the read failed.
   */
  runTotals?: { projects: number; states: Partial<Record<JournalProjectState['state'], number>> };
  /** The run's limits as the journal holds them, with the jobs running as the run began (a dry run: now). Absent without limits. */
  limits?: RunLimitsNow;
}

/** A job a run waits for: its project, and the other worker that started it (when taken over). */
interface WaitEntry {
  index: number;
  projectId: string;
  jobId: string;
  from?: string;
}

/** One start slot of a run (of `concurrency`): the `started` record of its last project, which its next claim follows. */
interface StartSlot {
  last?: JournalRecord;
}

/** What a run needs of the client: its `request`, through `startAutoLabel` and `waitForJob`. */
type ManyRunClient = Pick<LabelingClient, 'request'>;

const now = () => new Date().toISOString();
const firstLines = (job: Job) => job.errors.slice(0, 20).map((e) => e.stack.split('\n')[0] ?? '');

function errorOf(error: unknown, secrets: string[]): { code?: ErrorCode; message: string } {
  const message = redact(error instanceof Error ? error.message : String(error), secrets);
  return isLabelkitError(error) ? { code: error.code, message } : { message };
}

function outcomeFromJournal(p: WorklistEntry, errors: string[] | undefined): ProjectOutcome {
  const base = { projectId: p.projectId, fromJournal: true, ...(p.jobId && { jobId: p.jobId }) };
  if (p.heldBy !== undefined) return { ...base, outcome: 'claimed-elsewhere', worker: p.heldBy, error: { message: p.reason } };
  switch (p.journalState) {
    case 'delivered':
      return { ...base, outcome: 'delivered' };
    case 'intent':
    case 'unknown':
      return { ...base, outcome: 'outcome-unknown', error: { message: errors?.[0] ?? 'the run stopped after deciding to start this project: a job may have started' } };
    case 'not-started':
      return { ...base, outcome: 'not-started', error: { message: errors?.[0] ?? 'not started' } };
    default:
      return { ...base, outcome: p.journalState as 'failed' | 'not-found', ...(errors && { errors }) };
  }
}

/**
 * Starts auto-labeling of many projects with one client, each job exactly once, and waits for all
 * of them.
 *
 * @param client - a client from `createLabelingClient` (its `url` is recorded in the journal)
 * @param inputs - one auto-labeling input per project
 * @param options - concurrency, journal, rerun rules, signal, onEvent; see {@link AutoLabelManyOptions}
 * @returns the worklist and one outcome per input, in order
 * @throws `ValidationError` (code `VALIDATION`) listing every problem of every input, a
 * journal from another configuration, or a client without its `url`; nothing is sent then
 * @remarks A function of `labelkit-tools/bulk` above the client, not a method of it: it uses the
 * client's public methods only, so an app that never runs many projects carries none of it. Waiting goes through the client's
 * shared poller (one `getJobs` per interval for the whole run); see `runJournaledJobs` for
 * the journal's rules.
 * @example
 * ```ts
 * import { createLabelingClient } from 'labelkit';
 * import { autoLabelMany, createMemoryJournal } from 'labelkit-tools/bulk';
 * const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN });
 * const { outcomes } = await autoLabelMany(client, inputs, { journal: createMemoryJournal(), concurrency: 4 });
 * ```
 */
export function autoLabelMany(client: LabelingClient, inputs: AutoLabelInput[], options?: AutoLabelManyOptions): Promise<AutoLabelManyResult> {
  const url: unknown = (client as Partial<LabelingClient> | null | undefined)?.url;
  if (typeof url !== 'string' || url === '') {
    const problem = { path: 'client.url', message: 'must be the service URL of a client made by createLabelingClient' };
    return Promise.reject(new ValidationError([problem], { operationName: 'AutoLabelTokenBasedProjectMutation' }));
  }
  return runJournaledJobs(client, url, inputs, options);
}

/**
 * The problems of a run's limits (`maxRunning`, `maxStartsPerMinute`): integers within
 * {@link RUN_LIMITS}; `maxRunning` only with `wait` (a job counts until its end is seen).
 */
function limitProblems(options: AutoLabelManyOptions): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const key of ['maxRunning', 'maxStartsPerMinute'] as const) {
    const v = options[key];
    const { min, max } = RUN_LIMITS[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= min && v <= max)) problems.push({ path: `options.${key}`, message: `must be an integer from ${min} to ${max}` });
  }
  if (options.maxRunning !== undefined && options.wait === false && !options.dryRun) {
    problems.push({ path: 'options.maxRunning', message: 'needs wait: a job holds its lease until the run sees it end' });
  }
  return problems;
}

/** The ids of the workers alive in a shared journal (none for a journal one run holds alone). */
const liveWorkers = (contents: JournalContents) => new Set(contents.shared?.workers.filter((w) => w.alive).map((w) => w.id) ?? []);

/**
 * Starts one job per input with bounded concurrency, journals each step, then waits for all the
 * jobs through the client's shared poller (one `getJobs` per interval for the whole run).
 *
 * @param client - the labeling client (through `startAutoLabel` and `waitForJob`, which share its job poll)
 * @param url - the service's URL, recorded in the journal to refuse another configuration's journal
 * @param inputs - one auto-labeling input per project
 * @param options - see {@link AutoLabelManyOptions}
 * @returns the worklist and one outcome per input
 * @throws `ValidationError` before anything is sent: every problem of every input (with its
 * index and project), a journal from another configuration (unless `force`), a corrupt journal;
 * the journal's own error when it fails mid-run (after every project got an outcome event saying
 * what is known, and the journal was closed)
 * @remarks Per project: its intent is claimed (`journal.claim`: written and durable only when no
 * other intent of the same attempt is there) before the mutation is sent, and a lost claim sends
 * nothing; then `started` with the job id, `unknown` when the mutation's outcome is unknown, or
 * the outcome `not-started`; then the final outcome. A mutation is never retried. Aborting
 * `signal` stops starting new jobs and stops waiting; mutations already sent finish and are
 * journaled, so a rerun with the same journal continues. On a shared journal (several workers)
 * the run starts at a random place in the list, so that workers meet seldom, and while it waits
 * it reads the journal again every heartbeat to take over waiting for the jobs of workers that
 * died (never starting anything again).
 * @example
 * ```ts
 * // Usually called as autoLabelMany(client, inputs, options), which passes the client's URL.
 * const { outcomes } = await runJournaledJobs(client, url, inputs, { journal: createMemoryJournal() });
 * ```
 */
async function runJournaledJobs(
  client: ManyRunClient,
  url: string,
  inputs: AutoLabelInput[],
  options: AutoLabelManyOptions = {},
): Promise<AutoLabelManyResult> {
  const allowInsecureEndpoint = options.allowInsecureEndpoint ?? false;
  const problems = validateManyInputs(inputs, { allowInsecureEndpoint, concurrency: options.concurrency });
  const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS.default;
  if (!(Number.isInteger(startTimeoutMs) && startTimeoutMs >= START_TIMEOUT_MS.min && startTimeoutMs <= START_TIMEOUT_MS.max)) {
    problems.push({ path: 'options.startTimeoutMs', message: `must be an integer from ${START_TIMEOUT_MS.min} to ${START_TIMEOUT_MS.max} (ms)` });
  }
  problems.push(...limitProblems(options));
  if (problems.length > 0) throw new ValidationError(problems, { operationName: 'AutoLabelTokenBasedProjectMutation' });
  const wanted: RunLimitSettings = {
    ...(options.maxRunning !== undefined && { maxRunning: options.maxRunning }),
    ...(options.maxStartsPerMinute !== undefined && { maxStartsPerMinute: options.maxStartsPerMinute }),
  };
  const journal = options.journal ?? createMemoryJournal();
  const contents = await journal.open({ replay: true });
  try {
    // Asked before the worklist is built, so that a database answers while it is (a 100,000-project
    // run's question takes it a good half second); its failure is told where it is awaited.
    const otherRunsAsked = journal.otherRuns?.(inputs.map((i) => i.projectId));
    otherRunsAsked?.catch(() => undefined);
    // One turn of the event loop first: a driver sends its statement there (pg's pool hands out a connection on the next tick).
    if (otherRunsAsked) await new Promise((resolve) => setTimeout(resolve, 0));
    const replay = replayContents(contents);
    const mismatches = configMismatches(url, replay, inputs);
    if (mismatches.length > 0 && !options.force) {
      const hint = { path: 'journal', message: 'use another journal file, or force to use this one anyway' };
      throw new ValidationError([...mismatches, hint], { operationName: 'AutoLabelTokenBasedProjectMutation' });
    }
    const alive = liveWorkers(contents);
    const me = contents.shared?.worker;
    const worklist = buildWorklist(inputs, replay.projects, options, (w) => w !== me && alive.has(w));
    const otherRuns = (await otherRunsAsked) ?? [];
    // A new or mistyped run name over projects other runs started: a second job each unless asked
    // for. A run that has claimed projects already was begun that way on purpose: its workers join it.
    if (otherRuns.length > 0 && !options.force && !options.dryRun && replay.projects.size === 0) {
      const claimed = otherRuns.map((r) => `${r.run} (${r.projects} of ${inputs.length} projects)`).join(', ');
      const problem = {
        path: 'journalName',
        message: `other runs of this journal database already started some of these projects: ${claimed}; this run would start a second job for each: to continue a run, give its name; force to start a second job anyway`,
      };
      throw new ValidationError([problem], { operationName: 'AutoLabelTokenBasedProjectMutation' });
    }
    // The run's limits: a shared journal holds them for every worker (the first fixes them); a
    // journal one process holds alone, this process.
    const limits: RunLimits | undefined = journal.limits ?? (wanted.maxRunning !== undefined || wanted.maxStartsPerMinute !== undefined ? localLimits(wanted) : undefined);
    const held = limits ? await limits.setup(wanted) : {};
    const differs = (['maxRunning', 'maxStartsPerMinute'] as const).filter((k) => held[k] !== wanted[k]);
    if (differs.length > 0) {
      const words = (v: number | undefined) => (v === undefined ? 'none' : String(v));
      const problems = differs.map((k) => ({
        path: `options.${k}`,
        message: `the run holds ${k} ${words(held[k])} (set by its first worker) and this worker gives ${words(wanted[k])}: give the same on every worker of the run, or use another run name`,
      }));
      throw new ValidationError(problems, { operationName: 'AutoLabelTokenBasedProjectMutation' });
    }
    const runLimits: RunLimitsNow | undefined =
      limits && (held.maxRunning !== undefined || held.maxStartsPerMinute !== undefined)
        ? { ...held, ...(held.maxRunning !== undefined && { running: await limits.running() }) }
        : undefined;
    const emit = (event: ManyEvent) => options.onEvent?.(event);
    emit({ event: 'worklist', worklist, warnings: contents.warnings, otherRuns, ...(runLimits && { limits: runLimits }) });
    if (options.dryRun) return { worklist, outcomes: [], warnings: contents.warnings, otherRuns, ...(runLimits && { limits: runLimits }) };

    const secrets = inputs.map((i) => i.targetAPI.secretKey);
    const outcomes: (ProjectOutcome | undefined)[] = new Array(inputs.length);
    const settle = (index: number, outcome: ProjectOutcome) => {
      outcomes[index] = outcome;
      emit({ event: 'outcome', ...outcome });
    };
    // Each step awaits its own record, so a project's records are durable in order; records of
    // different projects may be flushed together. After a failed append nothing more is started
    // and no wait goes on (no outcome could be recorded): every project gets an outcome saying
    // what is known, the journal is closed, and the run rejects with the journal's error. Every
    // promise below has its handler where it is made: no failure is left unhandled.
    let journalError: { error: unknown } | undefined;
    const journalFailed = (error: unknown) => {
      if (journalError) return;
      journalError = { error };
      abortWaits();
    };
    // Waits begin together once every start is done: the shared poller then asks about all the
    // jobs in one getJobs per interval (a wait added alone is asked about at once, which during
    // a long start phase would mean one extra request per start).
    const toWait: WaitEntry[] = [];
    const waited = new Set<string>();
    /** The jobs this run started, by project (what a journal failure's summary can still tell). */
    const startedJobs = new Map<string, string>();
    /** The `started` records being written (each begins its project's wait once durable; never rejects). */
    const startWrites: Promise<void>[] = [];
    /** With a queue: its list, the projects this worker would start, and those it took. */
    let queueList: string | undefined;
    const startEntries = new Map<string, WorklistEntry>();
    for (const p of worklist) if (p.action === 'start') startEntries.set(p.projectId, p);
    const handled = new Set<string>();
    /** Each project's state in the journal, as last read (read again while waiting, on a shared journal). */
    let state = replay.projects;
    /** Whether the start phase has ended (the take-over of dead workers' waits beside it then starts and waits too). */
    let startsDone = false;
    const settleLost = (p: WorklistEntry, worker: string | undefined) => {
      const message = `${worker ? `the worker ${worker}` : 'another worker'} claimed it first (attempt ${p.attempt ?? 1}): not sent by this run`;
      settle(p.index, { projectId: p.projectId, outcome: 'claimed-elsewhere', ...(worker && { worker }), error: { message }, fromJournal: false });
    };
    const wait = (index: number, projectId: string, jobId: string, earlier: boolean, from?: string) => {
      waited.add(projectId);
      if (options.wait === false) settle(index, { projectId, outcome: 'started', jobId, fromJournal: earlier, ...(from !== undefined && { takenOverFrom: from }) });
      else if (gate) beginWait([{ index, projectId, jobId, ...(from !== undefined && { from }) }]);
      else toWait.push({ index, projectId, jobId, ...(from !== undefined && { from }) });
    };
    /** The other worker of a shared journal whose job a project's wait is (this run only waits for it). */
    const startedBy = (projectId: string): string | undefined => {
      const worker = contents.shared ? replay.projects.get(projectId)?.worker : undefined;
      return worker !== undefined && worker !== me ? worker : undefined;
    };
    // One listener on the caller's signal, one controller per wait: a thousand waits do not
    // pile a thousand listeners onto one signal.
    const waitControllers = new Set<AbortController>();
    // A start on its way when the run is stopped gets STOP_GRACE_MS to answer (its job id is then
    // journaled), then is given up: the worker ends within a second, the project is unknown.
    const givenUp = new AbortController();
    let giveUpTimer: ReturnType<typeof setTimeout> | undefined;
    const abortWaits = () => {
      waitControllers.forEach((c) => c.abort());
      if (options.signal?.aborted) giveUpTimer ??= setTimeout(() => givenUp.abort(), STOP_GRACE_MS);
    };
    options.signal?.addEventListener('abort', abortWaits, { once: true });
    // --max-running: a lease before each start, given back when its job ends (told as `running`
    // events when the count changes); --max-starts-per-minute: a token before each start.
    const maxRunning = held.maxRunning;
    const holdMs = options.timeoutMs ?? 600_000;
    let lastCount: number | undefined;
    const gate =
      limits && maxRunning !== undefined
        ? new LeaseGate(limits, LEASE_POLL_MS, options.signal, (running) => {
            if (running === lastCount) return;
            lastCount = running;
            emit({ event: 'running', running, maxRunning });
          })
        : undefined;
    const pace = limits && held.maxStartsPerMinute !== undefined ? startPacer(limits, options.signal) : undefined;
    /** Gives a project's lease back (a journal failure is noted, never thrown). */
    const release = (projectId: string): Promise<void> => (gate ? gate.release(projectId).catch(journalFailed) : Promise.resolve());
    /** The waits begun one job at a time (with a lease each: a lease comes back only when its job's wait sees it end). */
    const liveWaits = new Set<Promise<void>>();
    const beginWait = (entries: WaitEntry[]) => {
      const p: Promise<void> = waitGroup(entries).finally(() => liveWaits.delete(p));
      liveWaits.add(p);
    };
    const allWaits = async () => {
      while (liveWaits.size > 0) await Promise.all(liveWaits);
    };
    try {
      try {
        await journal.append({ type: 'run', at: now(), url });
      } catch (error) {
        journalFailed(error);
      }
      if (!journalError) await runProjects();
    } finally {
      options.signal?.removeEventListener('abort', abortWaits);
      clearTimeout(giveUpTimer);
    }
    if (journalError) {
      // What is known of each project the run did not finish: its job, if it has one.
      for (const p of worklist) {
        if (outcomes[p.index]) continue;
        const jobId = startedJobs.get(p.projectId) ?? p.jobId;
        const message = jobId ? `job ${jobId} started; not waited for to the end: the journal failed` : 'not started: the journal failed first';
        settle(p.index, { projectId: p.projectId, outcome: 'interrupted', ...(jobId && { jobId }), error: { message }, fromJournal: false });
      }
      throw journalError.error;
    }
    const runTotals = await totals();
    return { worklist, outcomes: outcomes as ProjectOutcome[], warnings: contents.warnings, otherRuns, ...(runTotals && { runTotals }), ...(runLimits && { limits: runLimits }) };

    /** The whole run's totals from a shared journal, read once at the end (see {@link AutoLabelManyResult.runTotals}). */
    async function totals(): Promise<AutoLabelManyResult['runTotals']> {
      if (!contents.shared || !journal.refresh || options.signal?.aborted) return undefined;
      const fresh = await untilAborted(journal.refresh(), options.signal, 0).catch(() => undefined);
      if (!fresh) return undefined;
      const states: Partial<Record<JournalProjectState['state'], number>> = {};
      let projects = 0;
      // A journal read again in parts answers what was written since: on top of the states read so far.
      state = fresh.delta ? replayJournal(fresh.records, state).projects : replayJournal(fresh.records).projects;
      for (const s of state.values()) {
        projects++;
        states[s.state] = (states[s.state] ?? 0) + 1;
      }
      return { projects, states };
    }

    /** The starts, then the waits. Rejects never: a journal failure is noted in journalError. */
    async function runProjects(): Promise<void> {
      for (const p of worklist) if (p.action === 'skip') settle(p.index, outcomeFromJournal(p, replay.projects.get(p.projectId)?.errors));
      for (const p of worklist) if (p.action === 'wait') wait(p.index, p.projectId, p.jobId!, true, startedBy(p.projectId));
      if (gate) {
        // A rerun waits for jobs an earlier worker started: their leases are this worker's now.
        const waits = worklist.filter((p) => p.action === 'wait').map((p) => p.projectId);
        if (waits.length > 0) await limits!.adopt(waits, holdMs).catch(journalFailed);
      }
      const starts = worklist.filter((p) => p.action === 'start');
      const takesOver = contents.shared !== undefined && journal.refresh !== undefined && options.wait !== false;
      // Under --max-running the take-over of dead workers' waits runs beside the starts: a dead
      // worker's lease whose job started comes back only when a live worker sees that job end, and a
      // starter waits for a lease; had the dead worker held all K, the starters would wait for ever
      // for a take-over that began only after them.
      let ownWaits: (own: Promise<unknown>) => void = () => undefined;
      const takingOver = gate && takesOver ? takeOverDeadWorkers(new Promise<unknown>((resolve) => (ownWaits = resolve))) : undefined;
      if (contents.shared && journal.queue) {
        // The run's queue in the journal: each worker takes the next projects nobody has taken.
        try {
          queueList = await journal.queue.load(
            inputs.map((i) => i.projectId),
            starts.map((p) => ({ projectId: p.projectId, attempt: p.attempt ?? 1 })),
          );
        } catch (error) {
          journalFailed(error);
        }
        if (!journalError) await takeAndStart();
      } else {
        await startFromList(starts);
      }
      // A `started` record is written while the next project starts; its wait begins once it is durable.
      await Promise.all(startWrites);
      startsDone = true;
      if (journalError) {
        ownWaits(Promise.resolve());
        await takingOver;
        return;
      }
      beginWait(toWait.splice(0));
      const own = allWaits();
      ownWaits(own);
      await (takingOver ?? (takesOver ? takeOverDeadWorkers(own) : own));
      // Waits begun by starts made while taking over (each with its lease).
      await allWaits();
      if (queueList !== undefined && !journalError) await settleTakenElsewhere();
    }

    /**
     * Takes projects from the run's queue (a batch at a time, one round trip each) and starts
     * them, `concurrency` at once, until the queue has none left for this worker. A project is
     * started only as this worker's own worklist says (the same attempt): the claim of its intent
     * still decides, as on every journal.
     */
    async function takeAndStart(): Promise<void> {
      const list = queueList!;
      const concurrency = options.concurrency ?? 4;
      // Under --max-running a worker may wait long for a lease (one that sees its jobs end hands
      // their leases to its own next starts): it takes no more projects than it has starters, so
      // that no project waits in a blocked worker's hands while others run (they were all left for
      // the end of the run, started one lease at a time).
      const batch = gate ? concurrency : Math.min(4 * concurrency, 64);
      const ready: WorklistEntry[] = [];
      let empty = false;
      let taking: Promise<void> | undefined;
      const refill = () =>
        (taking ??= (async () => {
          try {
            const got = await journal.queue!.take(list, batch);
            if (got.length === 0) empty = true;
            for (const q of got) {
              const p = startEntries.get(q.projectId);
              if (p && (p.attempt ?? 1) === q.attempt && !handled.has(p.projectId)) ready.push(p);
            }
          } catch (error) {
            journalFailed(error);
          }
        })().finally(() => (taking = undefined)));
      const worker = async () => {
        const slot: StartSlot = {};
        for (;;) {
          if (journalError || options.signal?.aborted) return;
          const p = ready.shift();
          if (!p) {
            if (empty) return;
            await refill();
            continue;
          }
          // The next batch is asked for while the slots still have projects to start: no slot
          // waits for a take's round trip while the queue has projects.
          if (ready.length < concurrency && !empty) void refill();
          handled.add(p.projectId);
          await startOne(p, slot, settleLost, undefined);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      // A take asked for ahead and still on its way ends before the run goes on (and closes its journal).
      await taking;
    }

    /**
     * At the end of a run on the queue: the projects of this worker's list that other workers
     * took are told as `claimed-elsewhere` (with the worker of their intent, or the one that took it from the queue), and
     * those nobody took because the run was stopped as `interrupted`.
     */
    async function settleTakenElsewhere(): Promise<void> {
      const left = Array.from(startEntries.values()).filter((p) => !outcomes[p.index]);
      if (left.length === 0) return;
      const takenBy = (p: WorklistEntry) => {
        const holder = state.get(p.projectId);
        return holder !== undefined && holder.attempts >= (p.attempt ?? 1) ? holder : undefined;
      };
      // A worker writes its intent just after it takes a project from the queue: who took those
      // not claimed yet is in the queue's rows, asked before the journal is read again (a claim
      // made between the two is in what is read).
      const queued = await untilAborted(
        journal.queue!.takers(left.map((p) => ({ projectId: p.projectId, attempt: p.attempt ?? 1 }))),
        options.signal,
        0,
      ).catch(() => undefined);
      if (journal.refresh) {
        const fresh = await untilAborted(journal.refresh(), options.signal, 0).catch(() => undefined);
        if (fresh) state = fresh.delta ? replayJournal(fresh.records, state).projects : replayJournal(fresh.records).projects;
      }
      for (const p of left) {
        const worker = takenBy(p)?.worker ?? queued?.get(p.projectId);
        if (worker === undefined && options.signal?.aborted) {
          settle(p.index, { projectId: p.projectId, outcome: 'interrupted', error: { code: 'ABORTED', message: 'not started: the run was interrupted first' }, fromJournal: false });
        } else settleLost(p, worker);
      }
    }

    /** Starts the projects of a list in order (a shared journal without a queue: from a random place). */
    async function startFromList(starts: WorklistEntry[]): Promise<void> {
      // The projects to start, taken from `next` on (no shift: at 100,000 projects each shift moves the whole rest).
      let queue = starts;
      let next = 0;
      // Workers sharing a journal begin at different places in the same list: each claims mostly
      // projects nobody else is after, and no worker waits for another. A lost claim means this
      // worker ran into another's part: it drops every project claimed meanwhile (one request) and
      // goes on from another random place. (Slices and concat, never push(...): no spread of a
      // long list overflows the stack.)
      const scatter = () => {
        const rest = queue.slice(next);
        const cut = Math.floor(Math.random() * rest.length);
        queue = rest.slice(cut).concat(rest.slice(0, cut));
        next = 0;
      };
      if (contents.shared) scatter();
      let pruning: Promise<void> | undefined;
      const prune = () =>
        (pruning ??= (async () => {
          const held = await journal.claims?.().catch(() => undefined);
          if (held) {
            const rest = queue.slice(next);
            queue = rest.filter((p) => (held.get(p.projectId)?.attempt ?? 0) < (p.attempt ?? 1));
            next = 0;
            for (const p of rest) {
              const claim = held.get(p.projectId);
              if (claim && claim.attempt >= (p.attempt ?? 1)) settleLost(p, claim.worker);
            }
          }
          scatter();
        })().finally(() => (pruning = undefined)));
      const worker = async () => {
        const slot: StartSlot = {};
        for (let p = queue[next++]; p; p = queue[next++]) {
          if (journalError) return;
          if (options.signal?.aborted) {
            settle(p.index, { projectId: p.projectId, outcome: 'interrupted', error: { code: 'ABORTED', message: 'not started: the run was interrupted first' }, fromJournal: false });
            continue;
          }
          await startOne(p, slot, settleLost, contents.shared ? prune : undefined);
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, Math.max(queue.length - next, 1)) }, worker));
    }

    /**
     * Claims one project, starts its job and journals what happened. Rejects never: a failed
     * record settles the project with what is known and notes the journal's failure.
     */
    async function startOne(p: WorklistEntry, slot: StartSlot, settleLost: (p: WorklistEntry, worker: string | undefined) => void, prune: (() => Promise<void>) | undefined): Promise<void> {
      const input = inputs[p.index]!;
      // The run's limits first: a lease (--max-running), then a start token (--max-starts-per-minute).
      let leased = false;
      try {
        if (gate) leased = await gate.acquire(p.projectId);
        const go = (!gate || leased) && (!pace || (await pace()));
        if (!go) {
          if (leased) await release(p.projectId);
          settle(p.index, { projectId: p.projectId, outcome: 'interrupted', error: { code: 'ABORTED', message: 'not started: the run was interrupted first' }, fromJournal: false });
          return;
        }
      } catch (error) {
        if (leased) void release(p.projectId);
        return journalFailed(error); // nothing sent
      }
      let claim;
      try {
        // Durable with the slot's `started` record of its last project (at most one project per slot
        // is then without its record after a kill), not with the other slots' records.
        claim = await journal.claim(
          { type: 'intent', at: now(), projectId: p.projectId, attempt: p.attempt ?? 1, config: projectConfig(input), ...(me !== undefined && { worker: me }) },
          { after: slot.last ? [slot.last] : [] },
        );
      } catch (error) {
        if (leased) void release(p.projectId);
        return journalFailed(error); // nothing sent: the project is settled as not started
      }
      if (!claim.won) {
        if (leased) await release(p.projectId);
        settleLost(p, claim.holder);
        if (prune) await prune();
        return;
      }
      let job: JobSnapshot;
      try {
        // Not given the run's signal: a mutation on its way is let finish, so that its job id is
        // journaled, for STOP_GRACE_MS after a stop.
        job = await startAutoLabel(client, input, { allowInsecureEndpoint, signal: givenUp.signal, timeoutMs: startTimeoutMs });
      } catch (error) {
        const unknown = isLabelkitError(error) && 'mutationOutcomeUnknown' in error && error.mutationOutcomeUnknown;
        const e = givenUp.signal.aborted && isLabelkitError(error) && error.code === 'ABORTED'
          ? { code: 'ABORTED' as const, message: 'the run was stopped before the service answered its start: a job may have started' }
          : unknown && isLabelkitError(error) && error.code === 'TIMEOUT'
            ? { code: 'TIMEOUT' as const, message: `no answer to its start within ${startTimeoutMs / 1000}s (startTimeoutMs): a job may have started` }
            : errorOf(error, secrets);
        try {
          if (unknown) await journal.append({ type: 'unknown', at: now(), projectId: p.projectId, error: e.message });
          else await journal.append({ type: 'outcome', at: now(), projectId: p.projectId, outcome: 'not-started', errors: [e.message] });
        } catch (appendError) {
          journalFailed(appendError);
        }
        // No job to count (or none known: an unknown start is never waited for, so its lease is not held for good).
        if (leased) await release(p.projectId);
        settle(p.index, { projectId: p.projectId, outcome: unknown ? 'outcome-unknown' : 'not-started', error: e, fromJournal: false });
        return;
      }
      startedJobs.set(p.projectId, job.id);
      // The lease is the job's now: held until its end is seen, whoever waits for it.
      // (Awaited with the starts' records, before the run ends and closes the journal.)
      if (leased) startWrites.push(limits!.started(p.projectId, job.id, holdMs).catch(journalFailed));
      emit({ event: 'started', projectId: p.projectId, jobId: job.id });
      const started = { type: 'started' as const, at: now(), projectId: p.projectId, jobId: job.id };
      slot.last = started;
      // Not awaited here: the next project starts while this record is written (with others, in
      // one statement on a database journal). The job's wait begins once it is durable.
      startWrites.push(
        journal.append(started).then(
          () => wait(p.index, p.projectId, job.id, false),
          async (error: unknown) => {
            journalFailed(error);
            // Its job is known: kept on local disk for the next run to record, the project is waited for then, not unknown.
            const kept = options.outbox ? await options.outbox.add([{ ...started, attempt: p.attempt ?? 1 }]).then(() => true, () => false) : false;
            const message = kept
              ? `job ${job.id} started; the journal failed before it was recorded: kept in the outbox ${options.outbox!.path}`
              : `job ${job.id} started, but the journal failed before it was recorded: a rerun reports this project unknown`;
            settle(p.index, { projectId: p.projectId, outcome: kept ? 'interrupted' : 'outcome-unknown', jobId: job.id, error: { message }, fromJournal: false, ...(kept && { outbox: options.outbox!.path }) });
          },
        ),
      );
    }

    /**
     * Waits for a group of jobs with one registration (the client's shared poll asks about them
     * in chunks, one round per interval), and journals each outcome as its job ends. Rejects
     * never (see startOne).
     */
    async function waitGroup(entries: readonly WaitEntry[]): Promise<void> {
      if (journalError || entries.length === 0) return; // settled with what is known at the end
      const byJob = new Map<string, WaitEntry>();
      for (const e of entries) byJob.set(e.jobId, e);
      const ended = new Set<string>();
      const appends: Promise<void>[] = [];
      const finish = (e: WaitEntry, result: JobOutcome) => {
        if (ended.has(e.jobId)) return;
        ended.add(e.jobId);
        const errors = result.outcome === 'failed' ? firstLines(result.job).map((line) => redact(line, secrets)) : undefined;
        // Its lease goes at once to this worker's next start, or back to the run (a job that timed
        // out is no longer waited for: its lease too).
        if (gate) appends.push(gate.pass(e.projectId).catch(journalFailed));
        appends.push(
          journal.append({ type: 'outcome', at: now(), projectId: e.projectId, outcome: result.outcome, jobId: e.jobId, ...(errors && { errors }) }).catch(journalFailed),
        );
        // The job's end is known either way; the journal may still say `started` (a rerun waits again).
        settle(e.index, { projectId: e.projectId, outcome: result.outcome, jobId: e.jobId, job: result.job, ...(errors && { errors }), fromJournal: false, ...(e.from !== undefined && { takenOverFrom: e.from }) });
      };
      const controller = new AbortController();
      if (options.signal?.aborted) controller.abort();
      waitControllers.add(controller);
      try {
        const jobIds = Array.from(byJob.keys());
        const results = await waitForJobs(client, jobIds, {
          ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
          ...(options.notFoundGraceMs !== undefined && { notFoundGraceMs: options.notFoundGraceMs }),
          // A job that holds a lease keeps one of the run's K slots until its end is seen: its wait
          // keeps the poll at the first interval (the client's `poll.intervalMs`, the CLI's
          // --interval) instead of letting it grow while nothing changes (a job's end seen up to
          // 5× the interval late left its slot empty that long).
          ...(gate && { maxIntervalMs: 1 }),
          signal: controller.signal,
          // A job that ends is journaled and told at once, not when the whole group has ended.
          onProgress: (job) => {
            const e = byJob.get(job.id);
            if (!e || journalError) return;
            emit({ event: 'progress', projectId: e.projectId, jobId: e.jobId, status: job.status, progress: job.progress });
            if (job.status === 'DELIVERED') finish(e, { outcome: 'delivered', jobId: job.id, job });
            else if (job.status === 'FAILED') finish(e, { outcome: 'failed', jobId: job.id, job, errors: job.errors });
          },
        });
        results.forEach((result, i) => !journalError && finish(byJob.get(jobIds[i]!)!, result));
      } catch (error) {
        if (!journalError) {
          // Stopped (Ctrl-C) or a non-transient failure (auth): the journal still says `started`.
          const stopped = options.signal?.aborted === true;
          for (const e of entries) {
            if (ended.has(e.jobId)) continue;
            const why = stopped ? { code: 'ABORTED' as const, message: `job ${e.jobId} started; the run was interrupted while waiting for it (it keeps running on the service)` } : errorOf(error, secrets);
            settle(e.index, { projectId: e.projectId, outcome: 'interrupted', jobId: e.jobId, error: why, fromJournal: false });
          }
        }
      } finally {
        waitControllers.delete(controller);
      }
      await Promise.all(appends);
    }

    /**
     * While this run waits for its own jobs, and once more after: every heartbeat, reads the
     * journal again and waits for the started jobs (of this run's projects) of workers that died.
     * Waiting is only reading: a worker taken for dead that still runs makes two readers of one
     * job, never a second job. `own` and every adopted wait never reject (see waitGroup).
     */
    async function takeOverDeadWorkers(own: Promise<unknown>): Promise<void> {
      const everyMs = contents.shared!.heartbeatMs;
      const indexOf = new Map(inputs.map((input, index) => [input.projectId, index]));
      const adopted: Promise<void>[] = [];
      const givenBack = new Set<string>();
      const gaveBack: Promise<void>[] = [];
      let ownDone = false;
      const ownEnded = own.then(() => (ownDone = true));
      /** Reads the journal again and takes over the waits of dead workers' started jobs (their leases too); how many it took. */
      const adoptDeadWaits = async (): Promise<number> => {
        const fresh = await untilAborted(journal.refresh!(), options.signal, 0).catch(() => undefined);
        const found: WaitEntry[] = [];
        if (fresh) {
          const live = liveWorkers(fresh);
          // A journal read again in parts (only what was written since) continues the states read so far.
          state = fresh.delta ? replayJournal(fresh.records, state).projects : replayJournal(fresh.records).projects;
          for (const [projectId, s] of state) {
            const index = indexOf.get(projectId);
            if (index === undefined || waited.has(projectId)) continue;
            if (s.worker === me || (s.worker !== undefined && live.has(s.worker))) continue;
            // A dead worker's start whose job was never recorded is never waited for: its lease (it may hold one with the job's id) comes back.
            if (gate && (s.state === 'intent' || s.state === 'unknown') && !givenBack.has(projectId)) {
              givenBack.add(projectId);
              gaveBack.push(release(projectId));
            }
            if (s.state !== 'started' || !s.jobId) continue;
            waited.add(projectId);
            found.push({ index, projectId, jobId: s.jobId, ...(s.worker !== undefined && { from: s.worker }) });
          }
        }
        if (found.length > 0) {
          // Their leases move to this worker, which gives each back when it sees the job end.
          if (gate) await limits!.adopt(found.map((f) => f.projectId), holdMs).catch(journalFailed);
          adopted.push(waitGroup(found));
        }
        return found.length;
      };
      for (;;) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([ownEnded, new Promise((r) => (timer = setTimeout(r, everyMs)))]);
        clearTimeout(timer);
        if (options.signal?.aborted || journalError) break;
        // Beside the starts (under --max-running) only dead workers' waits are taken over here:
        // this worker's own starts and their waits are the start phase's until it ends.
        if (!startsDone) {
          await adoptDeadWaits();
          continue;
        }
        // Projects a dead worker took from the queue and never claimed: started here now.
        if (queueList !== undefined) {
          await takeAndStart();
          await Promise.all(startWrites);
          if (journalError || options.signal?.aborted) break;
        }
        const more = toWait.splice(0);
        if (more.length > 0) adopted.push(waitGroup(more));
        const found = await adoptDeadWaits();
        if (ownDone && found === 0 && more.length === 0) break;
        if (ownDone) await Promise.all(adopted);
      }
      await Promise.all([ownEnded, ...adopted, ...gaveBack]);
    }
  } finally {
    await journal.close();
  }
}
