// labelkit eval --ci, --baseline, --max-drop and --format markdown over real HTTP against the
// emulator: a project of twenty labels, two model copies that differ in one label (the second
// misses most of L07), and the first model's report saved as the baseline.
import { markdownText } from '../../src/shared/escape.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { EvalReport } from '../../src/eval/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';

const PROJECT = 'twenty-labels';
const [GOOD, WORSE] = ['good@example.com', 'worse@example.com'];
const LABELS = Array.from({ length: 20 }, (_, i) => `L${String(i).padStart(2, '0')}`);
const DOCUMENTS = 30;
// Each line is 20 words; word i is gold label i.
const LINE = LABELS.map((l) => l.toLowerCase()).join(' ');
const spanOf = (i: number) => ({ start_char: LINE.indexOf(LABELS[i]!.toLowerCase()), end_char: LINE.indexOf(LABELS[i]!.toLowerCase()) + 3 });

let emu: RunningEmulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ demoProject: false });
  dir = mkdtempSync(join(tmpdir(), 'labelkit-evalcompare-'));
  const store = emu.emulator.store;
  store.addProject({
    id: PROJECT,
    labelSets: [{ name: 'Twenty', labels: LABELS.map((name, i) => ({ id: `l${i}`, name, color: '#3b82f6' })) }],
    documents: Array.from({ length: DOCUMENTS }, (_, d) => ({ id: `doc-${d}`, name: `doc-${d}.txt`, lines: [LINE, LINE] })),
  });
  for (let d = 0; d < DOCUMENTS; d++) {
    store.setReviewLabels(PROJECT, `doc-${d}`, [0, 1].flatMap((line) => LABELS.map((label, i) => ({ line, label, ...spanOf(i) }))));
    for (const [email, worse] of [[GOOD, false], [WORSE, true]] as const) {
      for (const line of [0, 1]) {
        // Both models: on line 0 of every other document one label (d mod 20) is put as its neighbour, so every label and document varies.
        const entities = LABELS.flatMap((label, i) => {
          if (worse && i === 7 && !(line === 0 && d % 3 === 0)) return []; // the worse model misses most of L07
          const wrong = line === 0 && d % 2 === 0 && i === d % 20;
          return [{ label: wrong ? LABELS[(i + 1) % 20]! : label, ...spanOf(i), confidence_score: wrong ? 0.55 : [0.6, 0.7, 0.8, 0.9][i % 4]! }];
        });
        store.setLineLabels(PROJECT, { labelerEmail: email, role: 'LABELER' }, `doc-${d}`, line, entities);
      }
    }
  }
  env = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token };
}, 30_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await emu?.close();
});

async function cli(...args: string[]) {
  const io = fakeIo(env);
  const code = await main(argv(...args), io);
  return { code, out: io.out(), err: io.err() };
}
const save = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('labelkit eval --ci', () => {
  it('adds 95 % intervals of micro F1 and each label F1, the same for the same --seed', async () => {
    const first = await cli('eval', '--project', PROJECT, '--labeler', GOOD, '--ci', '--seed', '7', '--resamples', '200', '--json');
    expect({ code: first.code, err: first.err }).toEqual({ code: 0, err: '' });
    const report = JSON.parse(first.out) as EvalReport;
    expect(report.intervals).toMatchObject({ level: 0.95, resamples: 200, seed: 7, documents: DOCUMENTS });
    expect(report.intervals!.labels.map((l) => l.name)).toEqual(report.labels.map((l) => l.name));
    const [low, high] = report.intervals!.micro;
    expect(low).toBeLessThanOrEqual(report.micro.f1);
    expect(high).toBeGreaterThanOrEqual(report.micro.f1);
    expect(high).toBeGreaterThan(low);
    expect((await cli('eval', '--project', PROJECT, '--labeler', GOOD, '--ci', '--seed', '7', '--resamples', '200', '--json')).out).toBe(first.out);
    const text = await cli('eval', '--project', PROJECT, '--labeler', GOOD, '--ci', '--seed', '7');
    expect(text.out).toContain(`F1 95 % interval: percentile bootstrap over documents, ${DOCUMENTS} documents, 1000 resamples, seed 7:`);
    expect(text.out).toMatch(/^micro avg +0\.\d{3} +0\.\d{3}–0\.\d{3}$/m);
  }, 60_000);

  it('gives the confidence curves in --json, and each best threshold', async () => {
    const report = JSON.parse((await cli('eval', '--project', PROJECT, '--labeler', GOOD, '--json')).out) as EvalReport;
    // Right predictions score 0.6 to 0.9, the wrong ones 0.55: the best threshold drops exactly the 15 wrong ones (of 1,200).
    expect(report.confidence.micro!.thresholds).toEqual([0.55, 0.6, 0.7, 0.8, 0.9]);
    expect(report.confidence.micro!.best).toEqual({ threshold: 0.6, precision: 1, recall: 1185 / 1200, f1: (2 * 1185) / (1185 + 1200) });
    expect(report.confidence.labels).toHaveLength(20);
  }, 60_000);
});

