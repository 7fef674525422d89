// `labelkit export` (the built binary) of a 500-document project killed with SIGKILL 3 times at
// random points (when its partial file reaches a random size), then run to its end with the same
// flags (and once interrupted by Ctrl-C, which checkpoints what it wrote): the file has the bytes
// of an export never interrupted, every document once and in order. A release (`--split`) killed
// twice mid-write ends with the files and manifest of a release never interrupted; so does a delta
// release (`--since`), and apply-delta of it gives a fresh full release's files.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { ExportSummary } from '../../src/export/index.js';
import type { ReleaseManifest } from '../../src/export/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { killStarted, startCli } from '../support/spawnCli.js';
import { within } from '../support/testEnvironment.js';
import { COMMAND_LABELS, documentInput, midWrite, readReleaseCheckpoint, releaseDigests, resumableRelease } from './releaseParts.js';
import type { SavedCheckpoint } from './releaseParts.js';

const PROJECT = 'big-project';
const DOCUMENTS = 500;
const WORDS = ['Ada', 'met', 'Grace', 'in', 'London', 'on', 'Monday', 'with', 'Acme', 'Corp', 'engineers', 'from', 'Paris'];
const LABELS = ['PERSON', 'PLACE', 'ORG'];

let emu: RunningEmulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ demoProject: false });
  const documents = Array.from({ length: DOCUMENTS }, (_, d) => ({
    id: `doc-${String(d).padStart(3, '0')}`,
    name: `doc-${d}.txt`,
    lines: Array.from({ length: 3 + (d % 4) }, (_, l) => Array.from({ length: 6 + ((d + l) % 5) }, (_, w) => WORDS[(d * 7 + l * 3 + w) % WORDS.length]).join(' ')),
  }));
  emu.emulator.store.addProject({ id: PROJECT, labelSets: [{ name: 'Entities', labels: LABELS.map((name, i) => ({ id: `l${i}`, name })) }], documents });
  for (const doc of documents) {
    emu.emulator.store.setReviewLabels(
      PROJECT,
      doc.id,
      doc.lines.map((text, line) => {
        const word = text.split(' ')[1 + (line % 3)]!;
        const start = text.indexOf(` ${word}`) + 1;
        return { line, start_char: start, end_char: start + word.length, label: LABELS[line % 3]! };
      }),
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'labelkit-export-kill-'));
  env = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token };
}, within(30_000));

afterAll(async () => {
  killStarted();
  rmSync(dir, { recursive: true, force: true });
  await emu?.close();
});

/**
 * Resolves once the file at `path` holds at least `bytes` bytes, or `stop()` says to stop: told by
 * fs.watch on its folder as the file grows (no busy polling), with a look every 25 ms in case an
 * event is missed.
 */
