import type { Role } from 'labelkit';
import { isRecord } from '../shared/isRecord.js';

/** The settings of one project's run that a journal remembers; never the model's secret key. */
export interface JournalProjectConfig {
  /** The model endpoint the service was told to call. */
  endpoint: string;
  /** `options.numberOfFilesPerRequest`. */
  numberOfFilesPerRequest: number;
  labelerEmail: string;
  /** null when the service chose. */
  role: Role | null;
}

/**
 * One line of a journal. A project goes `intent` → `started` (with the job id) or `unknown` →
 * `outcome`; a `run` record opens each run and names the service it talked to.
 *
 * @remarks No record holds a secret: not the access token, not the model's `secretKey`
 * (error texts are redacted before they are written).
 */
export type JournalRecord = (
  | { type: 'run'; at: string; url: string }
  | IntentRecord
  | { type: 'started'; at: string; projectId: string; jobId: string }
  | { type: 'unknown'; at: string; projectId: string; error: string }
  | {
      type: 'outcome';
      at: string;
      projectId: string;
      outcome: 'delivered' | 'failed' | 'timed-out' | 'not-found' | 'not-started';
      jobId?: string;
      errors?: string[];
    }
) & {
  /** The worker that wrote it, where a journal is shared by several (the database backend fills it in). */
  worker?: string;
};

/**
 * The record a run writes, and waits for, before it sends a project's mutation: its claim.
 * `attempt` counts the project's intents (1 for the first; a retry is the next): the journal
 * holds at most one intent per (project, attempt), so two workers can never both claim one.
 */
export interface IntentRecord {
  type: 'intent';
  at: string;
  projectId: string;
  /** 1, 2, …; absent in journals written before claims (then counted in order). */
  attempt?: number;
  config: JournalProjectConfig;
  worker?: string;
}

/** What {@link Journal.claim} answers. */
export type ClaimResult = { won: true } | { won: false; /** The worker whose intent holds the claim, when known. */ holder?: string };

/** Options of {@link Journal.claim}. */
export interface ClaimOptions {
  /**
   * The records appended before this claim that must be durable once it is (a start slot's
   * `started` record of its last project). Without it, every record appended before the claim
   * is; with it, only these, and a journal that writes records together need not hold the claim
   * back for the others (those of other start slots). A journal that writes in order ignores it.
   */
  after?: readonly JournalRecord[];
}

/** One project of a run's queue, with the attempt its claim is to take. */
export interface QueuedProject {
  projectId: string;
  attempt: number;
}

/** A shared journal's queue of projects to start (see {@link Journal.queue}). */
export interface ClaimQueue {
  /**
   * Adds the projects this worker would start (those already queued, or already claimed, are
   * left as they are): the first worker of a run loads them; later ones find them there.
   * @param projectIds - every project of this worker's run: workers given the same projects (in any order) share one queue
   * @param projects - the projects to start, in order
   * @returns the name of the queue's list, for `take`
   */
  load(projectIds: readonly string[], projects: readonly QueuedProject[]): Promise<string>;
  /**
   * Takes up to `max` projects nobody has taken (or that a dead worker took and never claimed),
   * in one round trip; none when the queue is empty for this worker.
   * @param list - what `load` answered
   * @param max - how many at most
   */
  take(list: string, max: number): Promise<QueuedProject[]>;
  /**
   * Which workers hold some projects taken from the queue and not claimed yet (a worker writes
   * its intent just after it takes a project; the claim removes it from the queue), in one round
   * trip: at the end of a run, a project another worker took is told with that worker.
   * @param projects - the projects asked about
   * @returns the other worker that took each one still in the queue (those not there, or taken by
   * this worker and not started because the run was stopped, are absent)
   */
  takers(projects: readonly QueuedProject[]): Promise<Map<string, string>>;
}

/** The limits of a run across its workers, as {@link RunLimits.setup} fixes them. */
export interface RunLimitSettings {
  /** Jobs started and not yet ended, across every worker of the run, at most (`--max-running`). */
  maxRunning?: number;
  /** Starts a minute, across every worker of the run, at most (`--max-starts-per-minute`). */
  maxStartsPerMinute?: number;
}

