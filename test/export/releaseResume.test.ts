// A release (`labelkit export … --split … --out DIR`) stopped by Ctrl-C part way goes on from its
// checkpoint when run again, and ends with the files and manifest of a release never interrupted;
// its checkpoint proves itself as a single export's does: a split file edited since is refused.
// A filtered single export (--status, --labels, no --split) goes on from its checkpoint the same way.
// (Killed with SIGKILL: test/export/killResume.test.ts.) The emulator answers each call 50 ms late,
// so that a run of 60 documents spans several checkpoints without costing CPU.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { ExportSummary } from '../../src/export/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { useTempDirs } from '../support/tempDirs.js';
import { within } from '../support/testEnvironment.js';
import { COMMAND_LABELS, documentInput, releaseDigests as digests, resumableRelease, sha256, stopMidWrite } from './releaseParts.js';

const PROJECT = 'resume-project';
const DOCUMENTS = 60;
/** A project for the filtered single export: half its documents complete, so --status completed keeps 60. */
const FILTERED_PROJECT = 'filtered-project';

let emu: RunningEmulator;
let env: Record<string, string>;
const tempDir = useTempDirs();
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ demoProject: false, latencyMs: 50 });
  const labelSets = [{ name: 'Entities', labels: COMMAND_LABELS.map((name, i) => ({ id: `l${i}`, name })) }];
  emu.emulator.store.addProject({ id: PROJECT, labelSets, documents: Array.from({ length: DOCUMENTS }, (_, n) => documentInput(n)) });
  emu.emulator.store.addProject({ id: FILTERED_PROJECT, labelSets, documents: Array.from({ length: 2 * DOCUMENTS }, (_, n) => documentInput(n)) });
  dir = tempDir('labelkit-release-resume-');
  env = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, SOURCE_DATE_EPOCH: '1795910400' };
}, within(30_000));

afterAll(async () => {
  await emu?.close();
});

const releaseArgs = (out: string) => resumableRelease(PROJECT, out);

/**
 * Makes every file handle's `write` meet a full disk (ENOSPC) once: at the `nth` write whose bytes
 * `matches` (the writes of a document's journal line, of a split file's rows, …). `seen` counts
 * those writes; `restore` puts `write` back.
 *
 * @param probePath - a file opened once to reach the handles' prototype
 */
