// `labelkit export` (the built binary) of a 500-document project killed with SIGKILL 3 times at
// random points (when its partial file reaches a random size), then run to its end with the same
// flags (and once interrupted by Ctrl-C, which checkpoints what it wrote): the file has the bytes
// of an export never interrupted, every document once and in order.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { ExportSummary } from '../../src/export/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { killStarted, startCli } from '../support/spawnCli.js';
import { within } from '../support/testEnvironment.js';

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
    expect(after.progress.documents).toBeGreaterThan(before.progress.documents);
    expect(statSync(`${out}.partial`).size).toBe(after.progress.bytes);
    const last = await startCli(args, env).exited;
    expect(last.stderr).toBe('');
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
