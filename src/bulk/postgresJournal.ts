import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LabelkitError, ValidationError } from 'labelkit';
import type { ValidationProblem } from 'labelkit';
import type { Pool, PoolClient } from 'pg';
import { errorCode } from '../shared/classify.js';
import { HEARTBEAT_MS } from '../shared/constants.js';
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
}

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
 * @throws {@link ValidationError} (synchronously) for a bad URL, name or option, naming each
 * @remarks The driver (`pg`) is loaded on `open`, so `labelkit-tools/bulk` needs no database
 * otherwise. On first use the tables are created in their own schema (`labelkit_journal`) under
 * an advisory lock, so that workers starting together do not fail, and carry a version
 * ({@link POSTGRES_JOURNAL_VERSION}). Each worker has a row with its host, pid and heartbeat
 * (every `heartbeatMs`, judged by the database's clock: dead after three missed beats or once it
 * closed the journal). A record holds no secret (the same records as the file journal; errors
 * redacted), and every error this journal throws has the URL's password redacted. Statements run
 * one by one in autocommit with `synchronous_commit` on: a record is durable when its promise
 * resolves.
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
  // A new id at each open: a worker is one open journal.
  let worker = '';
  const secrets = [...urlSecrets(url), process.env.PGPASSWORD];
  const where = `the PostgreSQL journal ${displayDatabaseUrl(url)} (run ${name})`;
  let pool: Pool | undefined;
  let beat: ReturnType<typeof setInterval> | undefined;
  let tablesExist = false;

  /**
   * An error of the database as this journal tells it: where, and never the password. A server
   * that cannot be reached (or that dropped the connection) is a labelkit error of code
   * `NETWORK` (the CLI's exit 4); anything else (a refused login, a missing permission) is an
   * Error with the server's words.
   */
  const fail = (error: unknown): never => {
    if (error instanceof ValidationError) throw error;
    const message = error instanceof Error ? error.message : '';
    const code = errorCode(error);
    const text = redact(`${where}: ${message || code || String(error)}`, secrets);
    const unreachable = code !== undefined && (/^(E[A-Z]+|08...|57P0[1-3])$/.test(code) || /timeout|terminated/i.test(message));
    throw unreachable ? new LabelkitError('NETWORK', `[Network] ${text}`, { secrets }) : new Error(text);
  };
  const query = async <R extends Record<string, unknown>>(sql: string, values: unknown[] = []) => {
    if (!pool) throw new Error(`${where} is not open`);
    return (await pool.query<R>(sql, values).catch(fail)).rows;
  };

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

  const createTables = async () => {
    let client: PoolClient | undefined;
    try {
      client = await pool!.connect();
      await client.query('BEGIN');
      // Two workers creating the tables at once would collide in the catalog (a unique
      // violation): one creates, the other waits for it, then finds them.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('labelkit journal schema'))`);
      for (const sql of schemaSql(s)) await client.query(sql);
      await client.query('COMMIT');
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      fail(error);
    } finally {
      client?.release();
    }
  };

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
      pool = new PgPool({ connectionString: url, max: options.connections ?? 6, application_name: 'labelkit journal', options: '-c synchronous_commit=on' });
      // An idle connection the server drops must not crash the process: the next query fails, named.
      pool.on('error', () => undefined);
      try {
        if (!options.readOnly) {
          // Tables found (the usual case) cost one check; created, they are checked once after.
          tablesExist = (await checkVersion()) || ((await createTables()), await checkVersion());
          await query(`INSERT INTO ${s}.runs (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
          await query(`INSERT INTO ${s}.workers (run, worker, host, pid, heartbeat_ms) VALUES ($1, $2, $3, $4, $5)`, [name, worker, hostname(), process.pid, heartbeatMs]);
          beat = setInterval(() => {
            void pool?.query(`UPDATE ${s}.workers SET heartbeat_at = now() WHERE run = $1 AND worker = $2`, [name, worker]).catch(() => undefined);
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
      await query(`INSERT INTO ${s}.records (run, worker, type, project_id, attempt, record) VALUES ($1, $2, $3, $4, $5, $6)`, [name, worker, rest.type, projectId, attempt, rest]);
    },
    async claim(intent) {
      if (options.readOnly) throw new Error(`${where} was opened read-only`);
      const { worker: _ignored, ...rest } = intent;
      // One statement, one round trip: the insert, or (when another worker's intent holds the
      // key) that worker, where this statement's snapshot already sees it.
      const rows = await query<{ won: boolean; worker: string }>(
        `WITH ins AS (
           INSERT INTO ${s}.records (run, worker, type, project_id, attempt, record) VALUES ($1, $2, 'intent', $3, $4, $5)
           ON CONFLICT (run, project_id, attempt) WHERE type = 'intent' DO NOTHING RETURNING worker)
         SELECT true AS won, worker FROM ins
         UNION ALL
         SELECT false, worker FROM ${s}.records
          WHERE run = $1 AND type = 'intent' AND project_id = $3 AND attempt = $4 AND NOT EXISTS (SELECT 1 FROM ins)`,
        [name, worker, intent.projectId, intent.attempt, rest],
      );
      if (rows[0]?.won) return { won: true };
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
    async close() {
      clearInterval(beat);
      beat = undefined;
      const open = pool;
      if (!open) return;
      try {
        if (!options.readOnly) await open.query(`UPDATE ${s}.workers SET ended_at = now() WHERE run = $1 AND worker = $2`, [name, worker]).catch(() => undefined);
      } finally {
        pool = undefined;
        await open.end().catch(() => undefined);
      }
    },
  };
}