async function fullDiskAt(probePath: string, matches: (text: string) => boolean, nth: number): Promise<{ seen: () => number; restore: () => void }> {
  const probe = await open(probePath, 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const write = proto.write;
  let seen = 0;
  const spy = vi.spyOn(proto, 'write').mockImplementation(function (this: FileHandle, ...args: unknown[]) {
    const text = Buffer.isBuffer(args[0]) ? args[0].toString('utf8') : '';
    if (matches(text) && ++seen === nth) return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    return (write as (...a: unknown[]) => Promise<unknown>).apply(this, args);
  } as FileHandle['write']);
  return { seen: () => seen, restore: () => spy.mockRestore() };
}

/** A release never interrupted. */
async function uninterrupted(): Promise<string> {
  const out = join(dir, 'whole');
  const io = fakeIo(env);
  expect(await main(argv(...releaseArgs(out)), io)).toBe(0);
  expect(io.err().replace(/^reading documents \d+\/\d+\n/gm, '')).toBe('');
  expect((JSON.parse(io.out()) as { resumedAt: number | null }).resumedAt).toBeNull();
  return out;
}

describe('a release stopped part way', () => {
  it('Ctrl-C: says where it stopped (exit 130), keeps its checkpoint, and the same command goes on from it to the files and manifest of a release never interrupted', async () => {
    const expected = digests(await uninterrupted());
    const out = join(dir, 'interrupted');
    const { io, saved } = await stopMidWrite(env, releaseArgs(out), out, 15);
    expect(io.err()).toBe(`labelkit: interrupted at document ${saved.progress.documents} of ${DOCUMENTS}; run the same command to resume\n`);
    expect(saved.progress.documents).toBeGreaterThanOrEqual(15);
    expect(saved.progress.documents).toBeLessThan(DOCUMENTS);
    expect(existsSync(out)).toBe(false);

    const again = fakeIo(env);
    expect(await main(argv(...releaseArgs(out).filter((a) => a !== '--json')), again)).toBe(0);
    expect(again.err().replace(/^reading documents \d+\/\d+\n/gm, '')).toBe('');
    expect(again.out()).toContain(`to ${out} (went on after document ${saved.progress.documents})\n`);
    expect(digests(out)).toEqual(expected);
    expect(readdirSync(dir).filter((f) => f.startsWith('interrupted'))).toEqual(['interrupted']);
  }, within(60_000));

  it('refuses to go on when a split file was changed since its checkpoint (even at the same length), exit 2, nothing touched', async () => {
    const out = join(dir, 'edited');
    await stopMidWrite(env, releaseArgs(out), out, 5);
    const train = join(`${out}.partial`, 'train.jsonl');
    const bytes = readFileSync(train);
    bytes[0] = bytes[0] === 0x7b ? 0x5b : 0x7b;
    writeFileSync(train, bytes);
    const checkpoint = readFileSync(`${out}.checkpoint`);
    const again = fakeIo(env);
    expect(await main(argv(...releaseArgs(out)), again)).toBe(2);
    expect(again.err()).toMatch(new RegExp(`^labelkit: --out: cannot go on from the unfinished release .*edited: the first \\d+ bytes of .*train\\.jsonl are not those its checkpoint describes \\(changed since\\); delete .*edited\\.partial and .*edited\\.checkpoint to start over\\n$`));
    expect(readFileSync(train)).toEqual(bytes);
    expect(readFileSync(`${out}.checkpoint`)).toEqual(checkpoint);
    expect(existsSync(out)).toBe(false);
  }, within(60_000));

  it('a full disk while a document goes into the journal keeps the last checkpoint: the same command goes on from it to the files of a release never interrupted', async () => {
    const expected = digests(existsSync(join(dir, 'whole')) ? join(dir, 'whole') : await uninterrupted());
    const out = join(dir, 'full-disk');
    // The 30th journal line (a document's entry: it alone holds "offset" and "leftOut") meets a full disk.
    const disk = await fullDiskAt(join(dir, 'probe'), (text) => text.includes('"offset":') && text.includes('"leftOut":'), 30);
    const io = fakeIo(env);
    try {
      expect(await main(argv(...releaseArgs(out)), io)).not.toBe(0);
    } finally {
      disk.restore();
    }
    expect(disk.seen()).toBe(30);
    expect(io.err()).toMatch(/ENOSPC|no space/i);
    expect(existsSync(`${out}.checkpoint`)).toBe(true);

    const again = fakeIo(env);
    expect(await main(argv(...releaseArgs(out)), again), again.err()).toBe(0);
    expect(digests(out)).toEqual(expected);
  }, within(60_000));

  it('a full disk while a split file is written (its documents gathered, written at a checkpoint) ends the run, exit 4; the same command goes on to the files of a release never interrupted', async () => {
    const expected = digests(existsSync(join(dir, 'whole')) ? join(dir, 'whole') : await uninterrupted());
    const out = join(dir, 'full-disk-split');
    // The second write of split-file rows (jsonl rows hold "ner_tags"; journal lines do not) meets a full disk, once.
    const disk = await fullDiskAt(join(dir, 'probe-split'), (text) => text.includes('"ner_tags":'), 2);
    const io = fakeIo(env);
    try {
      expect(await main(argv(...releaseArgs(out)), io)).toBe(4);
    } finally {
      disk.restore();
    }
    expect(disk.seen()).toBeGreaterThanOrEqual(2);
    expect(io.err()).toMatch(/ENOSPC|no space/i);
    expect(existsSync(`${out}.checkpoint`)).toBe(true);
    expect(existsSync(out)).toBe(false);

    const again = fakeIo(env);
    expect(await main(argv(...releaseArgs(out)), again), again.err()).toBe(0);
    expect(digests(out)).toEqual(expected);
  }, within(60_000));

  it('goes on from its checkpoint when the file system answers reads in short pieces (its journal read whole, a chunk at a time)', async () => {
    const expected = digests(existsSync(join(dir, 'whole')) ? join(dir, 'whole') : await uninterrupted());
    const out = join(dir, 'short-reads');
    await stopMidWrite(env, releaseArgs(out), out, 15);
    // Every read returns at most 100 bytes, as a read may (a network file system): a reader must go on until it has all it asked for.
    const probe = await open(join(dir, 'probe-read'), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const read = proto.read;
    let shortened = 0;
    const spy = vi.spyOn(proto, 'read').mockImplementation(function (this: FileHandle, ...args: unknown[]) {
      if (Buffer.isBuffer(args[0]) && typeof args[2] === 'number' && args[2] > 100) {
        shortened++;
        args[2] = 100;
      }
      return (read as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    } as FileHandle['read']);
    const again = fakeIo(env);
    try {
      expect(await main(argv(...releaseArgs(out)), again), again.err()).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(shortened).toBeGreaterThan(0);
    expect(digests(out)).toEqual(expected);
  }, within(60_000));
});

describe('a filtered single export (no --split) stopped part way', () => {
  // Only completed documents (60 of 120), only PERSON and ORG (PLACE dropped and counted).
  const filteredArgs = (out: string) => ['export', '--project', FILTERED_PROJECT, '--format', 'jsonl', '--status', 'completed', '--labels', 'PERSON,ORG', '--out', out, '--json'];

  it('Ctrl-C, then the same command: the bytes, sha256, tag list and summary (what the filters dropped included) of an export never interrupted', async () => {
    const whole = join(dir, 'filtered-whole.jsonl');
    const io = fakeIo(env);
    expect(await main(argv(...filteredArgs(whole)), io)).toBe(0);
    const expected = JSON.parse(io.out()) as ExportSummary;
    expect(expected.documents).toBe(DOCUMENTS);
    expect(expected.dropped?.documents).toEqual({ status: DOCUMENTS, notListed: 0 });
    expect(expected.dropped?.labels.PLACE).toBeGreaterThan(0);
    expect(expected.tags).toEqual(['O', 'B-PERSON', 'I-PERSON', 'B-ORG', 'I-ORG']);

    const out = join(dir, 'filtered.jsonl');
    const { io: stopped, saved } = await stopMidWrite(env, filteredArgs(out), out, 15, `${out}.partial`);
    expect(stopped.err()).toBe(`labelkit: interrupted at document ${saved.progress.documents} of ${DOCUMENTS}; run the same command to resume\n`);
    expect(saved.progress.documents).toBeGreaterThanOrEqual(15);
    expect(saved.progress.documents).toBeLessThan(DOCUMENTS);
    expect(existsSync(out)).toBe(false);

    const again = fakeIo(env);
    expect(await main(argv(...filteredArgs(out)), again), again.err()).toBe(0);
    expect(again.err().replace(/^reading documents \d+\/\d+\n/gm, '')).toBe('');
    const summary = JSON.parse(again.out()) as ExportSummary;
    expect(summary.resumedAt).toBe(saved.progress.documents);
    expect(sha256(readFileSync(out))).toBe(sha256(readFileSync(whole)));
    expect(summary.sha256).toBe(expected.sha256);
    expect(readFileSync(`${out}.labels.json`, 'utf8')).toBe(readFileSync(`${whole}.labels.json`, 'utf8'));
    expect({ ...summary, out: '', tagsFile: '', resumedAt: null }).toEqual({ ...expected, out: '', tagsFile: '', resumedAt: null });
    expect(readdirSync(dir).filter((f) => f.startsWith('filtered.'))).toEqual(['filtered.jsonl', 'filtered.jsonl.labels.json']);
  }, within(60_000));
});
