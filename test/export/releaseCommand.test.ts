// `labelkit export … --split … --seed … --out DIR` over real HTTP (the emulator): a release twice
// is the same bytes; next week's delta (5 changed, 3 added, 2 deleted) lists exactly those and
// apply-delta rebuilds a fresh full export byte for byte; the filters drop and count; bad flags are
// all refused at once before anything is sent; the leftovers of a killed run do not change the result.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { DocumentInput, RunningEmulator } from '../../src/emulator/index.js';
import type { ExportSummary, ReleaseManifest } from '../../src/export/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { useTempDirs } from '../support/tempDirs.js';
import { COMMAND_LABELS as LABELS, documentInput } from './releaseParts.js';

const PROJECT = 'release-project';
const SPLIT = ['--split', 'train=0.8,dev=0.1,test=0.1', '--seed', '7'];

let emu: RunningEmulator;
let env: Record<string, string>;
const tempDir = useTempDirs();
let dir: string;

function setProject(docs: DocumentInput[]): void {
  emu.emulator.store.addProject({ id: PROJECT, labelSets: [{ name: 'Entities', labels: LABELS.map((name, i) => ({ id: `l${i}`, name })) }], documents: docs });
}

beforeAll(async () => {
  emu = await startEmulator({ demoProject: false });
  dir = tempDir('labelkit-release-');
  // SOURCE_DATE_EPOCH fixes the release's day: the manifests and cards of two runs are the same bytes too.
  env = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, SOURCE_DATE_EPOCH: '1795910400' };
}, 30_000);

afterAll(async () => {
  await emu?.close();
});

async function run(...args: string[]) {
  const io = fakeIo(env);
  const code = await main(argv('export', ...args), io);
  return { code, out: io.out(), err: io.err() };
}

