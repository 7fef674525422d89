// labelkit eval and labelkit labels over real HTTP against the emulator: the fixture's known gold
// and the model's known mistakes (evalFixture.ts); every count and figure computed by hand below.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, waitForJob } from '../../src/client/index.js';
import { main } from '../../src/cli/main.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import type { EvalReport } from '../../src/eval/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { MODEL, PROJECT, startEvalFixture } from '../support/evalFixture.js';

let fixture: Awaited<ReturnType<typeof startEvalFixture>>;
let env: Record<string, string>;
let tmp: string;

/** Runs the CLI in process against the emulator; the exit code, stdout and stderr. */
async function cli(...args: string[]) {
  const io = fakeIo(env);
  const code = await main(argv(...args), io);
  return { code, out: io.out(), err: io.err() };
}
const evalJson = async (...args: string[]) => {
  const { code, out, err } = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--json', ...args);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out) as EvalReport;
};
const rows = (r: EvalReport) => r.labels.map((l) => [l.name, l.gold, l.predicted, l.tp, l.fp, l.fn, l.precision, l.recall, l.f1]);
const cells = (r: EvalReport) => r.confusion.map((c) => [c.gold?.name ?? '(none)', c.predicted?.name ?? '(none)', c.count]);

beforeAll(async () => {
  fixture = await startEvalFixture();
  tmp = await mkdtemp(join(tmpdir(), 'labelkit-eval-errors-'));
  env = { LABELKIT_URL: fixture.emu.url, LABELKIT_TOKEN: fixture.emu.token };
}, 30_000);

