import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LabelkitError, ValidationError } from 'labelkit';
import type { ValidationProblem } from 'labelkit';
import type { Pool, PoolClient, Query as PgQuery, QueryArrayConfig } from 'pg';
import { classifyDatabaseFailure, errorCode } from '../shared/classify.js';
import { HEARTBEAT_MS, STOP_GRACE_MS } from '../shared/constants.js';
import { GIVEN_UP, untilAborted } from '../shared/onAbort.js';
import { redact, redactUrl, urlSecrets } from '../shared/redact.js';
import { checkJournalRecord, replayRecord } from './journal.js';
import type { Journal, JournalContents, JournalProjectState, JournalRecord, JournalWorker, QueuedProject } from './journal.js';
import { POSTGRES_JOURNAL_VERSION, schemaSql, versionState } from './pgJournalSchema.js';

export { POSTGRES_JOURNAL_VERSION } from './pgJournalSchema.js';

/** Options of {@link openPostgresJournal}. */
export interface PostgresJournalOptions {
  /**
   * The database, `postgres://user@host:5432/db` or `postgresql://…`. The password may be in the
   * URL (`user:password@` or `?password=`), in `PGPASSWORD` or in `~/.pgpass` (as for `psql`); one
   * given in the URL or in `PGPASSWORD` is redacted from every message (`~/.pgpass` is read by the
   * driver alone, and no message of it quotes a password).
   */
  url: string;
  /** The run's name: the workers given the same name share the run. 1 to 128 letters, digits, `.`, `_`, `-`, `:`, `/`. */
  name: string;
  /** Only read (a dry run, a report): no table is created, nothing is written, no heartbeat. @defaultValue false */
  readOnly?: boolean;
  /**
   * How often this worker writes its heartbeat. It is taken for dead once three beats are late
   * (by the database's clock), which lets a live worker wait for its jobs; it never makes anything
   * start again. @defaultValue 5000
   */
  heartbeatMs?: number;
  /** Connections to the database at most (claims and appends run in parallel). @defaultValue 6 */
  connections?: number;
  /** The database schema holding the tables. @defaultValue 'labelkit_journal' */
  schema?: string;
  /**
   * How long (ms) each call keeps trying when the database cannot be reached, dropped the
   * connection or is restarting, from its first failure, with back-off (50 ms doubling to 1 s);
   * 0 fails at once. A record whose write may or may not have committed is looked for after
   * reconnecting and written only when it is not there. @defaultValue 30000
   */
  retryMs?: number;
  /**
   * Told when the database is lost (`lost`, with the reason) and when it answers again (`back`,
   * with how long it was away): for a line in a log. Never holds the password.
   */
  onConnection?: (change: { state: 'lost' | 'back'; message: string; afterMs?: number }) => void;
  /**
   * The run's stop (Ctrl-C, SIGTERM). Once aborted, a call that cannot reach the database fails
   * at once (code `ABORTED`) instead of trying again for `retryMs`, a call still waiting for an
   * answer is given up after `STOP_GRACE_MS` (400 ms), and `close` waits no longer than that: a
   * stopped worker ends within a second. A start the journal could not take then goes to the
   * outbox, as after an outage.
   */
  signal?: AbortSignal;
}

/** Default of {@link PostgresJournalOptions.retryMs}. */
export const DEFAULT_JOURNAL_RETRY_MS = 30_000;
/** The longest {@link PostgresJournalOptions.retryMs}: one hour. */
export const MAX_JOURNAL_RETRY_MS = 3_600_000;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;
const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Whether a `--journal` value names a PostgreSQL database rather than a file.
 *
 * @param value - the value
 * @returns true for `postgres://…` and `postgresql://…`
 */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(value.trim());
}

/**
 * A database URL fit to print: its password (in the user part or the query) replaced by `***`.
 *
 * @param url - the URL
 * @returns the URL without its password
 */
export function displayDatabaseUrl(url: string): string {
  return redactUrl(url);
}

/**
 * Checks the options of a PostgreSQL journal, every problem at once.
 *
 * @param options - the options
 * @returns the problems (paths `journal`, `journalName`, …); empty when fine
 */
function checkPostgresJournalOptions(options: PostgresJournalOptions): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  if (!isPostgresUrl(options.url) || !URL.canParse(options.url) || new URL(options.url).hostname === '') {
    problems.push({ path: 'journal', message: `must be a database URL such as postgres://user@host:5432/db (got ${displayDatabaseUrl(options.url)})` });
  }
  if (typeof options.name !== 'string' || !NAME.test(options.name)) {
    problems.push({ path: 'journalName', message: 'must name the run: 1 to 128 letters, digits, ".", "_", "-", ":" or "/", starting with a letter or digit' });
  }
  const beat = options.heartbeatMs;
  if (beat !== undefined && !(Number.isInteger(beat) && beat >= HEARTBEAT_MS.min && beat <= HEARTBEAT_MS.max)) {
    problems.push({ path: 'heartbeatMs', message: `must be an integer from ${HEARTBEAT_MS.min} to ${HEARTBEAT_MS.max} (ms)` });
  }
  const n = options.connections;
  if (n !== undefined && !(Number.isInteger(n) && n >= 2 && n <= 100)) problems.push({ path: 'connections', message: 'must be an integer from 2 to 100' });
  const retry = options.retryMs;
  if (retry !== undefined && !(Number.isInteger(retry) && retry >= 0 && retry <= MAX_JOURNAL_RETRY_MS)) problems.push({ path: 'retryMs', message: `must be an integer from 0 to ${MAX_JOURNAL_RETRY_MS} (ms)` });
  if (options.schema !== undefined && !SCHEMA.test(options.schema)) problems.push({ path: 'schema', message: 'must be a lower-case SQL identifier (letters, digits, _)' });
  return problems;
}

/** Records written in one statement at most (the rest wait for the next). */
const APPEND_BATCH = 500;
/** How long an appended record waits for a claim's statement to carry it before it gets a statement of its own. */
const APPEND_WAIT_MS = 25;
/** Projects loaded into the queue in one statement at most. */
const LOAD_BATCH = 5000;
/**
 * A record older than this (by the database's clock) is taken to be committed: a read again
 * starts after the last of them, and looks again only at younger ones (whose transaction may have
 * taken its sequence number before an older one committed).
 */
const SETTLED_AFTER_S = 60;

