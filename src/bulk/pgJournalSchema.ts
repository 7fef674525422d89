/**
 * The PostgreSQL journal's tables, by version. Version 1 (the first): runs, workers, records with
 * one intent per (run, project, attempt). Version 2 adds what many workers over a large run need:
 * a record id made by the client (an append tried again after a lost answer is one
 * `ON CONFLICT DO NOTHING`, no search for a duplicate), an index of intents by project (another
 * run's claims are found by project, not by reading every run), and the queue of a run's projects
 * that workers take in batches with `FOR UPDATE SKIP LOCKED`. Version 3 adds the run's limits
 * across its workers: `--max-running` (a lease table of one row per slot, a slot taken with
 * `FOR UPDATE SKIP LOCKED`) and `--max-starts-per-minute` (a token bucket in the run's row, filled
 * by the database's clock).
 */

/** The version of the journal's tables; a database holding a later one is refused. */
export const POSTGRES_JOURNAL_VERSION = 3;

/**
 * The SQL that creates the tables of {@link POSTGRES_JOURNAL_VERSION}, or brings those of an
 * earlier version up to it: every statement idempotent, run in one transaction under an advisory
 * lock (two workers starting together do not collide in the catalog).
 *
 * @param s - the schema (a checked SQL identifier)
 * @returns the statements, in order
 */
export function schemaSql(s: string): string[] {
  return [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE IF NOT EXISTS ${s}.meta (key text PRIMARY KEY, value text NOT NULL)`,
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
    // Version 2. The record's id, made by the client: an append is written once however often it is sent.
    `ALTER TABLE ${s}.records ADD COLUMN IF NOT EXISTS rid text`,
    `CREATE UNIQUE INDEX IF NOT EXISTS records_rid ON ${s}.records (run, rid)`,
    // Other runs' claims of some projects, found by project.
    `CREATE INDEX IF NOT EXISTS records_intent_project ON ${s}.records (project_id, run) WHERE type = 'intent'`,
    // The projects a run has still to claim: taken by a worker (`worker`), deleted by the claim of its intent.
    `CREATE TABLE IF NOT EXISTS ${s}.queue (
       run text NOT NULL, project_id text NOT NULL, attempt integer NOT NULL, list text NOT NULL,
       pos integer NOT NULL, worker text, taken_at timestamptz, PRIMARY KEY (run, project_id, attempt, list))`,
    `CREATE INDEX IF NOT EXISTS queue_next ON ${s}.queue (run, list, pos)`,
    // Version 3. The run's limits, fixed by its first worker that gives them (the others must give the same).
    `ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS max_running integer`,
    `ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS start_rate integer`,
    // The start bucket: tokens left at start_at (refilled at start_rate a minute, judged by the database's clock).
    `ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS start_tokens double precision`,
    `ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS start_at timestamptz`,
    // A lease per slot (max_running of them): free, or held for a project by a worker (with its job once started,
    // held until hold_until when that worker died). A dead worker's lease without a job is free again.
    `CREATE TABLE IF NOT EXISTS ${s}.leases (
       run text NOT NULL, slot integer NOT NULL, project_id text, worker text, job_id text, hold_until timestamptz,
       PRIMARY KEY (run, slot))`,
    `INSERT INTO ${s}.meta (key, value) VALUES ('version', '${POSTGRES_JOURNAL_VERSION}') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
  ];
}

/**
 * What a version read from the journal's `meta` table means for this labelkit.
 *
 * @param value - the stored version text (undefined: none stored)
 * @returns `current`, `older` (brought up to date when opened for writing; readable as it is), or the problem's words
 */
export function versionState(value: string | undefined): 'current' | 'older' | { problem: string } {
  const version = Number(value);
  if (version === POSTGRES_JOURNAL_VERSION) return 'current';
  if (Number.isInteger(version) && version >= 1 && version < POSTGRES_JOURNAL_VERSION) return 'older';
  if (Number.isInteger(version) && version > POSTGRES_JOURNAL_VERSION) {
    return { problem: `holds journal tables of version ${version}, newer than this labelkit's version ${POSTGRES_JOURNAL_VERSION}: run a labelkit that knows version ${version} (upgrade labelkit-tools)` };
  }
  return { problem: `holds tables of an unknown version (${value ?? 'none'}); this labelkit knows versions 1 to ${POSTGRES_JOURNAL_VERSION}: use another schema or database for the journal` };
}