/**
 * A shared journal's limits of the run across all its workers (the database's lease table and
 * start bucket). A worker takes a lease before it claims and starts a project, marks it with the
 * job once started, and gives it back when the job ends; a dead worker's lease without a job is
 * free again (its heartbeat overdue, as for its queue rows), one with a job is held until the
 * worker that takes over its wait gives it back (or, if none does, until `holdMs` after the start).
 * Absent on journals that one process holds alone (the run then holds the limits in process).
 */
export interface RunLimits {
  /**
   * Fixes the run's limits (the first worker's), or reads them (a worker opened read-only).
   * @param wanted - this worker's limits
   * @returns the run's limits as the journal holds them (the run refuses to go on when they differ from `wanted`)
   */
  setup(wanted: RunLimitSettings): Promise<RunLimitSettings>;
  /**
   * Takes a lease for a project when fewer than `maxRunning` are held, in one statement.
   * @returns whether it was taken, and how many leases are held (as the statement saw them, this one included)
   */
  take(projectId: string): Promise<{ taken: boolean; running: number }>;
  /** Marks a project's lease with its started job: held until given back (or `holdMs` after a death). */
  started(projectId: string, jobId: string, holdMs: number): Promise<void>;
  /** Moves the leases of started jobs whose wait this worker takes over to it. */
  adopt(projectIds: readonly string[], holdMs: number): Promise<void>;
  /**
   * Moves this worker's lease of a project whose job ended to the next project it starts, in one
   * statement (a give and a take would be two, and another worker's take could come between).
   * @returns whether it was moved (false: the lease is not this worker's, e.g. a worker that took
   * this one for dead took over its job's wait; nothing changed), and the leases held
   * @remarks Optional for a journal written elsewhere: without it a job's lease is given back and
   * the next start takes one.
   */
  handOver?(fromProjectId: string, toProjectId: string): Promise<{ taken: boolean; running: number }>;
  /** Gives a project's lease back (any worker may: the one that saw its job end). @returns the leases held after */
  give(projectId: string): Promise<{ running: number }>;
  /** The leases held now. */
  running(): Promise<number>;
  /** Takes one start from the run's bucket. @returns 0 when taken, else how long (ms) until the next is due */
  startToken(): Promise<number>;
}

/** Another run of the same journal database that has claimed some of this run's projects. */
export interface OtherRun {
  /** Its name (`--journal-name`). */
  run: string;
  /** How many of this run's projects it claimed (started, or tried to). */
  projects: number;
}

/** A worker of a shared journal, as its heartbeat shows it. */
export interface JournalWorker {
  /** Its id, e.g. `host:pid:ab12`. */
  id: string;
  /** False once its heartbeat is overdue (judged by the database's clock) or it closed the journal. */
  alive: boolean;
}

/** What {@link Journal.open} reads back. */
export interface JournalContents {
  /** Every record, oldest first (empty when the journal gives `replayed` instead). */
  records: JournalRecord[];
  /**
   * Set by a journal opened with `replay` that replayed its records as it read them, record by
   * record, so as never to hold them all at once (a database run of 100,000 projects has 300,000
   * and more): each project's state and the service URL of the latest run record, exactly what the
   * replay of `records` would give; `records` is then empty.
   */
  replayed?: { url?: string; projects: Map<string, JournalProjectState> };
  /** Things the backend repaired or tolerated, e.g. an incomplete last line after a crash. */
  warnings: string[];
  /** Set by a {@link Journal.refresh} that answers only the records written since the last read. */
  delta?: boolean;
  /**
   * Set by a journal that several workers share at once (the database): this worker's id, and
   * every worker that has written to the run. Absent for a journal one run holds alone (file,
   * memory), where every earlier writer has ended.
   */
  shared?: {
    worker: string;
    workers: JournalWorker[];
    /** How often this worker beats, and reads the journal again while it waits. */
    heartbeatMs: number;
  };
}

