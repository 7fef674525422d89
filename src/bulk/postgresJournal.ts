import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LabelkitError, ValidationError } from 'labelkit';
import type { ValidationProblem } from 'labelkit';
import type { Pool, PoolClient } from 'pg';
import { classifyDatabaseFailure, errorCode } from '../shared/classify.js';
import { HEARTBEAT_MS, STOP_GRACE_MS } from '../shared/constants.js';
import { onAbort } from '../shared/onAbort.js';
import { redact, redactUrl, urlSecrets } from '../shared/redact.js';
import { checkJournalRecord } from './journal.js';
import type { Journal, JournalContents, JournalRecord, JournalWorker } from './journal.js';

/** The version of the journal's tables; a database holding a later one is refused. */
export const POSTGRES_JOURNAL_VERSION = 1;

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

/** The SQL that creates the tables (every statement idempotent), run under an advisory lock. */
function schemaSql(s: string): string[] {
  return [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE IF NOT EXISTS ${s}.meta (key text PRIMARY KEY, value text NOT NULL)`,
    `INSERT INTO ${s}.meta (key, value) VALUES ('version', '${POSTGRES_JOURNAL_VERSION}') ON CONFLICT (key) DO NOTHING`,
    // `url`: the service of the run, fixed by the first worker that writes its `run` record.
    `CREATE TABLE IF NOT EXISTS ${s}.runs (name text PRIMARY KEY, url text, created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE IF NOT EXISTS ${s}.workers (
       run text NOT NULL REFERENCES ${s}.runs (name), worker text NOT NULL, host text NOT NULL, pid integer NOT NULL,
       heartbeat_ms integer NOT NULL, started_at timestamptz NOT NULL DEFAULT now(),
       heartbeat_at timestamptz NOT NULL DEFAULT now(), ended_at timestamptz, PRIMARY KEY (run, worker))`,
    `CREATE TABLE IF NOT EXISTS ${s}.records (
       seq bigserial PRIMARY KEY, run text NOT NULL REFERENCES ${s}.runs (name), worker text NOT NULL,
       type text NOT NULL, project_id text, attempt integer, record jsonb NOT NULL,
       written_at timestamptz NOT NULL DEFAULT now())`,
    // The claim: one intent per (run, project, attempt), whoever inserts it.
    `CREATE UNIQUE INDEX IF NOT EXISTS records_claim ON ${s}.records (run, project_id, attempt) WHERE type = 'intent'`,
    `CREATE INDEX IF NOT EXISTS records_run ON ${s}.records (run, seq)`,
  ];
}

/**
 * The journal in a PostgreSQL database, shared by any number of workers on any number of hosts:
 * each claim is a committed row with a unique key, so no project is ever started twice.
 *
 * @param options - the database URL, the run's name; see {@link PostgresJournalOptions}
 * @returns a {@link Journal} for `autoLabelMany`, with `claim` and `refresh`
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
export function openPostgresJournal(options: PostgresJournalOptions): Journal {
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

  /** What someone has to create or grant for a `setup` failure. */
  const whatToCreate = (code: string | undefined): string => {
    if (code === '3D000') return 'create the database (createdb, or CREATE DATABASE as its owner), or name one that exists in --journal';
    return (
      `the user ${user} may not create or write the journal's tables: once, as an owner, create them for it (CREATE SCHEMA ${s} AUTHORIZATION ${user}; or GRANT CREATE ON DATABASE to ${user}), ` +
      `or, where the schema ${s} exists, GRANT USAGE ON SCHEMA ${s} and SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA ${s} (and its sequences) to ${user}`
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

  /** What {@link untilStopped} rejects with once the run's stop has given up on a call. */
  const STOPPED = Symbol('stopped');
  /**
   * A call as the run's stop allows it: as it is, until `signal` is aborted; then at most
   * `graceMs` more (it rejects with {@link STOPPED}; the call goes on unobserved).
   */
  const untilStopped = <T>(call: Promise<T>, graceMs: number): Promise<T> => {
    const signal = options.signal;
    if (!signal) return call;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopWaiting = () => undefined as void;
    const given = new Promise<never>((_, reject) => {
      const giveUp = () => void (timer = setTimeout(() => reject(STOPPED), graceMs));
      // One listener on the signal however many calls are in flight (shared/onAbort).
      if (signal.aborted) giveUp();
      else stopWaiting = onAbort(signal, giveUp);
    });
    call.catch(() => undefined);
    return Promise.race([call, given]).finally(() => {
      clearTimeout(timer);
      stopWaiting();
    });
  };
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
    for (let retrying = false; ; retrying = true) {
      try {
        const result = await untilStopped(step(retrying), STOP_GRACE_MS);
        back();
        return result;
      } catch (error) {
        if (error === STOPPED) stopped();
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

  /**
   * Writes one record exactly once: after a connection failure (the insert may have committed
   * before the answer was lost) it looks for the record first, by this worker, type, project
   * and content, which hold the time to the millisecond.
   */
  const insertRecord = (type: string, projectId: string | null, attempt: number | null, record: Record<string, unknown>) =>
    persist(async (retrying) => {
      if (retrying) {
        const found = await open().query(
          `SELECT 1 FROM ${s}.records WHERE run = $1 AND worker = $2 AND type = $3 AND project_id IS NOT DISTINCT FROM $4 AND record = $5::jsonb LIMIT 1`,
          [name, worker, type, projectId, record],
        );
        if ((found.rowCount ?? 0) > 0) return;
      }
      await open().query(`INSERT INTO ${s}.records (run, worker, type, project_id, attempt, record) VALUES ($1, $2, $3, $4, $5, $6)`, [name, worker, type, projectId, attempt, record]);
    });

  const read = async (): Promise<JournalContents> => {
    if (!tablesExist) return { records: [], warnings: [], shared: { worker, workers: [], heartbeatMs } };
    const rows = await query<{ seq: string; worker: string; record: unknown }>(`SELECT seq, worker, record FROM ${s}.records WHERE run = $1 ORDER BY seq`, [name]);
    const records: JournalRecord[] = [];
    for (const row of rows) {
      const problem = checkJournalRecord(row.record);
      if (problem) throw new ValidationError([{ path: `journal record ${row.seq}`, message: `${where}: record ${row.seq} ${problem}; the journal is corrupt` }]);
      records.push({ ...(row.record as JournalRecord), worker: row.worker });
    }
    const workers = await query<{ id: string; alive: boolean }>(
      `SELECT worker AS id, (ended_at IS NULL AND heartbeat_at > now() - 3 * heartbeat_ms * interval '1 millisecond') AS alive
         FROM ${s}.workers WHERE run = $1 ORDER BY started_at`,
      [name],
    );
    return { records, warnings: [], shared: { worker, workers: workers.map((w): JournalWorker => ({ id: w.id, alive: w.alive })), heartbeatMs } };
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

  const checkVersion = async () => {
    const [exists] = await query<{ meta: string | null; records: string | null }>(`SELECT to_regclass($1) AS meta, to_regclass($2) AS records`, [`${s}.meta`, `${s}.records`]);
    if (!exists?.meta || !exists.records) return false;
    const [row] = await query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'version'`);
    const version = Number(row?.value);
    if (!(version >= 1 && version <= POSTGRES_JOURNAL_VERSION)) {
      throw new ValidationError([{ path: 'journal', message: `${where} holds tables of version ${row?.value ?? 'none'} in the schema ${s}; this labelkit knows version ${POSTGRES_JOURNAL_VERSION}: use the labelkit that wrote them, or another schema` }]);
    }
    return true;
  };

  return {
    async open() {
      worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
      const { Pool: PgPool } = await import('pg');
      // synchronous_commit on whatever the server's default: a record is durable once written.
      // A connection attempt gives up after 10 s (a host that drops packets), then is tried again within retryMs.
      pool = new PgPool({ connectionString: url, max: options.connections ?? 6, application_name: 'labelkit journal', options: '-c synchronous_commit=on', connectionTimeoutMillis: 10_000 });
      // An idle connection the server drops must not crash the process: the pool forgets it, the next query opens another.
      pool.on('error', () => undefined);
      try {
        if (!options.readOnly) {
          // Tables found (the usual case) cost one check; created, they are checked once after.
          tablesExist = (await checkVersion()) || ((await createTables()), await checkVersion());
          await query(`INSERT INTO ${s}.runs (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
          await query(`INSERT INTO ${s}.workers (run, worker, host, pid, heartbeat_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (run, worker) DO NOTHING`, [name, worker, hostname(), process.pid, heartbeatMs]);
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
          tablesExist = await checkVersion();
        }
        return await read();
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
      await insertRecord(rest.type, projectId, attempt, rest);
    },
    async claim(intent) {
      if (options.readOnly) throw new Error(`${where} was opened read-only`);
      const { worker: _ignored, ...rest } = intent;
      // One statement, one round trip: the insert, or (when another worker's intent holds the
      // key) that worker, where this statement's snapshot already sees it.
      let answerLost = false;
      const rows = await persist(async (retrying) => {
        answerLost ||= retrying;
        return (
          await open().query<{ won: boolean; worker: string; mine: boolean }>(
            `WITH ins AS (
               INSERT INTO ${s}.records (run, worker, type, project_id, attempt, record) VALUES ($1, $2, 'intent', $3, $4, $5)
               ON CONFLICT (run, project_id, attempt) WHERE type = 'intent' DO NOTHING RETURNING worker)
             SELECT true AS won, worker, true AS mine FROM ins
             UNION ALL
             SELECT false, worker, record = $5::jsonb FROM ${s}.records
              WHERE run = $1 AND type = 'intent' AND project_id = $3 AND attempt = $4 AND NOT EXISTS (SELECT 1 FROM ins)`,
            [name, worker, intent.projectId, intent.attempt, rest],
          )
        ).rows;
      });
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
      const rows = await query<{ run: string; projects: string }>(
        `SELECT run, count(DISTINCT project_id) AS projects FROM ${s}.records
          WHERE type = 'intent' AND run <> $1 AND project_id = ANY($2::text[])
          GROUP BY run ORDER BY count(DISTINCT project_id) DESC, run`,
        [name, projectIds],
      );
      return rows.map((r) => ({ run: r.run, projects: Number(r.projects) }));
    },
    async close() {
      clearInterval(beat);
      beat = undefined;
      const opened = pool;
      if (!opened) return;
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
