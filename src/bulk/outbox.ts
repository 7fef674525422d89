import { open, readFile, rm } from 'node:fs/promises';
import { ValidationError } from 'labelkit';
import { errorCode } from '../shared/classify.js';
import { replayContents } from './journal.js';
import type { Journal } from './journal.js';

/**
 * A start the journal could not take (it failed after the job had started): the job id, kept so
 * that a later run waits for the job instead of reporting the project unknown.
 */
export interface OutboxStart {
  type: 'started';
  at: string;
  projectId: string;
  jobId: string;
  /** The attempt of the intent this job belongs to. */
  attempt: number;
}

/** Where a run keeps the starts its journal could not take (Node only). */
export interface Outbox {
  /** The file. */
  path: string;
  /**
   * Adds starts to the file; resolves once they are on disk (fsynced).
   * @param starts - the starts
   */
  add(starts: readonly OutboxStart[]): Promise<void>;
}

/**
 * A local outbox file for the starts a journal could not take: one JSON line each, after a first
 * line naming the journal it belongs to.
 *
 * @param path - the file (made on the first start added)
 * @param journal - the journal's name as printed (a URL without its password and the run name), written in the first line
 * @returns the outbox
 * @example
 * ```ts
 * const outbox = openOutbox('labelkit-outbox-prelabel-1.ndjson', 'postgres://db/x --journal-name prelabel-1');
 * await autoLabelMany(client, inputs, { journal, outbox });
 * ```
 */
export function openOutbox(path: string, journal: string): Outbox {
  // One add at a time: the first line (the journal's name) is written once, by the first.
  let last: Promise<void> = Promise.resolve();
  const add = async (starts: readonly OutboxStart[]) => {
      if (starts.length === 0) return;
      const file = await open(path, 'a', 0o600);
      try {
        const { size } = await file.stat();
        const lines = starts.map((s) => JSON.stringify(s));
        if (size === 0) lines.unshift(JSON.stringify({ outbox: 1, journal }));
        await file.appendFile(lines.join('\n') + '\n');
        await file.sync();
      } finally {
        await file.close();
      }
  };
  return {
    path,
    add: (starts) => (last = last.catch(() => undefined).then(() => add(starts))),
  };
}

/**
 * Writes the starts of an outbox file to its journal, then removes the file.
 *
 * @param journal - the journal (opened and closed here)
 * @param path - the outbox file
 * @param name - the journal's name as printed, which must be the one the outbox names
 * @returns how many starts were written and how many the journal held already (or had moved past), or undefined when there is no such file
 * @throws `ValidationError` (path `outbox`) for a file that is not an outbox, or one of another journal
 * @remarks A start is written only where the journal still has the project at the intent of that
 * attempt (`intent` or `unknown`): the run that failed did start that job. Where the journal
 * already has it (the write had committed after all) or has moved on, it is left out.
 * @example
 * ```ts
 * await recordOutbox(openPostgresJournal({ url, name }), 'labelkit-outbox-prelabel-1.ndjson', label); // { written: 3, skipped: 0 }
 * ```
 */
export async function recordOutbox(journal: Journal, path: string, name: string): Promise<{ written: number; skipped: number } | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const starts: OutboxStart[] = [];
  const bad = (line: number, why: string) => new ValidationError([{ path: 'outbox', message: `${path}:${line} ${why}` }]);
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw bad(i + 1, 'is not JSON: not an outbox of labelkit');
    }
    const v = value as Record<string, unknown>;
    if (i === 0) {
      if (v.outbox !== 1) throw bad(1, 'is not the first line of an outbox of labelkit');
      if (v.journal !== name) throw bad(1, `belongs to the journal ${String(v.journal)}, not to ${name}: give that --journal and --journal-name`);
      return;
    }
    const ok = v.type === 'started' && typeof v.projectId === 'string' && typeof v.jobId === 'string' && typeof v.at === 'string' && Number.isInteger(v.attempt);
    if (!ok) throw bad(i + 1, 'is not a start (type, at, projectId, jobId, attempt)');
    starts.push(v as unknown as OutboxStart);
  });
  const contents = await journal.open({ replay: true });
  let written = 0;
  try {
    const { projects } = replayContents(contents);
    for (const start of starts) {
      const state = projects.get(start.projectId);
      if (!state || !(state.state === 'intent' || state.state === 'unknown') || state.attempts !== start.attempt) continue;
      await journal.append({ type: 'started', at: start.at, projectId: start.projectId, jobId: start.jobId });
      written++;
    }
  } finally {
    await journal.close();
  }
  await rm(path);
  return { written, skipped: starts.length - written };
}