/** The `meta` key that says a run's queue list was loaded whole (see `queue.load`); run names hold no space. */
const loadedKey = (run: string, list: string) => `queue loaded ${run} ${list}`;
/** Whether the worker row `w` is alive: not closed, its heartbeat not overdue (three beats, by the database's clock). */
const LIVE_WORKER = `w.ended_at IS NULL AND w.heartbeat_at > now() - 3 * w.heartbeat_ms * interval '1 millisecond'`;

/** A run {@link PostgresJournal.prune} removed (or, in a dry run, would remove). */
export interface PrunedRun {
  /** Its name (`--journal-name`). */
  run: string;
  /** When anything of it last moved (a record, a heartbeat, its creation), ISO 8601. */
  lastAt: string;
  /** Its records (removed, or to be removed). */
  records: number;
}

/** The journal in a PostgreSQL database: a {@link Journal}, and what a database of many runs needs besides. */
export interface PostgresJournal extends Journal {
  /**
   * Removes the runs of the database (other than this journal's own) in which nothing moved for
   * `olderThanMs`: their records, queue, workers and run row, one transaction a run. A run with a
   * live worker is never removed. Allowed on a journal opened read-only (it writes nothing of
   * this journal's run).
   * @param olderThanMs - how long a run must have been still
   * @param options - `dryRun`: only say which runs, with their records
   * @returns the runs removed (or to be removed), the stillest first
   */
  prune(olderThanMs: number, options?: { dryRun?: boolean }): Promise<PrunedRun[]>;
}

/**
 * The journal in a PostgreSQL database, shared by any number of workers on any number of hosts:
 * each claim is a committed row with a unique key, so no project is ever started twice.
 *
 * @param options - the database URL, the run's name; see {@link PostgresJournalOptions}
 * @returns a {@link Journal} for `autoLabelMany`, with `claim`, `refresh` and `queue`; and `prune` for old runs
 * @throws `ValidationError` (synchronously) for a bad URL, name or option, naming each
 * @remarks The driver (`pg`) is loaded on `open`, so `labelkit-tools/bulk` needs no database
 * otherwise. On first use the tables are created in their own schema (`labelkit_journal`) under
 * an advisory lock, so that workers starting together do not fail, and carry a version
 * ({@link POSTGRES_JOURNAL_VERSION}). Each worker has a row with its host, pid and heartbeat
 * (every `heartbeatMs`, judged by the database's clock: dead after three missed beats or once it
 * closed the journal). A record holds no secret (the same records as the file journal; errors
 * redacted), and every error this journal throws has the URL's password redacted. Statements run
 * one by one in autocommit with `synchronous_commit` on: a record is durable when its promise
 * resolves. A database that cannot be reached, drops the connection or restarts is tried again
 * for `retryMs` (30 s) with back-off, so that a restart costs no worker; a write whose answer was
 * lost is looked for before it is written again (a claim finds its own intent), so nothing is
 * written twice. Errors: `NETWORK` (unreachable, dropped, timed out), `AUTH` (login refused),
 * {@link ValidationError} on `journal` (no such database, no right to create the tables: what
 * to create).
 * @example
 * ```ts
 * import { autoLabelMany, openPostgresJournal } from 'labelkit-tools/bulk';
 * const journal = openPostgresJournal({ url: 'postgres://labelkit@db.internal/airflow', name: 'prelabel-2026-11' });
 * const { outcomes } = await autoLabelMany(client, inputs, { journal });
 * ```
 */