describe('labelkit eval --baseline --max-drop', () => {
  let baseline: string;
  // Each case runs a few evals of 30 documents over HTTP: on a loaded 2-core machine that takes seconds.
  beforeAll(async () => {
    const saved = await cli('eval', '--project', PROJECT, '--labeler', GOOD, '--ci', '--seed', '1', '--json');
    expect(saved.code).toBe(0);
    baseline = save('baseline.json', saved.out);
  }, 60_000);

  it('never fails when the same copies are scored again, whatever the seed', async () => {
    for (const seed of ['1', '2', '3']) {
      const again = await cli('eval', '--project', PROJECT, '--labeler', GOOD, '--baseline', baseline, '--max-drop', '0', '--seed', seed, '--json');
      expect({ seed, code: again.code, err: again.err }).toEqual({ seed, code: 0, err: '' });
      const { comparison } = JSON.parse(again.out) as EvalReport;
      expect(comparison!.regressions).toBe(0);
      expect([comparison!.micro, ...comparison!.labels].every((c) => c.change === 0)).toBe(true);
    }
  }, 60_000);

  it('fails with exit 12 when one label of twenty dropped more than --max-drop beyond noise, naming it', async () => {
    const worse = await cli('eval', '--project', PROJECT, '--labeler', WORSE, '--baseline', baseline, '--max-drop', '0.05', '--seed', '1', '--json');
    expect(worse.code).toBe(EXIT.f1Dropped);
    expect(worse.code).toBe(12);
    const { comparison } = JSON.parse(worse.out) as EvalReport;
    expect(comparison!.labels.filter((l) => l.regression).map((l) => l.name)).toEqual(['L07']);
    expect(comparison!.micro.regression).toBe(false);
    expect(worse.err).toMatch(/^labelkit: F1 dropped more than --max-drop 0\.05 beyond noise: L07 0\.\d{3} → 0\.\d{3} \(interval 0\.\d{3}–0\.\d{3}\)\n$/);
    // Without --max-drop the change is shown, and nothing fails.
    const shown = await cli('eval', '--project', PROJECT, '--labeler', WORSE, '--baseline', baseline, '--ci', '--seed', '1');
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/^L07 +0\.\d{3} +0\.\d{3}–0\.\d{3} +0\.\d{3} +−0\.\d{3} +down, outside the interval$/m);
  }, 60_000);

  it('writes the comparison as a markdown table with --format markdown', async () => {
    const md = await cli('eval', '--project', PROJECT, '--labeler', WORSE, '--baseline', baseline, '--max-drop', '0.05', '--seed', '1', '--format', 'markdown');
    expect(md.code).toBe(12);
    const lines = md.out.split('\n');
    // The labeler's address is a value: its @ and dots are escaped (no mailto link), and render as written.
    expect(lines[0]).toBe(`#### labelkit eval · ${PROJECT} · ${markdownText(WORSE)} · match strict · ${DOCUMENTS} documents`);
    expect(lines[2]).toBe('| label | F1 | 95 % interval | baseline | change | |');
    expect(lines[3]).toBe('|:--|--:|:-:|--:|--:|:--|');
    expect(lines.filter((l) => l.startsWith('| ')).length).toBe(1 + 21); // the header, micro and twenty labels
    expect(md.out).toMatch(/^\| L07 \| 0\.\d{3} \| 0\.\d{3}–0\.\d{3} \| 0\.\d{3} \| −0\.\d{3} \| \*\*dropped more than 0\.05\*\* \|$/m);
    expect(md.out).toMatch(/^\| L00 \| 0\.\d{3} \| 0\.\d{3}–[01]\.\d{3} \| 0\.\d{3} \| ±0\.000 \| within noise \|$/m);
    expect(md.out).toContain('**1 F1 dropped more than 0.05 beyond noise.**');
  }, 60_000);

  it('lists every bad flag at once, naming the flag and the rule, and sends nothing', async () => {
    const notReport = save('not-a-report.json', JSON.stringify({ version: 1, labels: 'x' }));
    const bad = await cli('eval', '--project', PROJECT, '--baseline', notReport, '--max-drop', '-0.1', '--resamples', '0', '--seed', 'x', '--format', 'html', '--url', 'http://127.0.0.1:9', '--token', 't');
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain(`--baseline: ${notReport} is not a report of labelkit eval --json: it has no "projectId"; it has no "match"; it has no "documents"; its "micro.f1" is not a number from 0 to 1; its "labels" is not a list`);
    expect(bad.err).toContain('--max-drop: must be a number from 0 to 1');
    expect(bad.err).toContain('--resamples: must be a whole number from 1 to 1000000');
    expect(bad.err).toContain('--seed: must be a whole number from 0 to 4294967295');
    expect(bad.err).toContain('--format: must be text, json, markdown');
    const missing = await cli('eval', '--project', PROJECT, '--baseline', join(dir, 'nothing.json'), '--seed', '1', '--json', '--format', 'markdown');
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain('no such file');
    expect(missing.err).toContain('--seed: needs --ci (or --max-drop)');
    expect(missing.err).toContain('--format: --json prints JSON');
    const alone = await cli('eval', '--project', PROJECT, '--max-drop', '0.1');
    expect(alone.err).toContain('--max-drop: needs --baseline');
  }, 60_000);
});
