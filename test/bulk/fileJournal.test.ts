import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { openFileJournal } from '../../src/bulk/index.js';
import type { JournalRecord } from '../../src/bulk/index.js';
// What bulk throws for bad input: a labelkit error of code VALIDATION (see validationError.test.ts).
import { ValidationError } from '../../src/client/index.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

const at = '2026-01-01T00:00:00.000Z';
const config = { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 2, labelerEmail: 'a@example.com', role: null };
const fileIn = () => join(tempDir('labelkit-journal-'), 'run.ndjson');
const line = (r: JournalRecord) => `${JSON.stringify(r)}\n`;
const intent = (projectId: string): JournalRecord => ({ type: 'intent', at, projectId, config });

describe('openFileJournal', () => {
  it('reads back, in order, every record appended, including appends made at the same time', async () => {
    const path = fileIn();
    const journal = openFileJournal(path);
    expect(await journal.open()).toEqual({ records: [], warnings: [] });
    const records = Array.from({ length: 30 }, (_, i) => intent(`p${i}`));
    await Promise.all(records.map((r) => journal.append(r)));
    await journal.close();
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(30);
    const again = openFileJournal(path);
    expect((await again.open()).records).toEqual(records);
    await again.close();
  });

  it('ignores and reports an incomplete last line, then appends on a line of its own', async () => {
    const path = fileIn();
    writeFileSync(path, line(intent('p1')) + line({ type: 'started', at, projectId: 'p1', jobId: 'job-1' }) + '{"type":"intent","at":"2026-01-01T00:00:00.000Z","projectId":"p2","con');
    const journal = openFileJournal(path);
    const contents = await journal.open();
    expect(contents.records.map((r) => r.type)).toEqual(['intent', 'started']);
    expect(contents.warnings).toEqual([expect.stringMatching(/ line 3 is incomplete or corrupt .*not valid JSON.*ignored/)]);
    expect(contents.warnings[0]!.startsWith(`${path} line 3`)).toBe(true);
    await journal.append(intent('p3'));
    await journal.close();
    const reread = openFileJournal(path);
    const after = await reread.open();
    expect(after.records.map((r) => (r.type === 'run' ? r.url : r.projectId))).toEqual(['p1', 'p1', 'p3']);
    expect(after.warnings).toEqual([]);
    await reread.close();
  });

  it('refuses the journal naming the line when a line other than the last is corrupt', async () => {
    const path = fileIn();
    writeFileSync(path, line(intent('p1')) + '{"type":"started","at":"x","projectId":"p1"}\n' + line(intent('p2')));
    const error = await openFileJournal(path).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: `${path}:2`, message: expect.stringMatching(/^journal line 2 .*started record needs "projectId" and "jobId".*corrupt.*only its last line/) },
    ]);
    const notJson = fileIn();
    writeFileSync(notJson, 'garbage\n' + line(intent('p1')));
    expect(((await openFileJournal(notJson).open().catch((e: unknown) => e)) as ValidationError).problems[0]!.path).toBe(`${notJson}:1`);
  });

  it('neither creates nor repairs the file when opened read-only', async () => {
    const missing = fileIn();
    const readOnly = openFileJournal(missing, { readOnly: true });
    expect(await readOnly.open()).toEqual({ records: [], warnings: [] });
    await expect(readOnly.append(intent('p1'))).rejects.toThrow(/read-only/);
    await readOnly.close();
    expect(existsSync(missing)).toBe(false);

    const torn = fileIn();
    const text = line(intent('p1')) + '{"type":"st';
    writeFileSync(torn, text);
    const j = openFileJournal(torn, { readOnly: true });
    expect((await j.open()).warnings).toHaveLength(1);
    await j.close();
    expect(readFileSync(torn, 'utf8')).toBe(text);
  });

  it('refuses a second run on the same journal while the first holds it, and frees it on close', async () => {
    const path = fileIn();
    const first = openFileJournal(path);
    await first.open();
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(`${process.pid} ${hostname()}\n`);
    const error = await openFileJournal(path).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems[0]!.message).toMatch(new RegExp(`^another run \\(process ${process.pid}\\) is using the journal `));
    await first.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    const second = openFileJournal(path);
    await expect(second.open()).resolves.toEqual({ records: [], warnings: [] });
    await second.close();
  });

  it('takes over, with a warning, a lock left by a process that no longer runs', async () => {
    const path = fileIn();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${path}.lock`, `${gone}\n`);
    const journal = openFileJournal(path);
    expect((await journal.open()).warnings).toEqual([`${path}.lock was left by a run that no longer runs (a crash or kill): taken over`]);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(`${process.pid} ${hostname()}\n`);
    await journal.close();
  });

  it('refuses, naming the host, a lock held by a process of another host instead of taking it over', async () => {
    const path = fileIn();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${path}.lock`, `${gone} build-runner-7\n`);
    const error = await openFileJournal(path).open().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const problem = (error as ValidationError).problems[0]!;
    expect(problem.path).toBe(`${path}.lock`);
    expect(problem.message).toContain('a run on the host build-runner-7');
    expect(problem.message).toContain(`this host (${hostname()})`);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(`${gone} build-runner-7\n`); // left as it was
  });

  it('refuses a lock that names no process (edited, or one being written), and leaves it as it was', async () => {
    // The lock is src/shared/fileWrites.ts's, created whole: a lock seen empty or garbled is not
    // one that labelkit left, so it is not taken for a dead run's (removing it could let two runs in).
    const path = fileIn();
    for (const text of ['', 'edited by hand\n']) {
      writeFileSync(`${path}.lock`, text);
      const error = await openFileJournal(path).open().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).problems).toEqual([{ path: `${path}.lock`, message: expect.stringMatching(/^.+\.lock names no process \(edited, or written by something else\): .*delete it once you know no run uses the journal /) }]);
      expect(readFileSync(`${path}.lock`, 'utf8')).toBe(text);
    }
  });

  it('leaves, on close, a lock that is no longer its own', async () => {
    const path = fileIn();
    const journal = openFileJournal(path);
    await journal.open();
    // Someone removed the lock while this run was open and another run took it: this run's close
    // must not remove that run's lock.
    const other = `${process.ppid} ${hostname()}\n`;
    writeFileSync(`${path}.lock`, other);
    await journal.close();
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(other);
  });

  it('releases the lock when the journal is corrupt', async () => {
    const path = fileIn();
    writeFileSync(path, 'garbage\n' + line(intent('p1')));
    await expect(openFileJournal(path).open()).rejects.toBeInstanceOf(ValidationError);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
