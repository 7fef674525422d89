// `labelkit export` of the demo project over real HTTP (the emulator, and the sample model's job for
// the labeler copy): the three formats read back as their loaders read them and shown in the
// README as they are written; the CoNLL round trip scored as `labelkit eval --match strict` scores;
// bad input refused with one line, its exit code and nothing written; a resume with other flags refused.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, waitForJobOrThrow } from '../../src/client/index.js';
import { main } from '../../src/cli/main.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { Scorer } from '../../src/eval/index.js';
import type { EvalReport, EvalSpan } from '../../src/eval/index.js';
import { planExport } from '../../src/export/index.js';
import type { ExportSummary } from '../../src/export/index.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { conllSpans, readConll, readJsonl, readSpacy } from './loaders.js';
import type { LoadedSpan } from './loaders.js';
import { docSection } from '../support/docs.js';

const MODEL = 'labeler@example.com';
const SECRET = 'export-test-model-secret';
/** The page of the export (docs/export.md), whose blocks the tests compare with what the export writes. */
const readme = docSection('Get the labels out').text;

let emu: RunningEmulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator();
  const model = await startModelServer({ secretKey: SECRET, predict: createSampleModel() });
  const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 10, maxIntervalMs: 50 } });
  try {
    const job = await startAutoLabel(client, { projectId: DEMO_PROJECT_ID, labelerEmail: MODEL, options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: model.url, secretKey: SECRET } }, { allowInsecureEndpoint: true });
    await waitForJobOrThrow(client, job.id, { timeoutMs: 20_000 });
  } finally {
    client.close();
    await model.close();
  }
  dir = mkdtempSync(join(tmpdir(), 'labelkit-export-'));
  env = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token };
}, 30_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await emu?.close();
});

/** Runs `labelkit export …` in process. */
async function run(...args: string[]) {
  const io = fakeIo(env);
  const code = await main(argv('export', ...args), io);
  return { code, out: io.out(), err: io.err() };
}

async function exportDemo(format: string, out: string, ...more: string[]): Promise<ExportSummary> {
  const { code, out: stdout, err } = await run('--project', DEMO_PROJECT_ID, '--format', format, '--out', out, '--json', ...more);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(stdout) as ExportSummary;
}