/**
 * Where a many-project run remembers, per project, what it did: the run logic only opens,
 * appends and reads back, so a file, a database or memory can hold it.
 *
 * @remarks `append` resolves only once the record is durable (the file backend fsyncs): the run
 * writes `intent` and waits for it before it sends a mutation. The file backend is
 * `openFileJournal` from `labelkit-tools/bulk` (Node only); {@link createMemoryJournal} is for
 * tests and browsers.
 * @example
 * ```ts
 * const journal = createMemoryJournal();
 * await autoLabelMany(client, inputs, { journal });
 * ```
 */
export interface Journal {
  /**
   * Reads back every record written so far and readies the journal for appends.
   * @param options - `replay`: the caller needs only each project's state: a journal may then
   * replay the records as it reads them and answer `replayed` instead of the records, never
   * holding them all at once (the database journal does)
   * @returns the records (or, with `replay`, possibly their replay) and any warning
   * @throws a labelkit error of code `VALIDATION` when the journal is corrupt (naming the line)
   */
  open(options?: { replay?: boolean }): Promise<JournalContents>;
  /**
   * Adds one record; resolves once it is durable.
   * @param record - the record
   */
  append(record: JournalRecord): Promise<void>;
  /**
   * Writes a project's intent only when no intent of the same project and attempt is in the
   * journal yet; resolves once it is durable. Of any number of concurrent claims of one project
   * and attempt (from this process or, for a shared journal, from any worker), exactly one wins.
   * @param intent - the intent, with its `attempt`
   * @param options - `after`: the records appended before it that must be durable with it (see {@link ClaimOptions})
   * @returns `{ won: true }`, or `{ won: false, holder }` when another claim holds it (send nothing then)
   */
  claim(intent: IntentRecord & { attempt: number }, options?: ClaimOptions): Promise<ClaimResult>;
  /**
   * The latest claim of each project (its highest attempt, and the worker that holds it), for a
   * run on a shared journal to drop from its list what other workers took meanwhile, in one
   * request rather than one lost claim each. Absent on journals that one run holds alone.
   */
  claims?(): Promise<Map<string, { attempt: number; worker?: string }>>;
  /**
   * The other runs of the same store (a database holds many runs, by name) that have claimed
   * some of these projects: a second run over the same projects starts a second job for each,
   * which the run then says before it starts anything. Absent on journals that hold one run.
   * @param projectIds - this run's projects
   * @returns each other run's name and how many of these projects it claimed, most first
   */
  otherRuns?(projectIds: string[]): Promise<OtherRun[]>;
  /**
   * Reads the journal again (a shared journal: what the other workers wrote since), for a run
   * that takes over the jobs of workers that died. Absent on journals that one run holds alone.
   * A journal that answers only the records written since its last read sets `delta`.
   */
  refresh?(): Promise<JournalContents>;
  /**
   * A shared journal's queue of the run's projects to start (the database's queue table): the
   * run loads the projects it would start, and its workers take them in batches (each taken by
   * one worker), instead of each worker walking the whole list and losing claims to the others.
   * Taking a project is not its claim: the run still claims its intent before its mutation.
   * Absent on journals that one run holds alone.
   */
  queue?: ClaimQueue;
  /**
   * A shared journal's limits of the run across all its workers (`maxRunning`,
   * `maxStartsPerMinute`). Absent on journals that one process holds alone: the run holds the
   * same limits in its process.
   */
  limits?: RunLimits;
  /** Releases the journal (the run calls it at its end). */
  close(): Promise<void>;
}

/**
 * A journal in memory (tests, browsers, or a run that needs no memory across processes).
 *
 * @param records - records to start with (as a previous run would have left them)
 * @returns the journal; its `records` array is live
 * @example
 * ```ts
 * const journal = createMemoryJournal();
 * await autoLabelMany(client, inputs, { journal });
 * console.log(journal.records.filter((r) => r.type === 'started').length);
 * ```
 */