async function release(out: string, ...more: string[]): Promise<ReleaseManifest> {
  const result = await run('--project', PROJECT, '--format', 'jsonl', ...SPLIT, '--out', out, ...more);
  // Nothing on stderr but the progress lines a run off a terminal prints every 10 s (a loaded machine).
  expect({ code: result.code, err: result.err.replace(/^reading documents \d+\/\d+\n/gm, '') }).toEqual({ code: 0, err: '' });
  return JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as ReleaseManifest;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** Every file of a release folder with its SHA-256. */
const digests = (folder: string) => Object.fromEntries(readdirSync(folder).sort().map((f) => [f, sha256(join(folder, f))]));

describe('labelkit export --split (a release)', () => {
  it('writes a file per split, the manifest, the card and the tag list; the same seed twice gives the same bytes', async () => {
    setProject(Array.from({ length: 40 }, (_, n) => documentInput(n)));
    const a = await release(join(dir, 'a'));
    await release(join(dir, 'b'));
    expect(readdirSync(join(dir, 'a')).sort()).toEqual(['README.md', 'dev.jsonl', 'labels.json', 'manifest.json', 'test.jsonl', 'train.jsonl']);
    expect(digests(join(dir, 'b'))).toEqual(digests(join(dir, 'a')));
    for (const f of a.files) expect(sha256(join(dir, 'a', f.path)), f.path).toBe(f.sha256);
    expect(a.documents).toHaveLength(40);
    expect(a.files.reduce((n, f) => n + f.documents, 0)).toBe(40);
    expect(a.created).toBe('2026-11-29');
    const card = readFileSync(join(dir, 'a', 'README.md'), 'utf8');
    expect(card).toMatch(/^---\n[\s\S]*configs:\n {2}- config_name: default\n {4}data_files:\n {6}- split: train\n {8}path: train\.jsonl\n/);
    for (const f of a.files) expect(card).toContain(f.sha256);
  });

  it("next week: lists exactly the 5 changed, 3 added and 2 deleted documents, and apply-delta rebuilds the fresh export's bytes", async () => {
    const first = Array.from({ length: 40 }, (_, n) => documentInput(n));
    setProject(first);
    const r1 = join(dir, 'release-1');
    await release(r1);
    const changed = [2, 9, 17, 25, 33];
    const deleted = [5, 30];
    const next = [...first.filter((_, n) => !deleted.includes(n)).map((d) => (changed.includes(Number(d.id.slice(4))) ? documentInput(Number(d.id.slice(4)), 1) : d)), documentInput(40), documentInput(41), documentInput(42)];
    setProject(next);
    const delta = await release(join(dir, 'delta-2'), '--since', join(r1, 'manifest.json'));
    const ids = (keys: { id: string }[]) => keys.map((k) => k.id).sort();
    expect(ids(delta.delta!.changed)).toEqual(changed.map((n) => `doc-${String(n).padStart(3, '0')}`));
    expect(ids(delta.delta!.added)).toEqual(['doc-040', 'doc-041', 'doc-042']);
    expect(ids(delta.delta!.removed)).toEqual(['doc-005', 'doc-030']);
    expect(JSON.parse(readFileSync(join(dir, 'delta-2', 'removed.json'), 'utf8'))).toEqual(delta.delta!.removed);

    const applied = await run('apply-delta', r1, join(dir, 'delta-2'), '--out', join(dir, 'release-2'));
    expect({ code: applied.code, err: applied.err }).toEqual({ code: 0, err: '' });
    await release(join(dir, 'fresh-2'));
    // The rebuilt release is the fresh full export, every file byte for byte (manifest and card too).
    expect(digests(join(dir, 'release-2'))).toEqual(digests(join(dir, 'fresh-2')));
    // A delta applied to another release than its own is refused, nothing written.
    const wrong = await run('apply-delta', join(dir, 'fresh-2'), join(dir, 'delta-2'), '--out', join(dir, 'release-x'));
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('is a delta of another release');
    expect(existsSync(join(dir, 'release-x'))).toBe(false);
  });

  it('keeps only completed documents, listed ids and named labels, and counts what it dropped', async () => {
    setProject(Array.from({ length: 20 }, (_, n) => documentInput(n)));
    const list = join(dir, 'ids.txt');
    writeFileSync(list, 'doc-000\ndoc-001\ndoc-002\ndoc-004\nno-such-doc\n');
    const m = await release(join(dir, 'filtered'), '--status', 'completed', '--documents', list, '--labels', 'PERSON');
    expect(m.documents.map((d) => d.id)).toEqual(['doc-000', 'doc-002', 'doc-004']);
    expect(m.dropped.documents).toEqual({ status: 10, notListed: 7 });
    expect(m.dropped.unknownIds).toBe(1);
    expect(m.tags).toEqual(['O', 'B-PERSON', 'I-PERSON']);
    expect(Object.keys(m.dropped.labels).sort()).toEqual(['ORG', 'PLACE']);
    expect(m.dropped.labels.ORG! + m.dropped.labels.PLACE! + m.files.reduce((n, f) => n + f.spans.PERSON!, 0)).toBe(9);
  });

  it('filters a plain export too (no --split, one file): only completed documents, listed ids and named labels, what it dropped counted in its summary', async () => {
    setProject(Array.from({ length: 20 }, (_, n) => documentInput(n)));
    const list = join(dir, 'plain-ids.txt');
    writeFileSync(list, 'doc-000\ndoc-001\ndoc-002\ndoc-004\nno-such-doc\n');
    const out = join(dir, 'plain-filtered.jsonl');
    const filters = ['--status', 'completed', '--documents', list, '--labels', 'PERSON'];
    const result = await run('--project', PROJECT, '--format', 'jsonl', ...filters, '--out', out, '--json');
    expect({ code: result.code, err: result.err.replace(/^reading documents \d+\/\d+\n/gm, '') }).toEqual({ code: 0, err: '' });
    const summary = JSON.parse(result.out) as ExportSummary;
    expect(summary.documents).toBe(3);
    expect(summary.tags).toEqual(['O', 'B-PERSON', 'I-PERSON']);
    expect(summary.dropped).toMatchObject({ documents: { status: 10, notListed: 7 }, unknownIds: 1 });
    expect(Object.keys(summary.dropped!.labels).sort()).toEqual(['ORG', 'PLACE']);
    expect(summary.dropped!.labels.ORG! + summary.dropped!.labels.PLACE! + summary.spans.PERSON!).toBe(9);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { document: string; ner_tags: number[] });
    expect([...new Set(rows.map((r) => r.document))]).toEqual(['doc-000', 'doc-002', 'doc-004']);
    expect(Math.max(...rows.flatMap((r) => r.ner_tags))).toBeLessThanOrEqual(2);
    // The text summary says what was dropped, by flag.
    const text = await run('--project', PROJECT, '--format', 'jsonl', ...filters, '--out', join(dir, 'plain-filtered-2.jsonl'));
    expect(text.code).toBe(0);
    const labelsDropped = Object.entries(summary.dropped!.labels).map(([name, n]) => `${n} ${name} (--labels)`).join(', ');
    expect(text.out).toContain(`  left out: nothing\n  dropped: ${labelsDropped}, 10 documents (--status), 7 documents (--documents)\n  1 id of --documents in no project\n  sha256 `);
    // A name in no label set is refused before anything is written.
    const unknown = await run('--project', PROJECT, '--format', 'jsonl', '--labels', 'PERSON,NOPE', '--out', join(dir, 'plain-nope.jsonl'));
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^labelkit: --labels: "NOPE" is in no label set of the export \(its labels: PERSON, PLACE, ORG\)/);
    expect(existsSync(join(dir, 'plain-nope.jsonl')) || existsSync(join(dir, 'plain-nope.jsonl.partial'))).toBe(false);
  });

  it('refuses every bad flag at once, naming each, before anything is sent', async () => {
    const io = fakeIo({ LABELKIT_URL: 'http://127.0.0.1:9/graphql', LABELKIT_TOKEN: 't' });
    const code = await main(argv('export', '--project', PROJECT, '--format', 'jsonl', '--split', 'train=0.5,dev=0.4', '--status', 'reviewed', '--labels', 'A,,A', '--documents', join(dir, 'missing.txt'), '--since', join(dir, 'missing'), '--out', join(dir, 'nowhere', 'x')), io);
    expect(code).toBe(2);
    const err = io.err();
    for (const part of ['--split', 'add up to 1', '--seed', '--status', '"reviewed" is not a status', '--labels', '--documents', 'cannot read', '--since', '--out', 'does not exist']) expect(err).toContain(part);
    expect(err).not.toContain('[Network]');
  });

  it('gives the same manifest and files when run again after a kill left its partial folder and lock', async () => {
    setProject(Array.from({ length: 30 }, (_, n) => documentInput(n)));
    const clean = join(dir, 'clean');
    await release(clean);
    // What a kill -9 mid-release leaves: the partial folder, half written, and the lock of a process that is gone.
    const out = join(dir, 'killed');
    mkdirSync(`${out}.partial`);
    writeFileSync(join(`${out}.partial`, 'train.jsonl'), '{"half":');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(`${out}.lock`, `${gone} ${(await import('node:os')).hostname()}\n`);
    await release(out);
    expect(digests(out)).toEqual(digests(clean));
    expect(existsSync(`${out}.partial`) || existsSync(`${out}.lock`)).toBe(false);
  });
});