function untilSize(path: string, bytes: number, stop: () => boolean = () => false): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name === null || name === basename(path)) look();
    });
    const timer = setInterval(look, 25);
    function look() {
      if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) < bytes && !stop()) return;
      watcher.close();
      clearInterval(timer);
      resolve();
    }
    look();
  });
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('labelkit export killed with SIGKILL', () => {
  it('goes on from its checkpoint each time and ends with the bytes of an export never interrupted, every document once', async () => {
    const whole = join(dir, 'whole.jsonl');
    const io = fakeIo(env);
    expect(await main(argv('export', '--project', PROJECT, '--format', 'jsonl', '--out', whole, '--json'), io)).toBe(0);
    const expected = JSON.parse(io.out()) as ExportSummary;
    expect(expected.documents).toBe(DOCUMENTS);
    const size = statSync(whole).size;

    const out = join(dir, 'killed.jsonl');
    const args = ['export', '--project', PROJECT, '--format', 'jsonl', '--out', out, '--json'];
    // Three random sizes of the partial file, growing, at which the run is killed.
    const targets = Array.from({ length: 3 }, () => Math.floor(size * (0.05 + 0.9 * Math.random()))).sort((a, b) => a - b);
    const killedAt: number[] = [];
    for (const target of targets) {
      const cli = startCli(args, env);
      let exited = false;
      void cli.exited.then(() => (exited = true));
      await untilSize(`${out}.partial`, target, () => exited);
      cli.child.kill('SIGKILL');
      const run = await cli.exited;
      expect(run.code, `the run ended by itself before ${target} bytes: ${run.stderr}`).toBeNull();
      killedAt.push(statSync(`${out}.partial`).size);
    }
    expect(existsSync(out)).toBe(false);
    // Ctrl-C (in process): exit 130, and what was written is checkpointed for the next run.
    const interrupted = fakeIo(env);
    const stopped = main(argv(...args), interrupted);
    const before = JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8')) as { progress: { documents: number } };
    await untilSize(`${out}.partial`, killedAt.at(-1)! + 1001);
    interrupted.interrupt();
    expect(await stopped).toBe(130);
    const after = JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8')) as { progress: { documents: number; bytes: number } };
    // Said as an interruption of the export, where it stopped and what to do (not a network failure).
    expect(interrupted.err()).toBe(`labelkit: interrupted at document ${after.progress.documents} of ${DOCUMENTS}; run the same command to resume\n`);
    expect(after.progress.documents).toBeGreaterThan(before.progress.documents);
    expect(statSync(`${out}.partial`).size).toBe(after.progress.bytes);
    const last = await startCli(args, env).exited;
    // Nothing but the progress lines a run off a terminal prints every 10 s.
    expect(last.stderr.replace(/^reading documents \d+\/\d+\n/gm, '')).toBe('');
    expect(last.code).toBe(0);
    const summary = JSON.parse(last.stdout) as ExportSummary;
    expect(summary.resumedAt).toBeGreaterThan(0);

    expect(sha256(out)).toBe(sha256(whole));
    expect(summary.sha256).toBe(expected.sha256);
    expect({ ...summary, out: '', resumedAt: null }).toEqual({ ...expected, out: '', tagsFile: summary.tagsFile, resumedAt: null });
    // Every document once, in order, with all its lines.
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { document: string; line: number });
    const order = rows.map((r) => r.document).filter((d, i, all) => i === 0 || all[i - 1] !== d);
    expect(order).toEqual(Array.from({ length: DOCUMENTS }, (_, d) => `doc-${String(d).padStart(3, '0')}`));
    expect(rows.length).toBe(expected.lines);
    expect(existsSync(`${out}.partial`) || existsSync(`${out}.checkpoint`) || existsSync(`${out}.checkpoint.tmp`)).toBe(false);
    expect(killedAt.every((s) => s > 0)).toBe(true);
  }, within(60_000));
});

describe('two labelkit exports to the same --out (two processes)', () => {
  it('the second is refused in one line naming the first one\'s process and the file (exit 2); the first writes the file, and its printed sha256 is the file\'s', async () => {
    const out = join(dir, 'race.jsonl');
    const args = ['export', '--project', PROJECT, '--format', 'jsonl', '--out', out, '--json'];
    const first = startCli(args, env);
    let ended = false;
    void first.exited.then(() => (ended = true));
    await untilSize(`${out}.partial`, 1, () => ended);
    expect(ended, `the first export ended before it wrote: ${first.stderr()}`).toBe(false);
    // The first one held still while the second starts (however fast it would have ended), as in a
    // second terminal: SIGSTOP, the second run, SIGCONT.
    first.child.kill('SIGSTOP');
    try {
      const second = await startCli(args, env).exited;
      expect(second).toEqual({ code: 2, stdout: '', stderr: `labelkit: --out: ${out} is being written by another export, process ${first.child.pid} (lock ${out}.lock): wait for it to end\n` });
    } finally {
      first.child.kill('SIGCONT');
    }
    const won = await first.exited;
    expect({ code: won.code, stderr: won.stderr.replace(/^reading documents \d+\/\d+\n/gm, '') }).toEqual({ code: 0, stderr: '' });
    const summary = JSON.parse(won.stdout) as ExportSummary;
    expect(summary.sha256).toBe(sha256(out));
    // The file is whole: every document once, in order, every line.
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { document: string });
    expect([...new Set(rows.map((r) => r.document))]).toEqual(Array.from({ length: DOCUMENTS }, (_, d) => `doc-${String(d).padStart(3, '0')}`));
    expect(rows.length).toBe(summary.lines);
    expect(readdirSync(dir).filter((f) => f.startsWith('race'))).toEqual(['race.jsonl', 'race.jsonl.labels.json']);
  }, within(90_000));
});