/** The block of docs/export.md that follows `<!-- export:NAME -->`. */
function readmeBlock(name: string): string {
  const at = readme.indexOf(`<!-- export:${name} -->`);
  expect(at, `docs/export.md has no <!-- export:${name} --> block`).toBeGreaterThan(0);
  return /```\w*\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
}

describe('labelkit export of the demo project', () => {
  it('writes CoNLL, JSON lines and spaCy files their loaders read, the same spans in each, as the README shows them', async () => {
    const files = { conll: join(dir, 'demo.conll'), jsonl: join(dir, 'demo.jsonl'), spacy: join(dir, 'demo.spacy.jsonl') };
    const summaries = { conll: await exportDemo('conll', files.conll), jsonl: await exportDemo('jsonl', files.jsonl), spacy: await exportDemo('spacy', files.spacy) };
    const text = { conll: readFileSync(files.conll, 'utf8'), jsonl: readFileSync(files.jsonl, 'utf8'), spacy: readFileSync(files.spacy, 'utf8') };
    const tagList = JSON.parse(readFileSync(`${files.jsonl}.labels.json`, 'utf8')) as string[];

    // CoNLL: four documents of 3, 5, 4 and 7 sentences; IOB2 checked by the reader.
    const conll = readConll(text.conll);
    expect(conll.map((d) => d.length)).toEqual([3, 5, 4, 7]);
    const spans = conllSpans(text.conll);
    // JSON lines: one row per line of text, tags from the tag list written beside the file.
    const rows = readJsonl(text.jsonl, tagList);
    expect(tagList).toEqual(summaries.jsonl.tags);
    expect(rows.map((r) => r.tokens)).toEqual(conll.flat().map((s) => s.tokens));
    expect(rows.map((r) => r.tags)).toEqual(conll.flat().map((s) => s.tags));
    // spaCy: offsets inside the text, each entity the text of its tokens.
    const spacy = readSpacy(text.spacy);
    expect(spacy.length).toBe(rows.length);
    const fromSpacy: LoadedSpan[] = [];
    spacy.forEach((row, r) => {
      const { tokens } = rows[r]!;
      let at = 0;
      const starts = tokens.map((t) => (at = row.text.indexOf(t, at)) + (at += t.length) * 0);
      for (const [start, end, label] of row.entities) {
        const startToken = starts.indexOf(start);
        const endToken = starts.findIndex((s, i) => s + tokens[i]!.length === end);
        expect(startToken, `row ${r}: ${start} starts no token`).toBeGreaterThanOrEqual(0);
        expect(endToken, `row ${r}: ${end} ends no token`).toBeGreaterThanOrEqual(startToken);
        const document = [...new Set(rows.map((x) => x.document))].indexOf(row.document);
        fromSpacy.push({ document, sentence: rows.filter((x) => x.document === row.document).indexOf(rows[r]!), startToken, endToken, label });
      }
    });
    expect(fromSpacy).toEqual(spans);
    // The gold of the demo: 31 spans, with its deleted, rejected and CONFLICT labels left out and counted.
    expect(spans.length).toBe(31);
    for (const s of Object.values(summaries)) {
      expect(s).toMatchObject({ documents: 4, lines: 19, spans: { PERSON: 6, ORGANIZATION: 7, LOCATION: 8, DATE: 10 }, resumedAt: null });
      expect(s.leftOut.labels).toMatchObject({ deleted: 1, conflict: 1, rejected: 1, nested: 0, overlapping: 0 });
    }
    // The README shows each format's first document as written.
    const firstConll = text.conll.slice(0, text.conll.indexOf('-DOCSTART-', 1));
    expect(readmeBlock('conll')).toBe(firstConll);
    expect(readmeBlock('jsonl')).toBe(text.jsonl.split('\n').filter((l) => l.includes('"document":"doc-1"')).join('\n') + '\n');
    expect(readmeBlock('labels')).toBe(readFileSync(`${files.jsonl}.labels.json`, 'utf8'));
    expect(readmeBlock('spacy')).toBe(text.spacy.split('\n').filter((l) => l.includes('"document":"doc-1"')).join('\n') + '\n');
    // The README's summary is the text the CoNLL export prints (its folder shortened).
    const text2 = await run('--project', DEMO_PROJECT_ID, '--format', 'conll', '--out', files.conll);
    expect(text2.out.replaceAll(dir, '/…').replace('demo.conll', 'gold.conll')).toBe(readmeBlock('summary'));
    // Nothing left beside the outputs: no partial file, no checkpoint.
    expect(readdirSync(dir).sort()).toEqual(['demo.conll', 'demo.jsonl', 'demo.jsonl.labels.json', 'demo.spacy.jsonl']);
    expect(summaries.conll.sha256).toBe((await import('node:crypto')).createHash('sha256').update(text.conll).digest('hex'));
  }, 30_000);

  it("scores the CoNLL exports of the reviewer copy and the model's copy exactly as labelkit eval --match strict does", async () => {
    const gold = join(dir, 'gold.conll');
    const model = join(dir, 'model.conll');
    await exportDemo('conll', gold);
    await exportDemo('conll', model, '--labeler', MODEL);
    const client = createLabelingClient({ url: emu.url, token: emu.token });
    const [goldPlan, modelPlan] = await Promise.all([planExport(client, [DEMO_PROJECT_ID]), planExport(client, [DEMO_PROJECT_ID], { labelerEmail: MODEL })]).finally(() => client.close());
    const toEval = (file: string, plan: typeof goldPlan): EvalSpan[] =>
      conllSpans(readFileSync(file, 'utf8')).map((s) => {
        const tokens = readConll(readFileSync(file, 'utf8'))[s.document]![s.sentence]!.tokens;
        return {
          documentId: plan.documents[s.document]!.documentId,
          start: { sentenceId: s.sentence, tokenId: s.startToken, charId: 0 },
          end: { sentenceId: s.sentence, tokenId: s.endToken, charId: tokens[s.endToken]!.length - 1 },
          labelId: s.label,
          layer: 0,
        };
      });
    const scorer = new Scorer({ match: 'strict', labels: goldPlan.labels.map((name) => ({ id: name, layer: 0, name })) });
    scorer.add(toEval(gold, goldPlan), toEval(model, modelPlan));
    const mine = scorer.report();

    const io = fakeIo(env);
    expect(await main(argv('eval', '--project', DEMO_PROJECT_ID, '--labeler', MODEL, '--match', 'strict', '--layer', '0', '--json'), io)).toBe(0);
    const report = JSON.parse(io.out()) as EvalReport;
    const figures = (l: { name: string | null; gold: number; predicted: number; tp: number; fp: number; fn: number; precision: number; recall: number; f1: number }) => ({ name: l.name, gold: l.gold, predicted: l.predicted, tp: l.tp, fp: l.fp, fn: l.fn, precision: l.precision, recall: l.recall, f1: l.f1 });
    expect(mine.labels.map(figures)).toEqual(report.labels.map(figures));
    expect(mine.micro).toEqual(report.micro);
    expect(mine.macro).toEqual(report.macro);
    expect(mine.weighted).toEqual(report.weighted);
    expect(report.micro.tp).toBeGreaterThan(0);
    expect(report.micro.fp + report.micro.fn).toBeGreaterThan(0);
  }, 30_000);
});

describe('labelkit export progress', () => {
  it("plans each label's depth in the demo's label tree, so a child beats its parent on identical spans", async () => {
    const client = createLabelingClient({ url: emu.url, token: emu.token });
    const plan = await planExport(client, [DEMO_PROJECT_ID]).finally(() => client.close());
    const { names, depth } = plan.projects[0]!;
    const byName = Object.fromEntries([...names].map(([id, name]) => [name, depth.get(id)]));
    expect(byName).toEqual({ ENTITY: 0, PERSON: 1, ORGANIZATION: 1, LOCATION: 1, DATE: 0 });
  });

  it('reads whether each document is marked complete in the copy (TextDocument.isCompleted), what --status filters on', async () => {
    const client = createLabelingClient({ url: emu.url, token: emu.token });
    const [gold, model] = await Promise.all([planExport(client, [DEMO_PROJECT_ID]), planExport(client, [DEMO_PROJECT_ID], { labelerEmail: MODEL })]).finally(() => client.close());
    expect(gold.documents.map((d) => [d.documentId, d.completed])).toEqual([
      ['doc-1', true],
      ['doc-2', true],
      ['doc-3', true],
      ['doc-4', false],
    ]);
    expect(model.documents.every((d) => !d.completed)).toBe(true);
  });

  it('shows a progress line on a terminal (stderr) and clears it; nothing of it when stderr is not one', async () => {
    const tty = fakeIo(env, { tty: true });
    expect(await main(argv('export', '--project', DEMO_PROJECT_ID, '--format', 'spacy', '--out', join(dir, 'tty.jsonl')), tty)).toBe(0);
    expect(tty.err()).toContain('\rreading documents 4/4');
    expect(tty.err().endsWith('\r\u001b[K')).toBe(true);
    const piped = fakeIo(env);
    expect(await main(argv('export', '--project', DEMO_PROJECT_ID, '--format', 'spacy', '--out', join(dir, 'piped.jsonl')), piped)).toBe(0);
    expect(piped.err()).toBe('');
  });
});

describe('labelkit export of many projects', () => {
  it('writes them into one file in the order given, with one tag list for all (new labels after)', async () => {
    emu.emulator.store.addProject({ id: 'second', labelSets: [{ name: 'Things', labels: [{ id: 'p', name: 'PERSON' }, { id: 'x', name: 'PRODUCT' }] }], documents: [{ id: 'only', name: 'only.txt', lines: ['Ada bought a Widget'] }] });
    emu.emulator.store.setReviewLabels('second', 'only', [
      { line: 0, start_char: 0, end_char: 3, label: 'PERSON' },
      { line: 0, start_char: 13, end_char: 19, label: 'PRODUCT' },
    ]);
    const list = join(dir, 'projects.txt');
    writeFileSync(list, '# two projects\ndemo-project\nsecond\n');
    const out = join(dir, 'many.jsonl');
    const { code, out: stdout } = await run('--projects', list, '--format', 'jsonl', '--out', out, '--json');
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as ExportSummary;
    expect(summary).toMatchObject({ projects: [DEMO_PROJECT_ID, 'second'], documents: 5, spans: { PERSON: 7, PRODUCT: 1 } });
    expect(summary.tags.slice(-2)).toEqual(['B-PRODUCT', 'I-PRODUCT']);
    const rows = readJsonl(readFileSync(out, 'utf8'), JSON.parse(readFileSync(`${out}.labels.json`, 'utf8')));
    expect(rows.at(-1)).toMatchObject({ document: 'only', tokens: ['Ada', 'bought', 'a', 'Widget'], tags: ['B-PERSON', 'O', 'O', 'B-PRODUCT'] });
  });
});

describe('labelkit export refuses bad input with one line, its exit code, and nothing written', () => {
  const cases: [string, string[], number, RegExp][] = [
    ['a project that does not exist', ['--project', 'no-such-project', '--format', 'conll'], EXIT.unexpected, /no-such-project/],
    ['a copy that does not exist', ['--project', DEMO_PROJECT_ID, '--labeler', 'nobody@example.com', '--format', 'conll'], EXIT.usage, /--labeler.*nobody@example\.com.*labeler@example\.com/],
    ['a format that does not exist', ['--project', DEMO_PROJECT_ID, '--format', 'csv'], EXIT.usage, /--format: must be conll, jsonl, spacy/],
    ['a label set that is not there', ['--project', DEMO_PROJECT_ID, '--format', 'jsonl', '--layer', '3'], EXIT.usage, /--layer: project demo-project has no label set at index 3 \(its label sets: 0 "Entities"\)/],
  ];
  it.each(cases)('%s', async (_, args, code, line) => {
    const folder = mkdtempSync(join(dir, 'bad-'));
    const result = await run(...args, '--out', join(folder, 'out.txt'));
    expect(result.code).toBe(code);
    expect(result.out).toBe('');
    expect(result.err).toMatch(line);
    expect(result.err.endsWith('\n') && result.err.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('an output folder that cannot be written, before anything is sent', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    for (const out of [join(dir, 'missing', 'out.conll'), join(dir, 'a-file', 'out.conll'), dir]) {
      const io = fakeIo({ LABELKIT_URL: 'http://127.0.0.1:9/graphql', LABELKIT_TOKEN: 't' });
      expect(await main(argv('export', '--project', DEMO_PROJECT_ID, '--format', 'conll', '--out', out), io)).toBe(EXIT.usage);
      expect(io.err()).toMatch(/--out: (cannot write .*: its folder .* (does not exist|is not a folder)|.* is a folder: give a file name)/);
    }
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('a resume with other flags, naming what differs, keeping the unfinished export', async () => {
    const out = join(dir, 'resume.conll');
    writeFileSync(`${out}.checkpoint`, JSON.stringify({ checkpoint: 1, identity: { format: 'conll', copy: 'reviewer', layer: 0, strict: false, projects: [DEMO_PROJECT_ID] }, planned: 'x', progress: {} }));
    writeFileSync(`${out}.partial`, 'partial');
    const result = await run('--project', DEMO_PROJECT_ID, '--format', 'jsonl', '--out', out);
    expect(result.code).toBe(EXIT.usage);
    expect(result.err).toMatch(/--out: .*resume\.conll has an unfinished export with other flags \(format was "conll", now "jsonl"; service was unset, now "[0-9a-f]+"\)/);
    expect(readFileSync(`${out}.partial`, 'utf8')).toBe('partial');
    expect(existsSync(out)).toBe(false);
  });

  it('a resume after the project changed, saying so', async () => {
    const out = join(dir, 'changed.conll');
    const service = (await import('node:crypto')).createHash('sha256').update(emu.url).digest('hex').slice(0, 16);
    writeFileSync(`${out}.checkpoint`, JSON.stringify({ checkpoint: 1, identity: { format: 'conll', copy: 'reviewer', layer: 0, strict: false, projects: [DEMO_PROJECT_ID], service }, planned: 'another project', progress: {} }));
    writeFileSync(`${out}.partial`, 'partial');
    const result = await run('--project', DEMO_PROJECT_ID, '--format', 'conll', '--out', out);
    expect(result.code).toBe(EXIT.usage);
    expect(result.err).toMatch(/--out: the documents or the label set changed since the unfinished export of .*changed\.conll began: delete .*changed\.conll\.partial and .*changed\.conll\.checkpoint to start over/);
    expect(readFileSync(`${out}.partial`, 'utf8')).toBe('partial');
  });

  it('--strict refuses the labels a flat format changes, naming the first, and leaves nothing', async () => {
    const out = join(dir, 'strict.conll');
    const result = await run('--project', DEMO_PROJECT_ID, '--format', 'conll', '--out', out, '--strict');
    expect(result.code).toBe(EXIT.usage);
    expect(result.err).toMatch(/--strict: demo-project\/doc-2 line 1: label .* \(PERSON\) was rejected/);
    expect(readdirSync(dir).filter((f) => f.startsWith('strict'))).toEqual([]);
  });
});