afterAll(async () => {
  await fixture?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('labelkit eval', () => {
  it('scores strict matches per label: the boundary, the label, the missed and the spurious span each cost', async () => {
    const r = await evalJson();
    expect(r).toMatchObject({ version: 1, projectId: PROJECT, labelerEmail: MODEL, match: 'strict', layer: null, minConfidence: null, documents: 1 });
    // PERSON: G1 found (P1); G4 missed; P3 is PERSON where gold says LOC.     tp 1 of 2 / 2
    // ORG:    P2 stops one token short of G2; P5 is spurious.                   tp 0 of 2 / 1
    // LOC:    G5 found (P4); G3 got PERSON.                                    tp 1 of 1 / 2
    expect(rows(r)).toEqual([
      ['PERSON', 2, 2, 1, 1, 1, 1 / 2, 1 / 2, 1 / 2],
      ['ORG', 1, 2, 0, 2, 1, 0, 0, 0],
      ['LOC', 2, 1, 1, 0, 1, 1, 1 / 2, 2 / 3],
    ]);
    expect(r.labels.map((l) => [l.id, l.layer])).toEqual([['per', 0], ['org', 0], ['loc', 0]]);
    expect(r.micro).toEqual({ gold: 5, predicted: 5, tp: 2, fp: 3, fn: 3, precision: 2 / 5, recall: 2 / 5, f1: 2 / 5, zeroDivision: [] });
    // macro: P (1/2 + 0 + 1)/3, R (1/2 + 0 + 1/2)/3, F1 (1/2 + 0 + 2/3)/3;
    // weighted by gold 2, 1, 2: P (1/2·2 + 1·2)/5, R (1/2·2 + 1/2·2)/5, F1 (1/2·2 + 2/3·2)/5.
    expect(r.macro.precision).toBeCloseTo(1 / 2, 12);
    expect(r.macro.recall).toBeCloseTo(1 / 3, 12);
    expect(r.macro.f1).toBeCloseTo(7 / 18, 12);
    expect(r.weighted.precision).toBeCloseTo(3 / 5, 12);
    expect(r.weighted.recall).toBeCloseTo(2 / 5, 12);
    expect(r.weighted.f1).toBeCloseTo(7 / 15, 12);
    expect(cells(r)).toEqual([
      ['PERSON', 'PERSON', 1],
      ['PERSON', '(none)', 1],
      ['ORG', '(none)', 1],
      ['LOC', 'PERSON', 1],
      ['LOC', 'LOC', 1],
      ['(none)', 'ORG', 2],
    ]);
    expect(r.goldLabeledBy).toEqual({ AUTO: 1, REVIEWER: 4 });
    expect(r.goldExcluded).toEqual({ conflict: 1, rejected: 0, deleted: 1 });
  });

  it('scores overlap matches: the short boundary counts as found, the rest does not', async () => {
    const r = await evalJson('--match', 'overlap');
    expect(r.match).toBe('overlap');
    expect(rows(r)).toEqual([
      ['PERSON', 2, 2, 1, 1, 1, 1 / 2, 1 / 2, 1 / 2],
      ['ORG', 1, 2, 1, 1, 0, 1 / 2, 1, 2 / 3],
      ['LOC', 2, 1, 1, 0, 1, 1, 1 / 2, 2 / 3],
    ]);
    expect(r.micro).toMatchObject({ gold: 5, predicted: 5, tp: 3, fp: 2, fn: 2, precision: 3 / 5, recall: 3 / 5, f1: 3 / 5 });
    // macro: P (1/2 + 1/2 + 1)/3, R (1/2 + 1 + 1/2)/3, F1 (1/2 + 2/3 + 2/3)/3 = 11/18;
    // weighted: P (1/2·2 + 1/2·1 + 1·2)/5, R (1/2·2 + 1·1 + 1/2·2)/5, F1 (1/2·2 + 2/3·1 + 2/3·2)/5.
    expect(r.macro.precision).toBeCloseTo(2 / 3, 12);
    expect(r.macro.recall).toBeCloseTo(2 / 3, 12);
    expect(r.macro.f1).toBeCloseTo(11 / 18, 12);
    expect(r.weighted.precision).toBeCloseTo(7 / 10, 12);
    expect(r.weighted.recall).toBeCloseTo(3 / 5, 12);
    expect(r.weighted.f1).toBeCloseTo(3 / 5, 12);
    expect(cells(r)).toEqual([
      ['PERSON', 'PERSON', 1],
      ['PERSON', '(none)', 1],
      ['ORG', 'ORG', 1],
      ['LOC', 'PERSON', 1],
      ['LOC', 'LOC', 1],
      ['(none)', 'ORG', 1],
    ]);
  });

  it('scores per token', async () => {
    const r = await evalJson('--match', 'token');
    // Gold tokens: PERSON 0:0 0:1 1:0 1:1, ORG 0:3 0:4, LOC 0:6 1:3.
    // Predicted:   PERSON 0:0 0:1 0:6,     ORG 0:3 2:1, LOC 1:3.
    expect(rows(r)).toEqual([
      ['PERSON', 4, 3, 2, 1, 2, 2 / 3, 1 / 2, 4 / 7],
      ['ORG', 2, 2, 1, 1, 1, 1 / 2, 1 / 2, 1 / 2],
      ['LOC', 2, 1, 1, 0, 1, 1, 1 / 2, 2 / 3],
    ]);
    expect(r.micro).toMatchObject({ gold: 8, predicted: 6, tp: 4, fp: 2, fn: 4, precision: 2 / 3, recall: 1 / 2, f1: 4 / 7 });
    expect(cells(r)).toEqual([
      ['PERSON', 'PERSON', 2],
      ['PERSON', '(none)', 2],
      ['ORG', 'ORG', 1],
      ['ORG', '(none)', 1],
      ['LOC', 'PERSON', 1],
      ['LOC', 'LOC', 1],
      ['(none)', 'ORG', 1],
    ]);
  });

  it('gives the four SemEval-2013 9.1 schemes per label and overall, and each document\'s counts', async () => {
    const r = await evalJson();
    // Pairs (any label, sharing a character): G1–P1 exact; G2–P2 same label, other boundary;
    // G3–P3 same boundaries, other label; G5–P4 exact. G4 missed, P5 spurious.
    // F1 is 2PR / (P + R), as nervaluate: 0.4000000000000001 for P = R = 0.4, so figures to 12 places.
    const c = (s: EvalReport['schemes']['strict']['overall']) => [s.correct, s.incorrect, s.partial, s.missed, s.spurious, s.possible, s.actual, ...[s.precision, s.recall, s.f1].map((x) => Number(x.toFixed(12)))];
    expect(c(r.schemes.strict.overall)).toEqual([2, 2, 0, 1, 1, 5, 5, 2 / 5, 2 / 5, 2 / 5]);
    expect(c(r.schemes.exact.overall)).toEqual([3, 1, 0, 1, 1, 5, 5, 3 / 5, 3 / 5, 3 / 5]);
    expect(c(r.schemes.partial.overall)).toEqual([3, 0, 1, 1, 1, 5, 5, 3.5 / 5, 3.5 / 5, 3.5 / 5]);
    expect(c(r.schemes.ent_type.overall)).toEqual([3, 1, 0, 1, 1, 5, 5, 3 / 5, 3 / 5, 3 / 5]);
    // Per label, each label on its own (nervaluate's per-entity results): PERSON G1 correct, G4
    // missed, P3 (PERSON over the LOC G3) spurious; ORG G2 incorrect, P5 spurious; LOC G3 missed,
    // G5 correct. The labels' possible and actual add up to one more than the overall ones: G3–P3.
    expect(r.schemes.strict.labels.map((l) => [l.name, l.correct, l.incorrect, l.partial, l.missed, l.spurious, l.possible, l.actual])).toEqual([
      ['PERSON', 1, 0, 0, 1, 1, 2, 2],
      ['ORG', 0, 1, 0, 0, 1, 1, 2],
      ['LOC', 1, 0, 0, 1, 0, 2, 1],
    ]);
    expect(r.schemes.partial.labels.map((l) => [l.name, l.correct, l.partial])).toEqual([
      ['PERSON', 1, 0],
      ['ORG', 0, 1],
      ['LOC', 1, 0],
    ]);
    expect(r.perDocument).toEqual([{ documentId: 'news-1', gold: 5, predicted: 5, tp: 2, fp: 3, fn: 3, precision: 2 / 5, recall: 2 / 5, f1: 2 / 5, zeroDivision: [] }]);
    const text = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--scheme', 'partial');
    expect(text.code).toBe(0);
    expect(text.out).toContain('Scheme partial (SemEval-2013 9.1, as nervaluate; a partial match counts half):');
    expect(text.out).toMatch(/^ORG +0 +0 +0 +1 +0 +1 +1 +2 +0\.250 +0\.500 +0\.333$/m);
    expect(text.out).toMatch(/^overall +3 +0 +1 +1 +1 +5 +5 +0\.700 +0\.700 +0\.700$/m);
  });

  it('writes every mistake with its text to --errors, as CSV or NDJSON by the extension', async () => {
    const csvPath = join(tmp, 'mistakes.csv');
    const csv = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--errors', csvPath);
    expect(csv.code).toBe(0);
    expect(csv.err).toContain(`4 mistakes written to ${csvPath}`);
    expect((await readFile(csvPath, 'utf8')).split('\n')).toEqual([
      'document,file,line,kind,layer,gold_label,gold_start,gold_end,gold_text,predicted_label,predicted_start,predicted_end,predicted_text,confidence',
      'news-1,news-1.txt,0,boundary,0,ORG,0:3:0,0:4:3,Acme Corp,ORG,0:3:0,0:3:3,Acme,0.8',
      'news-1,news-1.txt,0,wrong-label,0,LOC,0:6:0,0:6:5,London,PERSON,0:6:0,0:6:5,London,0.4',
      'news-1,news-1.txt,1,missed,0,PERSON,1:0:0,1:1:5,Grace Hopper,,,,,',
      'news-1,news-1.txt,2,spurious,0,,,,,ORG,2:1:0,2:1:6,weather,0.3',
      '',
    ]);
    const ndjsonPath = join(tmp, 'mistakes.jsonl');
    expect((await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--json', '--errors', ndjsonPath)).code).toBe(0);
    const rows = (await readFile(ndjsonPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.kind, r.goldText, r.predictedText])).toEqual([
      ['boundary', 'Acme Corp', 'Acme'],
      ['wrong-label', 'London', 'London'],
      ['missed', 'Grace Hopper', null],
      ['spurious', null, 'weather'],
    ]);
    expect(rows[0]).toMatchObject({ documentId: 'news-1', line: 0, goldLabel: 'ORG', goldStart: { sentenceId: 0, tokenId: 3, charId: 0 }, predictedEnd: { sentenceId: 0, tokenId: 3, charId: 3 }, confidence: 0.8 });
  });

  it('refuses an --errors file with another extension or in a folder that does not exist, with the other bad flags, writing nothing', async () => {
    const txt = join(tmp, 'mistakes.txt');
    const bad = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--errors', txt, '--scheme', 'fuzzy');
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain('--errors: must be a file ending in .csv, .ndjson or .jsonl');
    expect(bad.err).toContain('--scheme: must be strict, exact, partial, ent_type');
    expect(bad.out).toBe('');
    const nowhere = join(tmp, 'no-such-folder', 'mistakes.csv');
    const missing = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--errors', nowhere);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err.trim().split('\n').filter((l) => l.includes('--errors'))).toHaveLength(1);
    expect(missing.err).toContain(`--errors: cannot write ${nowhere}: folder ${join(tmp, 'no-such-folder')} does not exist`);
    const dir = join(tmp, 'folder.csv');
    await mkdir(dir);
    const folder = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--errors', dir);
    expect(folder.code).toBe(EXIT.usage);
    expect(folder.err).toContain(`--errors: cannot write ${dir}: it is a folder`);
    expect(existsSync(txt) || existsSync(nowhere)).toBe(false);
  });

  it('writes the --json report to --json-out while it prints markdown, whole (no temporary file left), and says so on stderr', async () => {
    const path = join(tmp, 'report.json');
    const run = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--ci', '--seed', '7', '--format', 'markdown', '--json-out', path);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^#### labelkit eval · /);
    expect(run.err).toContain(`labelkit: report written to ${path}\n`);
    // The same JSON as --json, from the same flags.
    const json = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--ci', '--seed', '7', '--json');
    const written = await readFile(path, 'utf8');
    expect(written).toBe(json.out);
    expect((JSON.parse(written) as EvalReport).intervals).toBeDefined();
    expect((await readdir(tmp)).filter((name) => name.includes('report.json') && name !== 'report.json')).toEqual([]);
    // With a baseline (even the file it replaces), the comparison is in the file too.
    const again = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--baseline', path, '--max-drop', '0.02', '--seed', '7', '--format', 'markdown', '--json-out', path);
    expect(again.code).toBe(0);
    expect((JSON.parse(await readFile(path, 'utf8')) as EvalReport).comparison?.regressions).toBe(0);
  });

  it('refuses a --json-out it cannot write, or the --errors file, before reading anything', async () => {
    const nowhere = join(tmp, 'no-such-folder', 'report.json');
    const bad = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--json-out', nowhere, '--scheme', 'fuzzy');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`--json-out: cannot write ${nowhere}: folder ${join(tmp, 'no-such-folder')} does not exist`);
    expect(bad.err).toContain('--scheme: must be');
    const same = join(tmp, 'both.ndjson');
    const both = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--errors', same, '--json-out', same);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--json-out: names the file of --errors');
    expect(existsSync(same)).toBe(false);
  });

  it('leaves out predictions under --min-confidence', async () => {
    // P3 (0.4) and P5 (0.3) go: PERSON 1 of 1 predicted, ORG 0 of 1, LOC 1 of 1.
    const r = await evalJson('--min-confidence', '0.5');
    expect(r.predictedBelowConfidence).toBe(2);
    expect(rows(r)).toEqual([
      ['PERSON', 2, 1, 1, 0, 1, 1, 1 / 2, 2 / 3],
      ['ORG', 1, 1, 0, 1, 1, 0, 0, 0],
      ['LOC', 2, 1, 1, 0, 1, 1, 1 / 2, 2 / 3],
    ]);
    expect((await evalJson('--layer', '1')).labels).toEqual([]);
  });

  it('exits 11 when micro F1 is under --fail-under, and 0 when it is not', async () => {
    const under = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--fail-under', '0.5');
    expect(under.code).toBe(EXIT.f1BelowThreshold);
    expect(under.code).toBe(11);
    expect(under.err).toContain('micro F1 0.400 is under --fail-under 0.5');
    const over = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--fail-under', '0.4');
    expect(over.code).toBe(0);
    expect(over.out).toMatch(/^PERSON +0 +2 +2 +1 +1 +1 +0\.500 +0\.500 +0\.500$/m);
    expect(over.out).toMatch(/^micro avg +5 +5 +2 +3 +3 +0\.400 +0\.400 +0\.400$/m);
    expect(over.out).toContain('Gold used: AUTO 1, REVIEWER 4 · left out: 1 CONFLICT, 0 rejected, 1 deleted');
  });

  it('lists every bad flag at once before sending anything, and names the labelers when the e-mail has no copy', async () => {
    const bad = await cli('eval', '--match', 'fuzzy', '--layer', '-1', '--min-confidence', '2', '--fail-under', 'x');
    expect(bad.code).toBe(2);
    for (const field of ['--project', '--match', '--layer', '--min-confidence', '--fail-under']) expect(bad.err).toContain(field);
    const nobody = await cli('eval', '--project', PROJECT, '--labeler', 'nobody@example.com');
    expect(nobody.code).toBe(2);
    expect(nobody.err).toContain(`--labeler: project ${PROJECT} has no copy of labeler nobody@example.com (labelers of this project: ${MODEL})`);
  });

  it('uses the only labeler copy without --labeler, and asks for --labeler, naming both, once there are two', async () => {
    expect((await cli('eval', '--project', PROJECT, '--json')).code).toBe(0);
    const client = createLabelingClient({ url: fixture.emu.url, token: fixture.emu.token, poll: { intervalMs: 20 } });
    try {
      const job = await startAutoLabel(client, { projectId: PROJECT, labelerEmail: 'second@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: fixture.model.url, secretKey: 'model-secret' } });
      expect((await waitForJob(client, job.id, { timeoutMs: 20_000 })).outcome).toBe('delivered');
    } finally {
      client.close();
    }
    const ambiguous = await cli('eval', '--project', PROJECT);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain(`--labeler: project ${PROJECT} has 2 labeler copies: say whose labels are the model's (labelers of this project: ${MODEL}, second@example.com)`);
    // The model's own copy still scores as before.
    expect((await evalJson()).micro).toMatchObject({ tp: 2, fp: 3, fn: 3 });
  });
});

describe('labelkit labels', () => {
  it("lists the model's copy, one label per line with its document, text and name", async () => {
    const { code, out } = await cli('labels', '--project', PROJECT, '--labeler', MODEL);
    expect(code).toBe(0);
    expect(out.trim().split('\n')).toEqual([
      'news-1.txt:0  "Ada Lovelace"  PERSON  LABELER, confidence 0.9',
      'news-1.txt:0  "Acme"  ORG  LABELER, confidence 0.8',
      'news-1.txt:0  "London"  PERSON  LABELER, confidence 0.4',
      'news-1.txt:1  "Paris"  LOC  LABELER, confidence 0.95',
      'news-1.txt:2  "weather"  ORG  LABELER, confidence 0.3',
    ]);
  });

  it('lists the reviewer copy by default, as JSON lines or CSV', async () => {
    const json = await cli('labels', '--project', PROJECT, '--json');
    const lines = json.out.trim().split('\n').map((l) => JSON.parse(l) as { text: string; label: string; labeledBy: string | null; deleted: boolean });
    expect(lines.map((l) => [l.text, l.label, l.labeledBy, l.deleted])).toEqual([
      ['Ada Lovelace', 'PERSON', 'REVIEWER', false],
      ['Acme Corp', 'ORG', 'REVIEWER', false],
      ['London', 'LOC', 'REVIEWER', false],
      ['Grace Hopper', 'PERSON', 'REVIEWER', false],
      ['Paris', 'LOC', 'AUTO', false],
      ['Paris', 'ORG', 'CONFLICT', false],
      ['weather', 'ORG', 'REVIEWER', true],
    ]);
    const csv = await cli('labels', '--project', PROJECT, '--csv');
    expect(csv.out.split('\n')[0]).toBe('document,file,sentence,start_token,start_char_in_token,end_sentence,end_token,last_char_in_token,text,label,label_id,layer,labeled_by,confidence,deleted');
    expect(csv.out.split('\n')[2]).toBe('news-1,news-1.txt,0,3,0,0,4,3,Acme Corp,ORG,org,0,REVIEWER,,false');
  });
});
