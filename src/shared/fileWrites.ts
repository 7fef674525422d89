// Node only (file system): imported by the rooms that write files (export, the CLI, the file journal of bulk), never by the
// client.
/**
 * One writer per file: the one home of how labelkit writes a file it owns. A lock beside the file
 * (created whole, by a hard link, so it is never seen empty), temporary files opened exclusively
 * and never through a symbolic link (`O_EXCL | O_NOFOLLOW`), fsync, rename into place; a write that
 * fails is a {@link FileWriteError} naming the file.
 *
 * @remarks Node has no atomic write or lock of its own; npm's `write-file-atomic` opens its
 * temporary file with `'w'` (it follows a symbolic link planted under that name), hence this file.
 * See STYLE.md practice 24.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { errorCode } from './classify.js';

const EXCLUSIVE = constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** What a failed write's code means, in words. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large',
  EIO: 'an input/output error',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'it is a symbolic link',
  EEXIST: 'a file of that name appeared meanwhile',
  EISDIR: 'a folder of that name is in the way',
};

/**
 * A file that could not be written (a full disk, an I/O error): the file it was about, and what
 * the file system said.
 *
 * @remarks The CLI exits 4 for it, as for a network failure: the environment failed, and the
 * same command may succeed once it is fixed (docs/cli.md). Whatever the file held before is kept.
 */
export class FileWriteError extends Error {
  override name = 'FileWriteError';
  /** The file system's code (`ENOSPC`, `EIO`, …), or undefined. */
  readonly code: string | undefined;
  /**
   * @param path - the file that could not be written
   * @param cause - the file system's error
   * @param kept - what is left as it was, said after the reason (e.g. `the old file is kept`)
   */
  constructor(
    readonly path: string,
    cause: unknown,
    kept?: string,
  ) {
    const code = errorCode(cause);
    const why = code === undefined ? (cause instanceof Error ? cause.message : String(cause)) : `${WRITE_FAILURES[code] ?? 'it failed'} (${code})`;
    super(`cannot write ${path}: ${why}${kept ? `; ${kept}` : ''}`, { cause });
    this.code = code;
  }
}

/**
 * Creates a file that did not exist, for writing (and reading): fails with `EEXIST` when anything
 * of that name is there (a file, a folder, a symbolic link, even a dangling one), never writes
 * through a link.
 *
 * @param path - the file to create
 * @param mode - its permissions @defaultValue 0o644 (less the umask)
 * @returns the open handle
 */
export function openExclusive(path: string, mode = 0o644): Promise<FileHandle> {
  return open(path, constants.O_RDWR | EXCLUSIVE, mode);
}

/**
 * Opens an existing file for reading and writing, never through a symbolic link.
 *
 * @param path - the file
 * @returns the open handle
 * @throws the file system's error: `ELOOP` when `path` is a symbolic link, `ENOENT` when missing
 */
export function openNoFollow(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDWR | constants.O_NOFOLLOW);
}

/** Options of {@link writeFileAtomically}. */
export interface AtomicWriteOptions {
  /**
   * The temporary file's name: for a file only this process writes (it holds the file's lock),
   * a fixed name a later run can clean up; what is there under that name (a file left by a kill, a
   * planted symbolic link) is removed first (the link itself, never its target).
   * @defaultValue a new name beside the file, `.NAME.PID.RANDOM.tmp`
   */
  temporary?: string | undefined;
  /** Said after the reason of a failed write. @defaultValue `the old file, if any, is kept` */
  kept?: string | undefined;
}

/**
 * Writes a file whole or not at all: a temporary file beside it created exclusively (never through
 * a symbolic link), fsynced, then renamed onto the file (a symbolic link of that name is replaced,
 * its target untouched).
 *
 * @param path - the file
 * @param data - its new content
 * @param options - see {@link AtomicWriteOptions}
 * @throws {@link FileWriteError} naming `path` when the write fails (a full disk): the temporary
 * file is removed and the old file is kept as it was
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const temporary = options.temporary ?? join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  if (options.temporary !== undefined) await rm(temporary, { force: true });
  let handle: FileHandle | undefined;
  try {
    handle = await openExclusive(temporary);
    await handle.writeFile(data);
    await handle.datasync();
    await handle.close();
    handle = undefined;
    await rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new FileWriteError(path, error, options.kept ?? 'the old file, if any, is kept');
  }
}

/** Makes a rename in `dir` durable (where the platform allows opening a folder). */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