export function createMemoryJournal(records: JournalRecord[] = []): Journal & { records: JournalRecord[] } {
  const claims = new ClaimKeys();
  return {
    records,
    open: async () => {
      claims.reset(records);
      return { records: [...records], warnings: [] };
    },
    append: async (record) => void records.push(record),
    claim: async (intent) => {
      const holder = claims.take(intent);
      if (holder !== undefined) return { won: false, ...(holder && { holder }) };
      records.push(intent);
      return { won: true };
    },
    close: async () => undefined,
  };
}

/** An intent's attempt: its own, or (a record written without one) the one after the project's `before` intents. */
const attemptOf = (intent: IntentRecord, before: number): number => intent.attempt ?? before + 1;

/**
 * The claims of a journal that one process holds alone (memory, file): the (project, attempt)
 * keys of its intents, taken synchronously, so that of concurrent claims exactly one wins.
 */
export class ClaimKeys {
  private readonly held = new Map<string, string>();

  /** Forgets every claim, then holds those of the records read back. */
  reset(records: readonly JournalRecord[]): void {
    this.held.clear();
    const counts = new Map<string, number>();
    for (const r of records) {
      if (r.type !== 'intent') continue;
      const attempt = attemptOf(r, counts.get(r.projectId) ?? 0);
      counts.set(r.projectId, attempt);
      this.held.set(`${r.projectId}\u0000${attempt}`, r.worker ?? '');
    }
  }

  /**
   * Takes the claim of an intent.
   * @returns undefined when taken now; the holder (or '') when it was held already
   */
  take(intent: IntentRecord & { attempt: number }): string | undefined {
    const key = `${intent.projectId}\u0000${intent.attempt}`;
    const holder = this.held.get(key);
    if (holder !== undefined) return holder;
    this.held.set(key, intent.worker ?? '');
    return undefined;
  }
}

/** Where a project stands according to a journal: its last record. */
export interface JournalProjectState {
  /** `intent`, `started`, `unknown`, or a final outcome. */
  state: 'intent' | 'started' | 'unknown' | 'delivered' | 'failed' | 'timed-out' | 'not-found' | 'not-started';
  jobId?: string;
  /** The config of its latest intent. */
  config?: JournalProjectConfig;
  /** How many intents it has had (the next claim is `attempts + 1`). */
  attempts: number;
  /** The worker of its latest intent (shared journals), which waits for its job. */
  worker?: string;
  /** Error texts (job errors, or why it did not start / is unknown). */
  errors?: string[];
}

/**
 * Folds a journal's records into the state of each project (the last record wins).
 *
 * @param records - the records, oldest first
 * @param projects - states to continue from (the replay of the records before these, for a journal read again in parts); changed in place
 * @returns the state of each project, and the service URL of the latest run record
 * @remarks `timed-out` keeps its job id (a rerun waits for that job); the config is that of the
 * project's latest `intent`.
 * @example
 * ```ts
 * const { projects } = replayJournal(contents.records);
 * projects.get('p1')?.state; // 'started'
 * ```
 */
export function replayJournal(
  records: readonly JournalRecord[],
  projects: Map<string, JournalProjectState> = new Map(),
): { url?: string; projects: Map<string, JournalProjectState> } {
  let url: string | undefined;
  for (const r of records) url = replayRecord(r, projects) ?? url;
  return { ...(url !== undefined && { url }), projects };
}

/**
 * One step of {@link replayJournal}: folds one record into its project's state, for a journal
 * that replays its records as it reads them (never holding them all at once).
 *
 * @param r - the record (after every record before it)
 * @param projects - the states so far; changed in place
 * @returns the service URL of a `run` record; undefined for any other record
 */
export function replayRecord(r: JournalRecord, projects: Map<string, JournalProjectState>): string | undefined {
  if (r.type === 'run') return r.url;
  // Built field by field, not by spreads: a 100,000-project run replays 200,000 records and more.
  const before = projects.get(r.projectId);
  const intent = r.type === 'intent';
  const next: JournalProjectState = { state: 'intent', attempts: intent ? attemptOf(r, before?.attempts ?? 0) : (before?.attempts ?? 0) };
  // The config of an intent is usually the one of the project before (every project of a run has
  // the same): that object is kept, not one equal copy per project.
  const config = intent ? sameConfig(r.config, before?.config) : before?.config;
  if (config) next.config = config;
  const worker = intent ? r.worker : before?.worker;
  if (worker !== undefined) next.worker = worker;
  if (r.type === 'started') {
    next.state = 'started';
    next.jobId = r.jobId;
  } else if (r.type === 'unknown') {
    next.state = 'unknown';
    next.errors = [r.error];
  } else if (r.type === 'outcome') {
    next.state = r.outcome;
    if (r.jobId) next.jobId = r.jobId;
    if (r.errors) next.errors = r.errors;
  }
  projects.set(r.projectId, next);
  return undefined;
}

