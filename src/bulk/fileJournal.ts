import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { checkJournalRecord, ClaimKeys } from './journal.js';
import type { Journal, JournalContents, JournalRecord } from './journal.js';
import { ValidationError } from 'labelkit';
import { errorCode } from '../shared/classify.js';
import { FileLockHeld, takeFileLock } from '../shared/fileWrites.js';
import type { FileLock } from '../shared/fileWrites.js';

/** Options of {@link openFileJournal}. */
export interface FileJournalOptions {
  /**
   * Only read (for a dry run): nothing is created, repaired or appended.
   * @defaultValue false
   */
  readOnly?: boolean;
}

interface Parsed extends JournalContents {
  /** Bytes of the file up to the end of the last good line. */
  goodBytes: number;
  /** The file's size as read. */
  size: number;
}

/**
 * Parses a journal's NDJSON text: one record per line.
 *
 * @param text - the file's content
 * @param path - the file, for messages
 * @returns the records; an incomplete or corrupt LAST line is left out with a warning
 * @throws `ValidationError` naming the line when any other line is not a record
 * @remarks Blank lines are skipped. `goodBytes` is where the file would be cut to drop a bad
 * last line.
 * @example
 * ```ts
 * parseJournalText('{"type":"run","at":"…","url":"https://x/graphql"}\n{"type":"int', 'run.ndjson').warnings.length; // 1
 * ```
 */
function parseJournalText(text: string, path: string): Parsed {
  const lines = text.split('\n');
  const records: JournalRecord[] = [];
  const warnings: string[] = [];
  let offset = 0;
  let goodBytes = 0;
  const last = lines.findLastIndex((l) => l.trim() !== '');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const bytes = Buffer.byteLength(line) + (i < lines.length - 1 ? 1 : 0);
    offset += bytes;
    if (line.trim() === '') {
      if (i < last) goodBytes = offset;
      continue;
    }
    let value: unknown;
    let problem: string | undefined;
    try {
      value = JSON.parse(line);
      problem = checkJournalRecord(value);
    } catch {
      problem = 'is not valid JSON';
    }
    if (problem === undefined) {
      records.push(value as JournalRecord);
      goodBytes = offset;
    } else if (i === last) {
      warnings.push(`${path} line ${i + 1} is incomplete or corrupt (${problem}), as a crash while writing leaves it: it was ignored`);
    } else {
      throw new ValidationError([{ path: `${path}:${i + 1}`, message: `journal line ${i + 1} ${problem}; the journal is corrupt (only its last line may be incomplete): fix or remove that line, or use another journal` }]);
    }
  }
  return { records, warnings, goodBytes, size: Buffer.byteLength(text) };
}

/**
 * Takes `<path>.lock` for this process through the one lock of src/shared/fileWrites.ts (it reads
 * `<pid> <host>`, created whole), so that two runs never share a journal.
 *
 * @param lockPath - the lock file
 * @param path - the journal, for messages
 * @returns the lock, and a warning when a lock left by a process of this host that no longer runs
 * was taken over
 * @throws `ValidationError` when a running process holds the lock, a process of another host does
 * (whether it runs cannot be known from here: a shared disk), or the lock names no process
 * @remarks A lock of an older labelkit holds the pid alone and is taken as this host's. Several
 * runs that find the same dead lock at once never both take it over (`takeFileLock`'s guard).
 */
async function takeLock(lockPath: string, path: string): Promise<{ lock: FileLock; warning?: string }> {
  try {
    const lock = await takeFileLock(lockPath);
    return lock.tookOverFrom ? { lock, warning: `${lockPath} was left by a run that no longer runs (a crash or kill): taken over` } : { lock };
  } catch (error) {
    if (!(error instanceof FileLockHeld)) throw error;
    const { pid, host: holderHost } = error.holder;
    const host = hostname();
    const message = Number.isNaN(pid)
      ? `${lockPath} names no process (edited, or written by something else): two runs on one journal could start a project twice; delete it once you know no run uses the journal ${path}`
      : error.otherHost
        ? `a run on the host ${holderHost} (process ${pid}) holds the journal ${path}: this host (${host}) cannot tell whether it still runs, and two runs on one journal could start a project twice; wait for it to end, or delete ${lockPath} once you know no run on ${holderHost} uses it (many hosts at once: use a PostgreSQL journal)`
        : `another run (process ${pid}) is using the journal ${path}: two runs on one journal could start a project twice; wait for it to end (delete ${lockPath} only if no run uses the journal)`;
    throw new ValidationError([{ path: lockPath, message }]);
  }
}