/** Who holds a lock, as its file says. */
export interface LockHolder {
  /** The process id; NaN when the file does not hold one (edited, or not a lock of labelkit). */
  pid: number;
  /** The host name; empty for a lock that names none. */
  host: string;
}

/** A lock another process holds (or that cannot be proven free). */
export class FileLockHeld extends Error {
  override name = 'FileLockHeld';
  /**
   * @param lockPath - the lock file
   * @param holder - who holds it, as the file says
   * @param otherHost - the holder is on another host (a shared disk): whether it runs cannot be known
   */
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
    readonly otherHost: boolean,
  ) {
    super(`${lockPath} is held by process ${Number.isNaN(holder.pid) ? '(unknown)' : holder.pid}${holder.host ? ` on ${holder.host}` : ''}`);
  }
}

/** A lock this process holds: {@link takeFileLock}. */
export interface FileLock {
  readonly path: string;
  /** The holder of a lock left by a process that no longer runs, taken over; undefined otherwise. */
  readonly tookOverFrom: LockHolder | undefined;
  /** Removes the lock (if it is still this process's). */
  release(): Promise<void>;
}

/** Whether a process of this host runs (or exists, owned by another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder {
  const [pidText = '', ...rest] = text.trim().split(/\s+/);
  const pid = /^[1-9]\d{0,9}$/.test(pidText) ? Number(pidText) : Number.NaN;
  return { pid, host: rest.join(' ') };
}

/** Creates `path` holding `text` at once (written beside it, then hard-linked: never seen empty); false when it exists. */
async function createWhole(path: string, text: string): Promise<boolean> {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  const handle = await openExclusive(temporary);
  try {
    await handle.writeFile(text);
    await handle.close();
    await link(temporary, path);
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

const readText = (path: string) => readFile(path, 'utf8').catch((error: unknown) => (errorCode(error) === 'ENOENT' ? undefined : Promise.reject(error)));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock file `lockPath` for this process: it reads `PID HOST`.
 *
 * @param lockPath - the lock file (e.g. `FILE.lock`)
 * @returns the lock: `release()` it when done
 * @throws {@link FileLockHeld} when a process that runs holds it, a process of another host does
 * (whether it runs cannot be known from here), or the file names no process (edited)
 * @remarks A lock left by a process of this host that no longer runs (a kill, a crash) is taken
 * over. Taking it over is itself guarded by `LOCK.break` (taken the same way), and the lock is read
 * again under it: two runs that find the same dead lock never both take it. A `LOCK.break` of a
 * process that no longer runs (killed in the microseconds of a take-over) is removed.
 */
export async function takeFileLock(lockPath: string): Promise<FileLock> {
  const host = hostname();
  const mine = `${process.pid} ${host}\n`;
  const lock = (tookOverFrom: LockHolder | undefined): FileLock => ({
    path: lockPath,
    tookOverFrom,
    async release() {
      if ((await readText(lockPath).catch(() => undefined)) === mine) await rm(lockPath, { force: true });
    },
  });
  let tookOverFrom: LockHolder | undefined;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await createWhole(lockPath, mine)) return lock(tookOverFrom);
    const text = await readText(lockPath);
    if (text === undefined) continue; // released meanwhile
    const holder = parseHolder(text);
    const otherHost = holder.host !== '' && holder.host !== host;
    if (otherHost || Number.isNaN(holder.pid) || holder.pid === process.pid || isAlive(holder.pid)) throw new FileLockHeld(lockPath, holder, otherHost);
    // Its process is gone: take the lock over, one taker at a time.
    const guard = `${lockPath}.break`;
    if (!(await createWhole(guard, mine))) {
      const breaker = parseHolder((await readText(guard)) ?? '');
      if (!Number.isNaN(breaker.pid) && breaker.pid !== process.pid && !isAlive(breaker.pid)) await rm(guard, { force: true });
      else await pause(20);
      continue;
    }
    try {
      if ((await readText(lockPath)) === text) {
        await rm(lockPath, { force: true });
        tookOverFrom = holder;
      }
    } finally {
      await rm(guard, { force: true });
    }
  }
  throw new FileLockHeld(lockPath, { pid: Number.NaN, host: '' }, false);
}