/** The config last replayed, to share among the projects of a run that have the same (see replayRecord). */
let lastConfig: JournalProjectConfig | undefined;
/** The four fields of a config: one with others besides (a later version's) is kept as it is. */
const CONFIG_KEYS = 4;
/** `config`, or an equal config already held (the project's own, or the last one replayed). */
function sameConfig(config: JournalProjectConfig, own: JournalProjectConfig | undefined): JournalProjectConfig {
  for (const held of [own, lastConfig]) {
    if (
      held &&
      held.endpoint === config.endpoint &&
      held.numberOfFilesPerRequest === config.numberOfFilesPerRequest &&
      held.labelerEmail === config.labelerEmail &&
      held.role === config.role &&
      Object.keys(held).length === CONFIG_KEYS &&
      Object.keys(config).length === CONFIG_KEYS
    ) {
      return held;
    }
  }
  lastConfig = config;
  return config;
}

/**
 * Each project's state after what {@link Journal.open} read: the states the journal replayed as
 * it read (`replayed`), else the replay of its records.
 *
 * @param contents - what `open` answered
 * @returns the states and the service URL of the latest run record
 */
export function replayContents(contents: JournalContents): { url?: string; projects: Map<string, JournalProjectState> } {
  return contents.replayed ?? replayJournal(contents.records);
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const OUTCOMES = new Set(['delivered', 'failed', 'timed-out', 'not-found', 'not-started']);

/**
 * Checks that a parsed value is a {@link JournalRecord} (for backends that read text back).
 *
 * @param value - a parsed JSON value
 * @returns a problem text, or undefined when the value is a record
 * @remarks Checks the fields the run reads (type, time, project, job id, outcome); extra fields
 * are allowed, so that later versions may add some.
 * @example
 * ```ts
 * checkJournalRecord({ type: 'started', at: '2026-01-01T00:00:00Z', projectId: 'p1' }); // 'a started record needs "projectId" and "jobId"'
 * ```
 */
export function checkJournalRecord(value: unknown): string | undefined {
  if (!isRecord(value)) return 'is not a JSON object';
  const r = value as Record<string, unknown>;
  if (!isStr(r.at)) return 'has no "at" time';
  switch (r.type) {
    case 'run':
      return isStr(r.url) ? undefined : 'a run record needs "url"';
    case 'intent': {
      const c = r.config as Record<string, unknown> | undefined;
      const ok = isStr(r.projectId) && c && isStr(c.endpoint) && typeof c.numberOfFilesPerRequest === 'number' && isStr(c.labelerEmail);
      if (r.attempt !== undefined && !(Number.isInteger(r.attempt) && (r.attempt as number) >= 1)) return 'an intent record\'s "attempt" must be an integer >= 1';
      return ok ? undefined : 'an intent record needs "projectId" and "config" (endpoint, numberOfFilesPerRequest, labelerEmail)';
    }
    case 'started':
      return isStr(r.projectId) && isStr(r.jobId) ? undefined : 'a started record needs "projectId" and "jobId"';
    case 'unknown':
      return isStr(r.projectId) && isStr(r.error) ? undefined : 'an unknown record needs "projectId" and "error"';
    case 'outcome':
      return isStr(r.projectId) && isStr(r.outcome) && OUTCOMES.has(r.outcome) ? undefined : 'an outcome record needs "projectId" and a known "outcome"';
    default:
      return `has an unknown "type" (${JSON.stringify(r.type ?? null)})`;
  }
}