/**
 * The journal as an append-only NDJSON file, flushed to disk (`fdatasync`) before each append resolves.
 *
 * @param path - the file; created on the first open unless `readOnly`
 * @param options - see {@link FileJournalOptions}
 * @returns a {@link Journal} for `autoLabelMany`
 * @remarks On open, an incomplete last line (a crash mid-write) is reported in `warnings` and cut
 * off the file, so that the next record starts on a line of its own; any other bad line is a
 * `ValidationError` naming it. Appends made at the same time are written together and
 * flushed once (group commit), each in the order it was made. The file never holds a secret:
 * records carry project ids, job ids, the model endpoint and redacted error texts. While open
 * (not read-only) the journal holds `<path>.lock` with its process id and host name: a second
 * run on the same journal is refused while the first one runs; a lock left by a process of this
 * host that no longer runs (a crash, a kill) is taken over with a warning, by one run only when
 * several find it at once; a lock of another host is refused, naming that host, and so is a lock
 * that names no process. The lock is src/shared/fileWrites.ts's `takeFileLock`, as an export's. Claims are decided in this process, which holds the lock.
 * @example
 * ```ts
 * import { openFileJournal } from 'labelkit-tools/bulk';
 * const result = await autoLabelMany(client, inputs, { journal: openFileJournal('run.ndjson') });
 * ```
 */
export function openFileJournal(path: string, options: FileJournalOptions = {}): Journal {
  let handle: FileHandle | undefined;
  let pending: { line: string; resolve(): void; reject(error: unknown): void }[] = [];
  let flushing: Promise<void> | undefined;
  const lockPath = `${path}.lock`;
  let lock: FileLock | undefined;
  const claims = new ClaimKeys();

  const flush = async () => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        await handle!.write(batch.map((b) => b.line).join(''));
        await handle!.datasync();
        for (const b of batch) b.resolve();
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
    flushing = undefined;
  };

  const append = (record: JournalRecord) => {
    if (options.readOnly) return Promise.reject(new Error(`the journal ${path} was opened read-only`));
    if (!handle) return Promise.reject(new Error(`the journal ${path} is not open`));
    return new Promise<void>((resolve, reject) => {
      pending.push({ line: `${JSON.stringify(record)}\n`, resolve, reject });
      flushing ??= flush();
    });
  };

  return {
    async open() {
      // The lock first: nothing may append between reading the journal and appending to it.
      let lockWarning: string | undefined;
      if (!options.readOnly) ({ lock, warning: lockWarning } = await takeLock(lockPath, path));
      try {
        let text = '';
        try {
          text = await readFile(path, 'utf8');
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
        }
        const parsed = parseJournalText(text, path);
        claims.reset(parsed.records);
        const warnings = lockWarning ? [lockWarning, ...parsed.warnings] : parsed.warnings;
        if (options.readOnly) return { records: parsed.records, warnings };
        handle = await open(path, 'a');
        if (parsed.goodBytes < parsed.size) {
          await handle.truncate(parsed.goodBytes);
          await handle.datasync();
        }
        return { records: parsed.records, warnings };
      } catch (error) {
        await handle?.close();
        handle = undefined;
        await lock?.release();
        lock = undefined;
        throw error;
      }
    },
    append,
    async claim(intent) {
      if (!handle || options.readOnly) await append(intent); // rejects with why
      const holder = claims.take(intent);
      if (holder !== undefined) return { won: false, ...(holder && { holder }) };
      await append(intent);
      return { won: true };
    },
    async close() {
      await flushing;
      await handle?.close();
      handle = undefined;
      await lock?.release();
      lock = undefined;
    },
  };
}
