import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isCi } from './testEnvironment.js';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

const run = promisify(execFile);

/**
 * How to stop each cluster still running, synchronously: a test process that ends without
 * close() (a crashed worker, an uncaught error) stops them on its way out rather than leave them
 * running with no one to stop them. One listener, added when this module loads (so that the
 * shared-process guard sees the same count before and after every file).
 */
const stopAtExit = new Set<() => void>();
process.on('exit', () => {
  for (const stop of stopAtExit) stop();
});

/** What a test may do to a cluster of its own (not to one named by `LABELKIT_TEST_PG_URL`). */
export interface TestCluster {
  /** `pg_ctl restart -m immediate` (a crash and recovery, as a power cut): resolves once it accepts connections again. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m immediate`. */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port. */
  start(): Promise<void>;
  /** Puts a line first in pg_hba.conf (e.g. a password rule for one user) and reloads. */
  hbaFirst(line: string): Promise<void>;
}

/** A PostgreSQL server for tests: `url` to use, or `skip` saying why there is none. */
export type TestPostgres =
  | { url: string; skip?: undefined; close(): Promise<void>; cluster?: TestCluster }
  | { url?: undefined; skip: string; close(): Promise<void>; cluster?: undefined };

/** Where the server's programs are: on PATH, else Debian's versioned folders (newest first). */
function findBin(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, name))) return join(dir, name);
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', name))) return join(root, v, 'bin', name);
  return undefined;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * A PostgreSQL server for the tests of the database journal: the one `LABELKIT_TEST_PG_URL`
 * names; else a cluster of its own, started in a temporary folder on a free loopback port (as the
 * `postgres` user when run as root: `initdb` refuses root) and removed by `close()`.
 *
 * @param options - `durable`: keep fsync on (a benchmark of commits); tests run with fsync off.
 * `own`: a cluster of its own even where the run shares one (a test that stops or restarts it).
 * Where the run shares a cluster (the `postgres` project of vitest.config.ts, test/support/sharedPostgres.ts),
 * a test gets a database of its own in it instead, dropped by `close()`
 * @returns the server's URL, or `skip` with the reason there is none
 * @throws when there is none and CI is set (`CI=true`, `CI=1`: {@link isCi}) or `LABELKIT_REQUIRE_PG=1` (CI must run these tests:
 * `.ci/run` installs the server and sets the latter)
 */
export async function startTestPostgres(options: { durable?: boolean; own?: boolean } = {}): Promise<TestPostgres> {
  const given = process.env.LABELKIT_TEST_PG_URL;
  if (given) return { url: given, close: async () => undefined };
  const shared = options.durable || options.own ? undefined : sharedCluster();
  if (shared) return 'skip' in shared ? { skip: shared.skip, close: async () => undefined } : databaseIn(shared.url);
  const why = await startCluster(options.durable === true).catch((error: unknown) => String((error as Error).message ?? error).split('\n')[0]!);
  if (typeof why !== 'string') return why;
  const skip = `no PostgreSQL for these tests: ${why} (install PostgreSQL's server, or set LABELKIT_TEST_PG_URL)`;
  if (isCi() || process.env.LABELKIT_REQUIRE_PG === '1') throw new Error(`${skip}; CI (CI=true, CI=1) or LABELKIT_REQUIRE_PG=1 requires them`);
  return { skip, close: async () => undefined };
}

async function startCluster(durable: boolean): Promise<{ url: string; close(): Promise<void>; cluster: TestCluster }> {
  const initdb = findBin('initdb');
  const pgCtl = findBin('pg_ctl');
  if (!initdb || !pgCtl) throw new Error('initdb/pg_ctl not found on PATH or in /usr/lib/postgresql/*/bin');
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  let gid: number | undefined;
  if (asRoot) {
    const ids = await run('id', ['-u', 'postgres']).catch(() => undefined);
    if (!ids) throw new Error('running as root, and `id -u postgres` found no postgres user to run initdb as');
    uid = Number(ids.stdout.trim());
    gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  }
  const as = (bin: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args));
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-pg-'));
  if (uid !== undefined && gid !== undefined) chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    await as(initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${durable ? '' : ' -c fsync=off'}`;
      try {
        await as(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
      } catch (error) {
        lastError = error; // the port was taken meanwhile: another one
        // A server that started but was not ready in time would outlive the removed folder.
        await as(pgCtl, ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
        continue;
      }
      const stopNow = () => {
        const args = ['-D', data, '-m', 'immediate', 'stop'];
        spawnSync(asRoot ? 'runuser' : pgCtl, asRoot ? ['-u', 'postgres', '--', pgCtl, ...args] : args, { stdio: 'ignore' });
        remove();
      };
      stopAtExit.add(stopNow);
      const start = () => as(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']).then(() => undefined);
      const cluster: TestCluster = {
        restart: () => as(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-m', 'immediate', '-w', 'restart']).then(() => undefined),
        stop: () => as(pgCtl, ['-D', data, '-m', 'immediate', 'stop']).then(() => undefined),
        start,
        hbaFirst: async (line) => {
          const hba = join(data, 'pg_hba.conf');
          writeFileSync(hba, `${line}\n${readFileSync(hba, 'utf8')}`);
          await as(pgCtl, ['-D', data, 'reload']);
        },
      };
      return {
        cluster,
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        close: async () => {
          stopAtExit.delete(stopNow);
          await as(pgCtl, ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
          remove();
        },
      };
    }
    throw lastError;
  } catch (error) {
    remove();
    throw error;
  }
}

/** The run's shared cluster (test/support/sharedPostgres.ts), when this file's project has one. */
function sharedCluster(): { url: string } | { skip: string } | undefined {
  try {
    return inject('labelkitPostgres');
  } catch {
    return undefined; // not in a test file of a vitest run (a benchmark)
  }
}

/**
 * Rows of one statement run straight on the server at `url`, on a connection of its own (opened and
 * closed around it): what a test reads or changes in a journal's tables behind the workers' backs.
 */
export async function queryPostgres<R extends Record<string, unknown>>(url: string, sql: string, values: unknown[] = []): Promise<R[]> {
  const { default: driver } = await import('pg');
  const client = new driver.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A database of its own in the cluster at `url`, dropped by `close()`. */
async function databaseIn(url: string): Promise<TestPostgres> {
  const name = `lk_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = async (sql: string): Promise<void> => void (await queryPostgres(url, sql));
  await admin(`CREATE DATABASE ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), close: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