export function openPostgresJournal(options: PostgresJournalOptions): PostgresJournal {
  const problems = checkPostgresJournalOptions(options);
  if (problems.length > 0) throw new ValidationError(problems);
  const { url, name } = options;
  const s = options.schema ?? 'labelkit_journal';
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const retryMs = options.retryMs ?? DEFAULT_JOURNAL_RETRY_MS;
  // A new id at each open: a worker is one open journal.
  let worker = '';
  const secrets = [...urlSecrets(url), process.env.PGPASSWORD];
  const where = `the PostgreSQL journal ${displayDatabaseUrl(url)} (run ${name})`;
  const user = URL.canParse(url) ? decodeURIComponent(new URL(url).username) || process.env.PGUSER || 'its user' : 'its user';
  let pool: Pool | undefined;
  let beat: ReturnType<typeof setInterval> | undefined;
  let tablesExist = false;
  /** The queue's projects this worker took (project and attempt), for a take tried again after its answer was lost. */
  const taken = new Set<string>();

  /** What someone has to create or grant for a `setup` failure. */
  const whatToCreate = (code: string | undefined): string => {
    if (code === '3D000') return 'create the database (createdb, or CREATE DATABASE as its owner), or name one that exists in --journal';
    return (
      `the user ${user} may not create or write the journal's tables: once, as an owner, create them for it (CREATE SCHEMA ${s} AUTHORIZATION ${user}; or GRANT CREATE ON DATABASE to ${user}), ` +
      `or, where the schema ${s} exists, GRANT USAGE ON SCHEMA ${s} and SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} (and its sequences) to ${user}`
    );
  };

  /**
   * An error of the database as this journal tells it: where, and never the password. By
   * {@link classifyDatabaseFailure}: a server that cannot be reached, dropped the connection or
   * timed out is a labelkit error of code `NETWORK` (the CLI's exit 4); a refused login one of
   * code `AUTH` (exit 3); a missing database or missing rights a {@link ValidationError} on
   * `journal` saying what to create (exit 2); anything else an Error with the server's words.
   */
  const fail = (error: unknown, after = ''): never => {
    if (error instanceof ValidationError) throw error;
    const message = error instanceof Error ? error.message : '';
    const code = errorCode(error);
    const text = redact(`${where}: ${message || code || String(error)}${after}`, secrets);
    switch (classifyDatabaseFailure(error)) {
      case 'connection':
        throw new LabelkitError('NETWORK', `[Network] ${text}`, { secrets });
      case 'auth':
        throw new LabelkitError('AUTH', `[Auth] ${text}`, { secrets });
      case 'setup':
        throw new ValidationError([{ path: 'journal', message: `${text}: ${whatToCreate(code)}` }]);
      default:
        throw new Error(text);
    }
  };

  // One outage at a time is told: the first call that loses the database says so, the first
  // that reaches it again says it is back.
  let downSince: number | undefined;
  const lost = (error: unknown) => {
    if (downSince !== undefined) return;
    downSince = Date.now();
    const message = error instanceof Error ? error.message : String(error);
    options.onConnection?.({ state: 'lost', message: redact(`${where}: ${message || errorCode(error) || 'connection lost'}`, secrets) });
  };
  const back = () => {
    if (downSince === undefined) return;
    const afterMs = Date.now() - downSince;
    downSince = undefined;
    options.onConnection?.({ state: 'back', message: `${where} answers again`, afterMs });
  };

  /** A call as the run's stop allows it: as it is until the stop, then `graceMs` more (it then rejects with {@link GIVEN_UP}). */
  const untilStopped = <T>(call: Promise<T>, graceMs: number): Promise<T> => untilAborted(call, options.signal, graceMs);
  /** The run was stopped while the database could not be reached or did not answer: no more tries. */
  const stopped = (): never => {
    throw new LabelkitError('ABORTED', redact(`${where}: the run was stopped while the database did not answer`, secrets), { secrets });
  };

  /**
   * Runs one step, and runs it again while the database cannot be reached (for `retryMs` from
   * the first failure, 50 ms doubling to 1 s between tries). `retrying` tells the step that an
   * earlier try failed on the connection: its write may have committed, so it looks first.
   */
  const persist = async <T>(step: (retrying: boolean) => Promise<T>): Promise<T> => {
    let firstFailure: number | undefined;
    let delay = 50;
    let deadlocks = 0;
    for (let retrying = false; ; retrying = true) {
      try {
        const result = await untilStopped(step(retrying), STOP_GRACE_MS);
        back();
        return result;
      } catch (error) {
        if (error === GIVEN_UP) stopped();
        // A deadlock rolled the statement back, and every step here may run again: at once, a few times.
        if (errorCode(error) === '40P01' && deadlocks++ < 3) continue;
        if (!pool || classifyDatabaseFailure(error) !== 'connection') fail(error);
        if (options.signal?.aborted) stopped();
        firstFailure ??= Date.now();
        const waited = Date.now() - firstFailure;
        if (waited + delay > retryMs) fail(error, retryMs > 0 ? ` (tried again for ${Math.round(waited / 100) / 10}s)` : '');
        lost(error);
        await untilStopped(new Promise((resolve) => setTimeout(resolve, delay)), 0).catch(() => undefined);
      }
      delay = Math.min(delay * 2, 1000);
    }
  };
  const open = (): Pool => {
    if (!pool) throw new Error(`${where} is not open`);
    return pool;
  };
  const query = async <R extends Record<string, unknown>>(sql: string, values: unknown[] = []) => (await persist(() => open().query<R>(sql, values))).rows;
  // The statements every project costs (its claim, the records' insert) are prepared once per
  // connection: the server parses and plans them once, not each time (a claim 0.60 ms of its CPU
  // instead of 1.11). Named by their text's hash, so a name always means the same text. Behind a
  // pooler that does not keep prepared statements (PgBouncer in transaction mode before 1.21, or
  // with max_prepared_statements = 0; 200 by default since 1.24) the server says the name is
  // unknown or taken: the statement did not run, and this journal sends them unnamed from then on.
  let prepare = true;
  const statementNames = new Map<string, string>();
  const prepared = async <R extends Record<string, unknown>>(text: string, values: unknown[]) => {
    if (!prepare) return open().query<R>(text, values);
    let name = statementNames.get(text);
    if (name === undefined) statementNames.set(text, (name = `labelkit_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
    try {
      return await open().query<R>({ name, text, values });
    } catch (error) {
      const code = errorCode(error);
      if (code !== '26000' && code !== '42P05') throw error;
      prepare = false;
      return open().query<R>(text, values);
    }
  };

  // Appends are written together: a record waits a moment (APPEND_WAIT_MS) for the next claim of
  // this worker, whose statement carries every record appended meanwhile, or else for a statement
  // of its own that carries all those appended by then. A `started` record thus costs no round
  // trip of its own while projects are being started, and the outcomes of a poll are one
  // statement. Each record has an id made here: a statement tried again after its answer was lost
  // writes nothing twice (ON CONFLICT DO NOTHING), with no search for a duplicate. Records of one
  // project are in order because the run appends each only after the one before it is durable.
  type Pending = {
    rid: string; type: string; projectId: string | null; attempt: number | null; record: string;
    /** Waiting for a statement, taken by one still in flight, or written (or failed). */
    state: 'pending' | 'flying' | 'done';
    resolve(): void; reject(error: unknown): void;
  };
  let pending: Pending[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Records taken by a statement still in flight: a claim carries them again (see carry). */
  const flying = new Set<Pending>();
  /** Each appended record's entry, by the object the run appended (a claim's `after` names them). */
  const byRecord = new WeakMap<object, Pending>();
  /**
   * Takes the records waiting to be written (at most APPEND_BATCH, and every record `follows`
   * names that still waits): the statement's text from parameter `$from` on, and its values.
   * `follows`: the records already taken by another statement still in flight that this one must
   * not commit without ('all' of them for a claim that names none).
   */
  const carry = (from: number, follows: readonly Pending[] | 'all') => {
    const batch = pending.slice(0, APPEND_BATCH);
    pending = pending.slice(batch.length);
    if (follows !== 'all') {
      const late = follows.filter((f) => f.state === 'pending' && !batch.includes(f));
      if (late.length > 0) {
        batch.push(...late);
        pending = pending.filter((p) => !late.includes(p));
      }
    }
    // A claim also carries the records it follows that another statement has taken and not yet
    // committed (their ids make the second insert nothing, after waiting for the first's commit):
    // once a claim has committed, the records it follows are durable. A start slot's claim follows
    // the slot's own `started` record of its last project, so that a worker killed then leaves at
    // most one project per slot a start on its way (the one just claimed) without its `started`
    // record, not two; and it waits for no other slot's statement. A claim that names none
    // follows every record appended before it.
    const again = follows === 'all' ? Array.from(flying).slice(0, APPEND_BATCH) : follows.filter((f) => f.state === 'flying');
    const rows = again.length > 0 ? [...batch, ...again] : batch;
    for (const b of batch) {
      flying.add(b);
      b.state = 'flying';
    }
    const $ = (i: number) => `$${from + i}`;
    const sql = `INSERT INTO ${s}.records (run, worker, type, project_id, attempt, record, rid)
             SELECT $1, $2, x.type, x.project_id, x.attempt, x.record::jsonb, x.rid
               FROM unnest(${$(0)}::text[], ${$(1)}::text[], ${$(2)}::int[], ${$(3)}::text[], ${$(4)}::text[]) WITH ORDINALITY AS x(type, project_id, attempt, record, rid, n)
              ORDER BY x.n
             ON CONFLICT (run, rid) DO NOTHING`;
    const values = [rows.map((b) => b.type), rows.map((b) => b.projectId), rows.map((b) => b.attempt), rows.map((b) => b.record), rows.map((b) => b.rid)];
    return { batch, sql, values };
  };
  /** Runs a statement that carries records, and settles them with it. */
  const carrying = async <T>(batch: readonly Pending[], run: () => Promise<T>): Promise<T> => {
    try {
      const result = await run();
      for (const b of batch) b.resolve();
      return result;
    } catch (error) {
      for (const b of batch) b.reject(error);
      throw error;
    } finally {
      for (const b of batch) {
        flying.delete(b);
        b.state = 'done';
      }
    }
  };
  const flushes = new Set<Promise<unknown>>();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    while (pending.length > 0) {
      const { batch, sql, values } = carry(3, []);
      const write = carrying(batch, () => persist(() => prepared(sql, [name, worker, ...values]))).catch(() => undefined);
      flushes.add(write);
      void write.finally(() => flushes.delete(write));
    }
  };
  const insertRecord = (appended: object, type: string, projectId: string | null, attempt: number | null, record: Record<string, unknown>) =>
    new Promise<void>((resolve, reject) => {
      const entry: Pending = { rid: randomUUID(), type, projectId, attempt, record: JSON.stringify(record), state: 'pending', resolve, reject };
      pending.push(entry);
      byRecord.set(appended, entry);
      timer ??= setTimeout(flush, APPEND_WAIT_MS);
    });

  // Read again from the last settled record on (see SETTLED_AFTER_S): `seen` holds the younger ones read already.
  let settledSeq = 0;
  let seen = new Set<number>();
  /** The younger records of a first read with replay, put into `seen` by the next read (a dry run reads once: 300,000 of them just after they were written). */
  let seenLater: number[] | undefined;
  const read = async (): Promise<JournalContents> => {
    if (!tablesExist) return { records: [], warnings: [], shared: { worker, workers: [], heartbeatMs } };
    if (seenLater) {
      for (const seq of seenLater) if (seq > settledSeq) seen.add(seq);
      seenLater = undefined;
    }
    const delta = settledSeq > 0 || seen.size > 0;
    // The records and the workers in one round trip. No ORDER BY: at 100,000 projects the sort of
    // 300,000 records with their JSON spilled to disk and tripled the read; they are put in order here.
    // `upto`: the last settled record (see SETTLED_AFTER_S), which no read asks for again.
    const rows = await query<{ kind: 'r' | 'w'; seq: string; worker: string; record: unknown; settled: boolean; alive: boolean; started_at: Date }>(
      `SELECT 'r' AS kind, seq, worker, record, written_at < now() - $3 * interval '1 second' AS settled, NULL::boolean AS alive, NULL::timestamptz AS started_at
         FROM ${s}.records WHERE run = $1 AND seq > $2
       UNION ALL
       SELECT 'w', NULL, worker, NULL, NULL, (ended_at IS NULL AND heartbeat_at > now() - 3 * heartbeat_ms * interval '1 millisecond'), started_at
         FROM ${s}.workers WHERE run = $1`,
      [name, settledSeq, SETTLED_AFTER_S],
    );
    const records: { seq: number; record: JournalRecord }[] = [];
    const workers: { id: string; alive: boolean; at: number }[] = [];
    let upto = settledSeq;
    for (const row of rows) {
      if (row.kind === 'w') {
        workers.push({ id: row.worker, alive: row.alive, at: row.started_at.getTime() });
        continue;
      }
      const seq = Number(row.seq);
      if (row.settled && seq > upto) upto = seq;
      if (seen.has(seq)) continue;
      const problem = checkJournalRecord(row.record);
      if (problem) throw new ValidationError([{ path: `journal record ${row.seq}`, message: `${where}: record ${row.seq} ${problem}; the journal is corrupt` }]);
      // The driver parsed this object for this row alone: the worker is written into it, not copied.
      const record = row.record as JournalRecord;
      record.worker = row.worker;
      records.push({ seq, record });
    }
    rows.length = 0;
    let ordered = true;
    for (let i = 1; i < records.length && ordered; i++) ordered = records[i - 1]!.seq < records[i]!.seq;
    if (!ordered) records.sort((a, b) => a.seq - b.seq);
    // The records up to `upto` are never asked for again; those after it are remembered as read.
    if (upto > settledSeq) {
      settledSeq = upto;
      const younger = new Set<number>();
      for (const seq of seen) if (seq > upto) younger.add(seq);
      seen = younger;
    }
    for (const r of records) if (r.seq > settledSeq) seen.add(r.seq);
    return { records: records.map((r) => r.record), warnings: [], ...(delta && { delta }), shared: { worker, workers: workers.sort((a, b) => a.at - b.at).map(({ id, alive }) => ({ id, alive })), heartbeatMs } };
  };

  /** Whether other runs were in the database when `open` read it with replay (they never leave but by prune). */
  let otherRunsSeen = false;
  /** The driver's `Query`, for a statement whose rows are handed over one by one (loaded with the pool, on `open`). */
  let Query: typeof PgQuery | undefined;
  /** The run's workers, the first started first, and whether each is alive. */
  const readWorkers = async (client: PoolClient) =>
    (
      await client.query<{ worker: string; alive: boolean }>(
        `SELECT worker, (ended_at IS NULL AND heartbeat_at > now() - 3 * heartbeat_ms * interval '1 millisecond') AS alive
           FROM ${s}.workers WHERE run = $1 ORDER BY started_at`,
        [name],
      )
    ).rows.map((w) => ({ id: w.worker, alive: w.alive }));

  /**
   * The first read of an `open` with `replay`: the run's records in order, each folded into its project's state as
   * the driver hands it over (replayRecord), never all held at once: at 100,000 projects the read
   * above held 300,000 rows, their records and the states together. In the order of the run's
   * index (`records_run`: no sort). The same bookkeeping as `read` for the reads that follow.
   */
  const readReplayed = async (): Promise<JournalContents> => {
    if (!tablesExist || !Query) return read();
    const PgQueryClass = Query;
    // Each try folds from the start (a connection lost midway leaves nothing half-replayed).
    const folded = await persist(async () => {
      const projects = new Map<string, JournalProjectState>();
      let url: string | undefined;
      let upto = settledSeq;
      const unsettled: number[] = [];
      let problem: ValidationError | undefined;
      // One string per worker, not one per record.
      const workerIds = new Map<string, string>();
      const client: PoolClient = await open().connect();
      let workers: JournalWorker[];
      let otherRuns: boolean;
      try {
        workers = await readWorkers(client);
        // Whether the database holds other runs, for otherRuns, which the run asks next.
        otherRuns = (await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${s}.runs WHERE name <> $1) AS any`, [name])).rows[0]?.any === true;
        await new Promise<void>((resolve, reject) => {
          // Rows as arrays (the driver's `rowMode`, which its Query takes as any query does): no object per row.
          const config: QueryArrayConfig = {
            text: `SELECT seq, worker, record, written_at < now() - $3 * interval '1 second' AS settled
                     FROM ${s}.records WHERE run = $1 AND seq > $2 ORDER BY seq`,
            values: [name, settledSeq, SETTLED_AFTER_S],
            rowMode: 'array',
          };
          const query = client.query(new PgQueryClass(config));
          query.on('row', (row: [string, string, unknown, boolean]) => {
            const seq = Number(row[0]);
            if (row[3]) upto = seq;
            else unsettled.push(seq);
            if (problem) return;
            const record = row[2] as JournalRecord;
            const wrong = checkJournalRecord(record);
            if (wrong) {
              problem = new ValidationError([{ path: `journal record ${row[0]}`, message: `${where}: record ${row[0]} ${wrong}; the journal is corrupt` }]);
              return;
            }
            let id = workerIds.get(row[1]);
            if (id === undefined) workerIds.set(row[1], (id = row[1]));
            // The driver parsed this object for this row alone: the worker is written into it, not copied.
            record.worker = id;
            url = replayRecord(record, projects) ?? url;
          });
          query.on('error', reject);
          query.on('end', () => resolve());
        });
      } catch (error) {
        client.release(true); // a connection that failed is not given back to the pool
        throw error;
      }
      client.release();
      if (problem) throw problem;
      return { projects, url, upto, unsettled, workers, otherRuns };
    });
    // As `read`: the records up to `upto` are never asked for again; those after it are remembered as read.
    settledSeq = folded.upto;
    seen = new Set();
    seenLater = folded.unsettled;
    otherRunsSeen = folded.otherRuns;
    return {
      records: [],
      replayed: { ...(folded.url !== undefined && { url: folded.url }), projects: folded.projects },
      warnings: [],
      shared: { worker, workers: folded.workers, heartbeatMs },
    };
  };

  const createTables = () =>
    persist(async () => {
      const client: PoolClient = await open().connect();
      try {
        await client.query('BEGIN');
        // Two workers creating the tables at once would collide in the catalog (a unique
        // violation): one creates, the other waits for it, then finds them.
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('labelkit journal schema'))`);
        for (const sql of schemaSql(s)) await client.query(sql);
        await client.query('COMMIT');
        client.release();
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(true); // a connection that failed is not given back to the pool
        throw error;
      }
    });

  /** The journal's tables: none yet, of an older version (brought up to date when opened for writing), or current; a newer or unknown version is refused. */
  const checkVersion = async (): Promise<'none' | 'older' | 'current'> => {
    // One round trip: the version, or no table at all (its tables are created in one transaction, all or none).
    const rows = await persist(async () => {
      try {
        return (await open().query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'version'`)).rows;
      } catch (error) {
        if (errorCode(error) === '42P01' || errorCode(error) === '3F000') return undefined;
        throw error;
      }
    });
    if (!rows) return 'none';
    const state = versionState(rows[0]?.value);
    if (typeof state === 'object') throw new ValidationError([{ path: 'journal', message: `${where} ${state.problem} (schema ${s})` }]);
    return state;
  };

  /** The leases held now (not free by {@link FREE_LEASE}). */
  const heldLeases = async () => Number((await query<{ held: string }>(`SELECT count(*) AS held FROM ${s}.leases l WHERE run = $1 AND NOT ${FREE_LEASE}`, [name]))[0]?.held ?? 0);
  /** Whether the lease row `l` is free: held by nobody, or by a dead worker without a job (or whose job's hold ran out). */
  const FREE_LEASE = `(l.project_id IS NULL OR (NOT EXISTS (SELECT 1 FROM ${s}.workers w WHERE w.run = l.run AND w.worker = l.worker AND ${LIVE_WORKER})
                      AND (l.job_id IS NULL OR l.hold_until < now())))`;
  /** The run's start bucket now: its tokens, refilled at start_rate a minute since start_at, at most a second's worth (at least 1). */
  const BUCKET = `least(greatest(1, floor(start_rate / 60.0)), start_tokens + greatest(0, extract(epoch FROM clock_timestamp() - start_at)) * start_rate / 60.0)`;

  return {
    async open({ replay = false } = {}) {
      worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
      const { Pool: PgPool, Query: LoadedQuery } = await import('pg');
      Query = LoadedQuery;
      // synchronous_commit on whatever the server's default: a record is durable once written.
      // A connection attempt gives up after 10 s (a host that drops packets), then is tried again within retryMs.
      pool = new PgPool({ connectionString: url, max: options.connections ?? 6, application_name: 'labelkit journal', options: '-c synchronous_commit=on', connectionTimeoutMillis: 10_000 });
      // An idle connection the server drops must not crash the process: the pool forgets it, the next query opens another.
      pool.on('error', () => undefined);
      try {
        if (!options.readOnly) {
          // Tables found (the usual case) cost one check; created, they are checked once after.
          // Tables of an older version are brought up to date (the same statements, under the same lock).
          let tables = await checkVersion();
          if (tables !== 'current') {
            await createTables();
            tables = await checkVersion();
          }
          tablesExist = tables !== 'none';
          await query(
            `WITH run AS (INSERT INTO ${s}.runs (name) VALUES ($1) ON CONFLICT (name) DO NOTHING)
             INSERT INTO ${s}.workers (run, worker, host, pid, heartbeat_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (run, worker) DO NOTHING`,
            [name, worker, hostname(), process.pid, heartbeatMs],
          );
          // One beat at a time: while the database is away, beats do not pile up in the pool's queue.
          let beating = false;
          beat = setInterval(() => {
            if (beating || !pool) return;
            beating = true;
            void pool
              .query(`UPDATE ${s}.workers SET heartbeat_at = now() WHERE run = $1 AND worker = $2`, [name, worker])
              .catch(() => undefined)
              .finally(() => (beating = false));
          }, heartbeatMs);
          beat.unref();
        } else {
          // Read as they are, whatever version this labelkit reads (a dry run changes nothing).
          tablesExist = (await checkVersion()) !== 'none';
        }
        return await (replay ? readReplayed() : read());
      } catch (error) {
        clearInterval(beat);
        await pool.end().catch(() => undefined);
        pool = undefined;
        throw error;
      }
    },
    refresh: read,
    async append(record) {
      if (options.readOnly) throw new Error(`${where} was opened read-only`);
      const { worker: _ignored, ...rest } = record;
      if (rest.type === 'run') {
        // One run, one service, also for workers that start at the same moment (each has checked
        // the records it read, which may not hold the other's yet): the row decides.
        const [run] = await query<{ url: string }>(`UPDATE ${s}.runs SET url = COALESCE(url, $2) WHERE name = $1 RETURNING url`, [name, rest.url]);
        if (run && run.url !== rest.url) {
          throw new ValidationError([{ path: 'journal', message: `the run ${name} is for the service at ${run.url}; this worker uses ${rest.url}: use the same service, or another run name` }]);
        }
      }
      const projectId = rest.type === 'run' ? null : rest.projectId;
      const attempt = rest.type === 'intent' ? (rest.attempt ?? null) : null;
      await insertRecord(record, rest.type, projectId, attempt, rest);
    },
    async claim(intent, claimOptions) {
      if (options.readOnly) throw new Error(`${where} was opened read-only`);
      const { worker: _ignored, ...rest } = intent;
      // One statement, one round trip: the insert, or (when another worker's intent holds the
      // key) that worker, where this statement's snapshot already sees it. The winner removes the
      // project from the run's queue (after its insert: a loser, which waited for the winner's
      // intent, holds no lock of the queue that the winner could wait for).
      let answerLost = false;
      // The records appended meanwhile ride along, and those it follows that another statement has in flight (see carry).
      // A record it names that this journal was not given (a caller's copy) makes it follow them all.
      const named = claimOptions?.after?.map((r) => byRecord.get(r));
      const follows = named?.every((e) => e !== undefined) ? (named as Pending[]) : 'all';
      const carried = carry(6, follows);
      const rows = await carrying(carried.batch, () =>
        persist(async (retrying) => {
          answerLost ||= retrying;
          return (
            await prepared<{ won: boolean; worker: string; mine: boolean }>(
              `WITH carried AS (${carried.sql}),
               ins AS (
                 INSERT INTO ${s}.records (run, worker, type, project_id, attempt, record) VALUES ($1, $2, 'intent', $3, $4, $5)
                 ON CONFLICT (run, project_id, attempt) WHERE type = 'intent' DO NOTHING RETURNING worker)
               , taken AS (DELETE FROM ${s}.queue WHERE run = $1 AND project_id = $3 AND attempt <= $4 AND EXISTS (SELECT 1 FROM ins))
               SELECT true AS won, worker, true AS mine FROM ins
               UNION ALL
               SELECT false, worker, record = $5::jsonb FROM ${s}.records
                WHERE run = $1 AND type = 'intent' AND project_id = $3 AND attempt = $4 AND NOT EXISTS (SELECT 1 FROM ins)`,
              [name, worker, intent.projectId, intent.attempt, rest, ...carried.values],
            )
          ).rows;
        }),
      );
      // An earlier try of this claim whose answer was lost had committed it: this worker's intent,
      // this very record, holds the key.
      if (rows[0]?.won || (answerLost && rows[0]?.worker === worker && rows[0].mine)) return { won: true };
      return { won: false, ...(rows[0] && { holder: rows[0].worker }) };
    },
    async claims() {
      if (!tablesExist) return new Map();
      const rows = await query<{ project_id: string; attempt: number; worker: string }>(
        `SELECT DISTINCT ON (project_id) project_id, attempt, worker FROM ${s}.records
          WHERE run = $1 AND type = 'intent' ORDER BY project_id, attempt DESC`,
        [name],
      );
      return new Map(rows.map((r) => [r.project_id, { attempt: r.attempt, worker: r.worker }]));
    },
    async otherRuns(projectIds) {
      if (!tablesExist || projectIds.length === 0) return [];
      // By project through the intents' index (as many lookups as this run has projects, whatever
      // the database holds), and none at all where no other run exists. Where `open` saw other runs
      // already, the statement goes out at once (the run asks before it builds its worklist, so the
      // database answers meanwhile).
      if (!otherRunsSeen) {
        const [other] = await query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${s}.runs WHERE name <> $1) AS any`, [name]);
        if (!other?.any) return [];
      }
      const rows = await query<{ run: string; projects: string }>(
        `SELECT r.run, count(DISTINCT r.project_id) AS projects FROM unnest($2::text[]) AS p(id)
           JOIN ${s}.records r ON r.type = 'intent' AND r.project_id = p.id AND r.run <> $1
          GROUP BY r.run ORDER BY count(DISTINCT r.project_id) DESC, r.run`,
        [name, projectIds],
      );
      return rows.map((r) => ({ run: r.run, projects: Number(r.projects) }));
    },
    async prune(olderThanMs, { dryRun = false } = {}) {
      if (!tablesExist) return [];
      // A run is old when nothing of it moved for olderThanMs: its last record, its workers' last
      // beat, its creation; one with a live worker is never old. This journal's own run is kept.
      const runs = await query<{ name: string; last_at: Date }>(
        `SELECT name, last_at FROM (
           SELECT r.name, greatest(r.created_at,
                    (SELECT written_at FROM ${s}.records WHERE run = r.name ORDER BY seq DESC LIMIT 1),
                    (SELECT max(heartbeat_at) FROM ${s}.workers WHERE run = r.name)) AS last_at,
                  EXISTS (SELECT 1 FROM ${s}.workers w WHERE w.run = r.name AND w.ended_at IS NULL
                           AND w.heartbeat_at > now() - 3 * w.heartbeat_ms * interval '1 millisecond') AS live
             FROM ${s}.runs r WHERE r.name <> $2) runs
          WHERE NOT live AND last_at < now() - $1 * interval '1 millisecond'
          ORDER BY last_at, name`,
        [olderThanMs, name],
      );
      const pruned: PrunedRun[] = [];
      for (const run of runs) {
        if (dryRun) {
          const [count] = await query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.records WHERE run = $1`, [run.name]);
          pruned.push({ run: run.name, lastAt: run.last_at.toISOString(), records: Number(count?.n ?? 0) });
          continue;
        }
        // One transaction a run: its queue, leases, records, workers, then the run.
        const records = await persist(async () => {
          const client: PoolClient = await open().connect();
          try {
            await client.query('BEGIN');
            await client.query(`DELETE FROM ${s}.queue WHERE run = $1`, [run.name]);
            await client.query(`DELETE FROM ${s}.meta WHERE left(key, length($1)) = $1`, [loadedKey(run.name, '')]);
            await client.query(`DELETE FROM ${s}.leases WHERE run = $1`, [run.name]);
            const gone = await client.query(`DELETE FROM ${s}.records WHERE run = $1`, [run.name]);
            await client.query(`DELETE FROM ${s}.workers WHERE run = $1`, [run.name]);
            await client.query(`DELETE FROM ${s}.runs WHERE name = $1`, [run.name]);
            await client.query('COMMIT');
            client.release();
            return gone.rowCount ?? 0;
          } catch (error) {
            await client.query('ROLLBACK').catch(() => undefined);
            client.release(true);
            throw error;
          }
        });
        pruned.push({ run: run.name, lastAt: run.last_at.toISOString(), records });
      }
      return pruned;
    },
    queue: {
      async load(projectIds, projects) {
        if (options.readOnly) throw new Error(`${where} was opened read-only`);
        // Workers given the same projects (in any order) share one list; a worker given others has its own.
        const digest = createHash('sha256');
        for (const id of [...projectIds].sort()) digest.update(`${id}\n`);
        const list = digest.digest('base64url').slice(0, 22);
        // A project already queued (the first worker loaded it) or already claimed is left as it is.
        // The statement that loads the list's last part also marks it loaded in `meta` (after every
        // part before it committed): every project of the list that had no intent was queued then,
        // at attempt 1, and no project loses its intents. A worker that joins later finds the mark
        // with its first part and sends only its retries (attempt 2 and on, by --retry-failed or
        // --retry-unknown): at 100,000 projects one statement, not twenty that each re-check 5,000.
        const mark = loadedKey(name, list);
        let loaded = false;
        for (let from = 0; from < projects.length; from += LOAD_BATCH) {
          let part = projects.slice(from, from + LOAD_BATCH);
          if (loaded) part = part.filter((p) => p.attempt > 1);
          if (part.length === 0) continue;
          const [row]: { loaded: boolean }[] = await query<{ loaded: boolean }>(
            `WITH mark AS (SELECT EXISTS (SELECT 1 FROM ${s}.meta WHERE key = $6) AS loaded),
             ins AS (
               INSERT INTO ${s}.queue (run, list, project_id, attempt, pos)
               SELECT $1, $2, x.project_id, x.attempt, x.pos FROM unnest($3::text[], $4::int[], $5::int[]) AS x(project_id, attempt, pos), mark
                WHERE (NOT mark.loaded OR x.attempt > 1)
                  AND NOT EXISTS (SELECT 1 FROM ${s}.records r WHERE r.run = $1 AND r.type = 'intent' AND r.project_id = x.project_id AND r.attempt >= x.attempt)
                -- One order for every worker loading at once (each waits for the other's rows of the same key): no deadlock.
                ORDER BY x.project_id, x.attempt
               ON CONFLICT DO NOTHING),
             marked AS (INSERT INTO ${s}.meta (key, value) SELECT $6, now()::text WHERE $7 ON CONFLICT (key) DO NOTHING)
             SELECT loaded FROM mark`,
            [name, list, part.map((p) => p.projectId), part.map((p) => p.attempt), part.map((_, i) => from + i), mark, !loaded && from + LOAD_BATCH >= projects.length],
          );
          loaded ||= row?.loaded === true;
        }
        return list;
      },
      async take(list, max) {
        if (options.readOnly) throw new Error(`${where} was opened read-only`);
        return persist(async (retrying) => {
          if (retrying) {
            // An earlier try may have taken some before its answer was lost: those first.
            const mine = await open().query<QueuedProject>(
              `SELECT project_id AS "projectId", attempt FROM ${s}.queue WHERE run = $1 AND list = $2 AND worker = $3 ORDER BY pos`,
              [name, list, worker],
            );
            const fresh = mine.rows.filter((p) => !taken.has(`${p.projectId}\u0000${p.attempt}`));
            if (fresh.length > 0) {
              for (const p of fresh) taken.add(`${p.projectId}\u0000${p.attempt}`);
              return fresh;
            }
          }
          // One statement: the next free rows of the list (or those a dead worker took and never
          // claimed), locked and skipped by any other worker taking at the same moment.
          const rows = await open().query<QueuedProject>(
            `WITH dead AS (
               SELECT worker FROM ${s}.workers
                WHERE run = $1 AND NOT (ended_at IS NULL AND heartbeat_at > now() - 3 * heartbeat_ms * interval '1 millisecond')),
             next AS (
               SELECT project_id, attempt FROM ${s}.queue q
                WHERE run = $1 AND list = $2 AND (worker IS NULL OR worker IN (SELECT worker FROM dead))
                  -- A late load may queue again a project whose claim committed while it ran: not taken.
                  AND NOT EXISTS (SELECT 1 FROM ${s}.records r WHERE r.run = $1 AND r.type = 'intent' AND r.project_id = q.project_id AND r.attempt >= q.attempt)
                ORDER BY pos LIMIT $4 FOR UPDATE SKIP LOCKED)
             UPDATE ${s}.queue q SET worker = $3, taken_at = now() FROM next
              WHERE q.run = $1 AND q.list = $2 AND q.project_id = next.project_id AND q.attempt = next.attempt
             RETURNING q.project_id AS "projectId", q.attempt`,
            [name, list, worker, max],
          );
          for (const p of rows.rows) taken.add(`${p.projectId}\u0000${p.attempt}`);
          return rows.rows;
        });
      },
      async takers(projects) {
        if (projects.length === 0) return new Map();
        const rows = await query<{ projectId: string; worker: string }>(
          `SELECT q.project_id AS "projectId", q.worker FROM ${s}.queue q
            JOIN unnest($2::text[], $3::int[]) AS x(project_id, attempt) ON q.project_id = x.project_id AND q.attempt = x.attempt
           WHERE q.run = $1 AND q.worker IS NOT NULL AND q.worker <> $4`,
          [name, projects.map((p) => p.projectId), projects.map((p) => p.attempt), worker],
        );
        return new Map(rows.map((r) => [r.projectId, r.worker]));
      },
    },
    limits: {
      async setup(wanted) {
        if (!tablesExist) return wanted;
        type Row = { max_running: number | null; start_rate: number | null };
        // The first worker that gives a limit fixes it for the run (the bucket starts full); a
        // read-only worker (a dry run) only reads.
        const [run] = options.readOnly
          ? await query<Row>(`SELECT max_running, start_rate FROM ${s}.runs WHERE name = $1`, [name])
          : await query<Row>(
              `UPDATE ${s}.runs SET max_running = COALESCE(max_running, $2), start_rate = COALESCE(start_rate, $3),
                      start_tokens = COALESCE(start_tokens, CASE WHEN $3::int IS NULL THEN NULL ELSE greatest(1, floor($3::int / 60.0)) END),
                      start_at = COALESCE(start_at, CASE WHEN $3::int IS NULL THEN NULL ELSE clock_timestamp() END)
                WHERE name = $1 RETURNING max_running, start_rate`,
              [name, wanted.maxRunning ?? null, wanted.maxStartsPerMinute ?? null],
            );
        const held = { ...(run?.max_running != null && { maxRunning: run.max_running }), ...(run?.start_rate != null && { maxStartsPerMinute: run.start_rate }) };
        if (!options.readOnly && held.maxRunning !== undefined) {
          await query(`INSERT INTO ${s}.leases (run, slot) SELECT $1, generate_series(1, $2::int) ON CONFLICT DO NOTHING`, [name, held.maxRunning]);
        }
        return held;
      },
      async take(projectId) {
        if (options.readOnly) throw new Error(`${where} was opened read-only`);
        return persist(async (retrying) => {
          if (retrying) {
            // An earlier try may have taken it before its answer was lost.
            const mine = await open().query(`SELECT 1 FROM ${s}.leases WHERE run = $1 AND project_id = $2 AND worker = $3`, [name, projectId, worker]);
            if ((mine.rowCount ?? 0) > 0) return { taken: true, running: await heldLeases() };
          }
          // One statement: a free slot (or a dead worker's without a job, or whose job's hold
          // ran out), locked and skipped by any other worker taking at the same moment. The count
          // beside it is as the statement's snapshot saw it (a display).
          const rows = await open().query<{ slot: number | null; held: string }>(
            `WITH free AS (
               SELECT slot FROM ${s}.leases l WHERE run = $1 AND ${FREE_LEASE} ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED),
             took AS (
               UPDATE ${s}.leases l SET project_id = $2, worker = $3, job_id = NULL, hold_until = NULL FROM free
                WHERE l.run = $1 AND l.slot = free.slot RETURNING l.slot)
             SELECT (SELECT slot FROM took) AS slot, (SELECT count(*) FROM ${s}.leases l WHERE run = $1 AND NOT ${FREE_LEASE}) AS held`,
            [name, projectId, worker],
          );
          const row = rows.rows[0];
          const taken = row?.slot != null;
          return { taken, running: Number(row?.held ?? 0) + (taken ? 1 : 0) };
        });
      },
      async handOver(fromProjectId, toProjectId) {
        if (options.readOnly) throw new Error(`${where} was opened read-only`);
        return persist(async (retrying) => {
          if (retrying) {
            // An earlier try may have moved it before its answer was lost.
            const mine = await open().query(`SELECT 1 FROM ${s}.leases WHERE run = $1 AND project_id = $2 AND worker = $3`, [name, toProjectId, worker]);
            if ((mine.rowCount ?? 0) > 0) return { taken: true, running: await heldLeases() };
          }
          // One statement: the slot stays held (by this worker, for the next project, its job not
          // yet started); no other worker's take comes between. The count is the statement's snapshot's.
          const rows = await open().query<{ slot: number | null; held: string }>(
            `WITH moved AS (
               UPDATE ${s}.leases SET project_id = $3, job_id = NULL, hold_until = NULL
                WHERE run = $1 AND project_id = $2 AND worker = $4 RETURNING slot)
             SELECT (SELECT min(slot) FROM moved) AS slot, (SELECT count(*) FROM ${s}.leases l WHERE run = $1 AND NOT ${FREE_LEASE}) AS held`,
            [name, fromProjectId, toProjectId, worker],
          );
          const row = rows.rows[0];
          return { taken: row?.slot != null, running: Number(row?.held ?? 0) };
        });
      },
      async started(projectId, jobId, holdMs) {
        await query(`UPDATE ${s}.leases SET job_id = $3, hold_until = now() + $4 * interval '1 millisecond' WHERE run = $1 AND project_id = $2`, [name, projectId, jobId, holdMs]);
      },
      async adopt(projectIds, holdMs) {
        if (projectIds.length === 0) return;
        await query(
          // A lease still without its job's mark (its worker died before marking it) is the job's now too.
          `UPDATE ${s}.leases SET worker = $2, job_id = COALESCE(job_id, 'taken over'), hold_until = now() + $4 * interval '1 millisecond'
            WHERE run = $1 AND project_id = ANY($3::text[])`,
          [name, worker, projectIds, holdMs],
        );
      },
      async give(projectId) {
        const rows = await query<{ held: string }>(
          `WITH gone AS (UPDATE ${s}.leases SET project_id = NULL, worker = NULL, job_id = NULL, hold_until = NULL WHERE run = $1 AND project_id = $2 RETURNING slot)
           SELECT (SELECT count(*) FROM ${s}.leases l WHERE run = $1 AND NOT ${FREE_LEASE}) - (SELECT count(*) FROM gone) AS held`,
          [name, projectId],
        );
        return { running: Math.max(0, Number(rows[0]?.held ?? 0)) };
      },
      running: () => (tablesExist ? heldLeases() : Promise.resolve(0)),
      async startToken() {
        // The run's bucket, refilled by the database's clock: one statement takes a token (the
        // row's lock orders workers taking at once; each sees the tokens the one before left) or
        // says when the next one is due.
        const rows = await query<{ wait_ms: number }>(
          `WITH took AS (
             UPDATE ${s}.runs SET start_tokens = ${BUCKET} - 1, start_at = clock_timestamp()
              WHERE name = $1 AND start_rate IS NOT NULL AND ${BUCKET} >= 1 RETURNING 0 AS wait_ms)
           SELECT wait_ms FROM took
           UNION ALL
           SELECT CASE WHEN start_rate IS NULL THEN 0 ELSE ceil((1 - ${BUCKET}) * 60000.0 / start_rate)::int END FROM ${s}.runs
            WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM took)`,
          [name],
        );
        return Math.max(0, Number(rows[0]?.wait_ms ?? 0));
      },
    },
    async close() {
      clearInterval(beat);
      beat = undefined;
      const opened = pool;
      if (!opened) return;
      // Records still waiting are written first (their appends resolve or reject as usual).
      flush();
      await Promise.all(flushes);
      try {
        // Tried once: a database gone at the end costs no wait (the heartbeat lapses instead).
        if (!options.readOnly) await untilStopped(opened.query(`UPDATE ${s}.workers SET ended_at = now() WHERE run = $1 AND worker = $2`, [name, worker]), STOP_GRACE_MS).catch(() => undefined);
      } finally {
        pool = undefined;
        // A stopped run does not wait for a connection that does not answer.
        await untilStopped(opened.end(), STOP_GRACE_MS).catch(() => undefined);
      }
    },
  };
}