describe('a release (--split) killed with SIGKILL', () => {
  const RELEASE_PROJECT = 'release-project';
  const DELTA_PROJECT = 'delta-project';
  const labelSets = [{ name: 'Entities', labels: COMMAND_LABELS.map((name, i) => ({ id: `l${i}`, name })) }];
  let slow: RunningEmulator;
  let releaseEnv: Record<string, string>;
  beforeAll(async () => {
    // Each call answered 50 ms late: a run of 60 documents spans several checkpoints without costing CPU.
    slow = await startEmulator({ demoProject: false, latencyMs: 50 });
    slow.emulator.store.addProject({ id: RELEASE_PROJECT, labelSets, documents: Array.from({ length: 60 }, (_, n) => documentInput(n)) });
    releaseEnv = { LABELKIT_URL: slow.url, LABELKIT_TOKEN: slow.token, SOURCE_DATE_EPOCH: '1795910400' };
  }, within(30_000));
  afterAll(async () => {
    killStarted();
    await slow?.close();
  });

  /**
   * Runs the binary and kills it with SIGKILL once it is mid-write past a checkpoint of at least
   * `documents` documents: the run must not have ended by itself, and its journal must hold more
   * than the checkpoint it left says (what the next run cuts off).
   */
  async function killMidWrite(args: string[], out: string, documents: number): Promise<SavedCheckpoint> {
    const cli = startCli(args, releaseEnv);
    let exited = false;
    void cli.exited.then(() => (exited = true));
    await midWrite(out, documents, () => exited);
    cli.child.kill('SIGKILL');
    const run = await cli.exited;
    expect(run.code, `the run ended by itself: ${run.stderr}`).toBeNull();
    const saved = readReleaseCheckpoint(out)!;
    expect(statSync(join(`${out}.partial`, 'documents.journal')).size).toBeGreaterThan(saved.progress.bytes);
    return saved;
  }

  /**
   * Kills the binary mid-write twice (past a checkpoint of 5–14, then 25–34 documents), checks
   * that each kill left a later checkpoint, then runs it to the end: it must end cleanly and say
   * it went on from the last checkpoint. Returns what it printed.
   */
  async function killTwiceThenFinish(args: string[], out: string): Promise<ReleaseManifest & { resumedAt: number }> {
    let last = 0;
    for (const documents of [5 + Math.floor(Math.random() * 10), 25 + Math.floor(Math.random() * 10)]) {
      const saved = await killMidWrite(args, out, documents);
      expect(saved.progress.documents).toBeGreaterThan(last);
      last = saved.progress.documents;
    }
    expect(existsSync(out)).toBe(false);
    const final = await startCli(args, releaseEnv).exited;
    expect(final.stderr.replace(/^reading documents \d+\/\d+\n/gm, '')).toBe('');
    expect(final.code).toBe(0);
    const printed = JSON.parse(final.stdout) as ReleaseManifest & { resumedAt: number };
    expect(printed.resumedAt).toBe(last);
    return printed;
  }

  it('killed with SIGKILL twice mid-write, the binary goes on from its checkpoint each time: byte-identical files and manifest', async () => {
    const whole = join(dir, 'release-whole');
    const io = fakeIo(releaseEnv);
    expect(await main(argv(...resumableRelease(RELEASE_PROJECT, whole)), io)).toBe(0);
    const expected = releaseDigests(whole);
    const out = join(dir, 'release-killed');
    const args = resumableRelease(RELEASE_PROJECT, out);
    const printed = await killTwiceThenFinish(args, out);
    expect(releaseDigests(out)).toEqual(expected);
    for (const f of printed.files) expect(sha256(join(out, f.path))).toBe(f.sha256);
    expect(readdirSync(dir).filter((f) => f.startsWith('release-killed'))).toEqual(['release-killed']);
  }, within(60_000));

  it('a delta (--since) killed with SIGKILL twice mid-write goes on to the delta of a run never interrupted; apply-delta of it gives a fresh full release', async () => {
    // Splits by hash (not --stratify, which keeps the last release's deal where a fresh release deals anew): a fresh full release is what apply-delta must give.
    const hashed = (out: string) => resumableRelease(DELTA_PROJECT, out).filter((a) => a !== '--stratify');
    const first = Array.from({ length: 60 }, (_, n) => documentInput(n));
    slow.emulator.store.addProject({ id: DELTA_PROJECT, labelSets, documents: first });
    const r1 = join(dir, 'delta-release-1');
    const io = fakeIo(releaseEnv);
    expect(await main(argv(...hashed(r1)), io)).toBe(0);
    // Next week: 5 documents' labels changed, 2 deleted, 3 added.
    const changed = [2, 19, 33, 41, 57];
    const deleted = [7, 48];
    const next = first.filter((_, n) => !deleted.includes(n)).map((d) => (changed.includes(first.indexOf(d)) ? documentInput(first.indexOf(d), 1) : d));
    // The added ones among the first documents too (before where a kill may fall), and one at the end.
    next.splice(1, 0, documentInput(60));
    next.splice(12, 0, documentInput(61));
    next.push(documentInput(62));
    slow.emulator.store.addProject({ id: DELTA_PROJECT, labelSets, documents: next });
    const since = ['--since', join(r1, 'manifest.json')];

    const whole = join(dir, 'delta-whole');
    const wholeIo = fakeIo(releaseEnv);
    expect(await main(argv(...hashed(whole), ...since), wholeIo)).toBe(0);
    const expected = releaseDigests(whole);
    const wholeManifest = JSON.parse(readFileSync(join(whole, 'manifest.json'), 'utf8')) as ReleaseManifest;
    expect(wholeManifest.delta!.changed.map((k) => k.id).sort()).toEqual(changed.map((n) => `doc-${String(n).padStart(3, '0')}`));
    expect(wholeManifest.delta!.added.map((k) => k.id).sort()).toEqual(['doc-060', 'doc-061', 'doc-062']);
    expect(wholeManifest.delta!.removed.map((k) => k.id).sort()).toEqual(['doc-007', 'doc-048']);

    const out = join(dir, 'delta-killed');
    const args = [...hashed(out), ...since];
    const printed = await killTwiceThenFinish(args, out);
    // The delta's files (each split's delta, removed.json, manifest.json) and their SHA-256s: those of the delta never interrupted.
    expect(releaseDigests(out)).toEqual(expected);
    for (const f of printed.delta!.files) expect(sha256(join(out, f.path))).toBe(f.sha256);

    // apply-delta of the resumed delta: the files of a fresh full release of next week's project, byte for byte.
    const applied = fakeIo(releaseEnv);
    expect(await main(argv('export', 'apply-delta', r1, out, '--out', join(dir, 'delta-applied')), applied), applied.err()).toBe(0);
    const fresh = join(dir, 'delta-fresh');
    expect(await main(argv(...hashed(fresh)), fakeIo(releaseEnv))).toBe(0);
    expect(releaseDigests(join(dir, 'delta-applied'))).toEqual(releaseDigests(fresh));
  }, within(90_000));
});
