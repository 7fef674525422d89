// The pure parts of a dataset release (issue 42): splits by hash, stratified splits, the filters'
// flags, the manifest and its delta (rebuilt byte for byte), and the dataset card's layout.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Cell, TextLabel } from '../../src/labels/index.js';
import { createStratifier, datasetCard, deltaSlices, flattenDocument, keepLabels, parseDocumentIds, parseLabelNames, parseSplits, parseStatuses, quotas, splitOf } from '../../src/export/index.js';
import type { ReleaseManifest } from '../../src/export/index.js';
import { buildRelease, generatedDocuments, LABELS, makeDocument, OPTIONS, sha256 } from './releaseParts.js';
import type { BuiltRelease } from './releaseParts.js';

const SPLITS = OPTIONS.splits;

describe('parseSplits', () => {
  it('reads NAME=SHARE pairs, decimals or percentages, in the order given', () => {
    expect(parseSplits('train=0.8,dev=0.1,test=0.1')).toEqual({ splits: SPLITS, problems: [] });
    expect(parseSplits('train=70%, test=30%').splits).toEqual([
      { name: 'train', share: 0.7 },
      { name: 'test', share: 0.3 },
    ]);
  });

  it('lists every problem at once, each naming the flag and the rule', () => {
    expect(parseSplits('train=0.8,train=0.1,my split=0.1,dev=x,test')).toEqual({
      splits: [],
      problems: [
        { path: '--split', message: 'split "train" is given twice' },
        { path: '--split', message: 'split name "my split" must be letters, digits or _ (a Hugging Face split name)' },
        { path: '--split', message: 'the share of "dev" must be a number above 0 and at most 1 (or a percentage), not "x"' },
        { path: '--split', message: '"test" must be NAME=SHARE (e.g. train=0.8)' },
      ],
    });
    expect(parseSplits('train=0.8,test=0.1').problems).toEqual([{ path: '--split', message: 'the shares must add up to 1, not 0.9' }]);
  });
});

describe('splitOf', () => {
  it('is a function of the id and the seed only: another seed moves documents, the same one never', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `doc-${i}`);
    const a = ids.map((id) => splitOf(id, '1', SPLITS));
    expect(ids.map((id) => splitOf(id, '1', SPLITS))).toEqual(a);
    expect(ids.map((id) => splitOf(id, '2', SPLITS))).not.toEqual(a);
  });

  it('gives each split its share of 1,000 documents within 3 standard deviations of a binomial', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) counts.set(splitOf(`d${i}`, 'seed', SPLITS), (counts.get(splitOf(`d${i}`, 'seed', SPLITS)) ?? 0) + 1);
    for (const { name, share } of SPLITS) expect(Math.abs(counts.get(name)! - 1000 * share)).toBeLessThanOrEqual(3 * Math.sqrt(1000 * share * (1 - share)));
  });
});

describe('a release built twice, and grown by 10 documents', () => {
  it('gives byte-identical files and manifest for the same documents and seed', () => {
    const docs = generatedDocuments(300);
    const [a, b] = [buildRelease(docs), buildRelease(docs)];
    expect(b.manifestText).toBe(a.manifestText);
    expect([...b.files].map(([p, f]) => [p, sha256(f)])).toEqual([...a.files].map(([p, f]) => [p, sha256(f)]));
    expect(a.manifest.files.map((f) => f.sha256)).toEqual([...a.files.values()].map(sha256));
  });

  it('moves no earlier document when 10 are added, plain or stratified; stratified, the 10 new ones go to the proportions ± rounding', () => {
    const docs = generatedDocuments(100);
    const more = [...docs.slice(0, 50), ...generatedDocuments(10, 'new'), ...docs.slice(50)];
    for (const stratify of [false, true]) {
      const first = buildRelease(docs, { stratify });
      const second = buildRelease(more, { stratify }, stratify ? first : undefined);
      const before = new Map(first.manifest.documents.map((d) => [d.id, d.split]));
      const moved = second.manifest.documents.filter((d) => before.has(d.id) && before.get(d.id) !== d.split);
      expect(moved).toEqual([]);
      expect(second.manifest.documents.filter((d) => !before.has(d.id))).toHaveLength(10);
      if (stratify) {
        // 100 documents were dealt 80/10/10; 110 are dealt 88/11/11: the 10 new ones 8/1/1.
        expect(first.manifest.files.map((f) => f.documents)).toEqual(quotas(SPLITS, 100));
        expect(second.manifest.files.map((f) => f.documents)).toEqual(quotas(SPLITS, 110));
      }
    }
  });
});

describe('createStratifier', () => {
  /** For each label: how far its documents per split are from share × its documents. */
  const deviations = (docs: ReturnType<typeof generatedDocuments>, splitOfDoc: (id: string, labels: string[]) => string) => {
    const per = new Map(LABELS.map((l) => [l, new Map(SPLITS.map((s) => [s.name, 0]))]));
    for (const doc of docs) {
      const labels = [...new Set(doc.lines.flatMap((l) => l.spans.map((s) => s.label)))];
      const split = splitOfDoc(doc.documentId, labels);
      for (const l of labels) per.get(l)!.set(split, per.get(l)!.get(split)! + 1);
    }
    return LABELS.map((label) => {
      const row = per.get(label)!;
      const total = [...row.values()].reduce((a, b) => a + b, 0);
      return { label, total, worst: Math.max(...SPLITS.map((s) => Math.abs(row.get(s.name)! - s.share * total))) };
    });
  };

  it("keeps each label's documents per split within 1 document of share × its documents on a 1,000-document set (plain hashing does not)", () => {
    const docs = generatedDocuments(1000);
    const deal = createStratifier({ splits: SPLITS, seed: '7', total: docs.length });
    const stratified = deviations(docs, (id, labels) => deal.assign(id, labels));
    // The stated tolerance (docs/export.md): each label within 1 document of its share in each split.
    for (const { label, total, worst } of stratified) expect(worst, `${label} (${total} documents)`).toBeLessThanOrEqual(1);
    expect(stratified.map((s) => s.total).every((t) => t >= 10)).toBe(true);
    const plain = deviations(docs, (id) => splitOf(id, '7', SPLITS));
    expect(Math.max(...plain.map((p) => p.worst))).toBeGreaterThan(1);
  });

  it('keeps documents already assigned where they are and counts them towards their split', () => {
    const assigned = new Map([
      ['a', 'test'],
      ['b', 'test'],
    ]);
    const deal = createStratifier({ splits: SPLITS, seed: '7', total: 10, assigned });
    const splits = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((id) => deal.assign(id, []));
    expect(splits.slice(0, 2)).toEqual(['test', 'test']);
    // 10 documents are dealt 8/1/1; test already holds 2, so the 8 new ones fill train and dev.
    expect(['train', 'dev', 'test'].map((name) => splits.filter((s) => s === name).length)).toEqual([7, 1, 2]);
  });
});

describe("the filters' flags", () => {
  it('reads statuses, label names and document ids, and lists every problem with where it is', () => {
    expect(parseStatuses('completed')).toEqual({ statuses: ['completed'], problems: [] });
    expect(parseStatuses('completed,done,reviewed').problems.map((p) => p.message)).toEqual([
      '"done" is not a status: use completed or in-progress (TextDocument.isCompleted of the copy)',
      '"reviewed" is not a status: use completed or in-progress (TextDocument.isCompleted of the copy)',
    ]);
    expect(parseLabelNames('PERSON, DATE')).toEqual({ labels: ['PERSON', 'DATE'], problems: [] });
    expect(parseLabelNames('PERSON,,PERSON').problems).toEqual([
      { path: '--labels', message: 'holds an empty label name (names are separated by commas)' },
      { path: '--labels', message: 'names "PERSON" twice' },
    ]);
    expect(parseDocumentIds('doc-1\n# a comment\n\ndoc-2  # why\ndoc-1\n')).toEqual({ ids: ['doc-1', 'doc-2'], problems: [{ path: '--documents:5', message: 'repeats document "doc-1" of line 1' }] });
    expect(parseDocumentIds('# nothing\n').problems).toEqual([{ path: '--documents', message: 'lists no document id (one per line)' }]);
  });

  it('drops the labels not kept, counted by name, before the flat rules: a kept child inside a dropped parent stays', () => {
    const names = new Map([
      ['e', 'ENTITY'],
      ['p', 'PERSON'],
    ]);
    const at = (l: string, from: number, to: number, extra: Partial<TextLabel> = {}): TextLabel => ({ id: `${l}${from}${to}`, l, layer: 0, start: { sentenceId: 0, tokenId: from, charId: 0 }, end: { sentenceId: 0, tokenId: to, charId: 2 }, ...extra });
    const labels = [at('e', 0, 2), at('p', 0, 1), at('e', 1, 1, { deleted: true }), at('e', 0, 0, { layer: 1 })];
    const { labels: kept, dropped } = keepLabels(labels, { layer: 0, names, keep: new Set(['PERSON']) });
    expect([...dropped]).toEqual([['ENTITY', 1]]);
    const cell: Cell = { line: 0, content: 'Ada Lov xyz', tokens: ['Ada', 'Lov', 'xyz'], status: 'DISPLAYED' };
    const flat = flattenDocument([cell], kept, { layer: 0, names, strict: false, where: 'p/d' });
    expect(flat.lines[0]!.tags).toEqual(['B-PERSON', 'I-PERSON', 'O']);
    expect(flat.leftOut.labels).toMatchObject({ deleted: 1, otherLayer: 1, nested: 0 });
  });
});

describe('a delta release (--since) and apply-delta', () => {
  /** Rebuilds the new release's files from the old release's and the delta's, slice by slice. */
  const applyInMemory = (old: BuiltRelease, delta: BuiltRelease) =>
    new Map([...deltaSlices(old.manifest, delta.manifest)].map(([path, slices]) => [path, Buffer.concat(slices.map((s) => (s.from === 'old' ? old.files : delta.delta).get(s.path)!.subarray(s.offset, s.offset + s.bytes)))]));

  const week = (stratify: boolean) => {
    const docs = generatedDocuments(60);
    const old = buildRelease(docs, { stratify });
    // Next week: 5 documents' labels changed, 3 added, 2 deleted.
    const changedIds = [3, 11, 20, 41, 58].map((i) => docs[i]!.documentId);
    const deletedIds = [7, 30].map((i) => docs[i]!.documentId);
    const next = docs.filter((d) => !deletedIds.includes(d.documentId)).map((d) => (changedIds.includes(d.documentId) ? makeDocument(d.documentId, [...LABELS.slice(0, 2)], 1) : d));
    next.splice(10, 0, ...generatedDocuments(3, 'added'));
    return { old, next, changedIds, deletedIds };
  };

  for (const stratify of [false, true]) {
    it(`lists exactly the 5 changed, 3 added and 2 deleted documents, and rebuilds the fresh export's bytes${stratify ? ' (stratified)' : ''}`, () => {
      const { old, next, changedIds, deletedIds } = week(stratify);
      const delta = buildRelease(next, { stratify }, old);
      expect(delta.manifest.delta!.changed.map((d) => d.id).sort()).toEqual([...changedIds].sort());
      expect(delta.manifest.delta!.added.map((d) => d.id)).toEqual(['added-00000', 'added-00001', 'added-00002']);
      expect(delta.manifest.delta!.removed.map((d) => d.id).sort()).toEqual([...deletedIds].sort());
      expect(delta.manifest.delta!.since).toBe(sha256(old.manifestText));
      // The delta files hold those 8 documents' bytes, and nothing else.
      const eight = new Set([...changedIds, 'added-00000', 'added-00001', 'added-00002']);
      const expected = delta.manifest.documents.filter((d) => eight.has(d.id)).reduce((n, d) => n + d.bytes, 0);
      expect([...delta.delta.values()].reduce((n, f) => n + f.length, 0)).toBe(expected);
      const rebuilt = applyInMemory(old, delta);
      // The fresh export of next week's documents: the same splits (stratified: keeping the old release's).
      const fresh = stratify ? delta : buildRelease(next);
      const freshSha = fresh.manifest.files.map((f) => [f.path, f.sha256]);
      expect([...rebuilt].map(([path, bytes]) => [path, sha256(bytes)])).toEqual(freshSha);
      if (!stratify) expect(delta.manifest.files).toEqual(fresh.manifest.files);
    });
  }

  it('builds the same manifest but its document list when the builder lists none (the writer writes them from its journal), and still refuses a document of the last release twice', () => {
    const { old, next } = week(false);
    const listed = buildRelease(next, {}, old);
    const unlisted = buildRelease(next, {}, old, false);
    expect(listed.manifest.documents).toHaveLength(next.length);
    expect(unlisted.manifest.documents).toEqual([]);
    expect({ ...unlisted.manifest, documents: listed.manifest.documents }).toEqual(listed.manifest);
    expect(unlisted.delta).toEqual(listed.delta);
    expect(() => buildRelease([...next, next[0]!], {}, old, false)).toThrow(/is twice in the release/);
  });

  it('rebuilds other bytes than the fresh export when the delta drops one change, and refuses a delta of other options', () => {
    const { old, next } = week(false);
    const delta = buildRelease(next, {}, old);
    const fresh = buildRelease(next);
    // Drop one change: the delta no longer lists it, and its bytes are not in the delta's file.
    const dropped = delta.manifest.delta!.changed[0]!;
    const doc = delta.manifest.documents.find((d) => d.id === dropped.id)!;
    const lessDelta: BuiltRelease = {
      ...delta,
      manifest: { ...delta.manifest, documents: delta.manifest.documents.map((d) => (d.id === dropped.id ? { ...d, hash: old.manifest.documents.find((o) => o.id === d.id)!.hash, bytes: old.manifest.documents.find((o) => o.id === d.id)!.bytes } : d)), delta: { ...delta.manifest.delta!, changed: delta.manifest.delta!.changed.slice(1) } },
    };
    const path = delta.manifest.files.find((f) => f.split === doc.split)!.path;
    const deltaPath = delta.manifest.delta!.files.find((f) => f.split === doc.split)!.path;
    const ownStart = delta.manifest.documents.filter((d) => d.split === doc.split && delta.manifest.delta!.changed.concat(delta.manifest.delta!.added).some((k) => k.id === d.id)).findIndex((d) => d.id === dropped.id);
    expect(ownStart).toBeGreaterThanOrEqual(0);
    const bytes = delta.delta.get(deltaPath)!;
    const before = delta.manifest.documents.filter((d) => d.split === doc.split && delta.manifest.delta!.changed.concat(delta.manifest.delta!.added).some((k) => k.id === d.id)).slice(0, ownStart).reduce((n, d) => n + d.bytes, 0);
    lessDelta.delta = new Map([...delta.delta, [deltaPath, Buffer.concat([bytes.subarray(0, before), bytes.subarray(before + doc.bytes)])]]);
    const rebuilt = applyInMemory(old, lessDelta);
    expect(sha256(rebuilt.get(path)!)).not.toBe(fresh.manifest.files.find((f) => f.path === path)!.sha256);

    const other = buildRelease(next, { seed: '8' });
    expect(() => deltaSlices(old.manifest, { ...other.manifest, delta: delta.manifest.delta! })).toThrow('the delta is not of this release: seed was "7", now "8"');
  });
});

/** The parts of a card's YAML header the `datasets` library reads. */
interface CardHeader {
  configs: { config_name: string; data_files: { split: string; path: string }[] }[];
  dataset_info: { features: { name: string; sequence?: { class_label: { names: Record<string, string> } } }[]; splits: { name: string; num_bytes: number; num_examples: number }[] };
}

describe('datasetCard', () => {
  /** The YAML header and the body of a card. */
  const split = (card: string) => {
    const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(card);
    expect(m, 'a card starts with a YAML header between --- lines').not.toBeNull();
    return { header: parse(m![1]!) as CardHeader, body: m![2]! };
  };

  it('is a Hugging Face dataset card the jsonl files load with by the layout rules: configs, features, splits', () => {
    const release = buildRelease(generatedDocuments(120));
    const manifest: ReleaseManifest = release.manifest;
    const { header, body } = split(datasetCard(manifest));
    // configs: one default config whose data_files name each split's file (and nothing else in the folder).
    expect(header.configs).toEqual([{ config_name: 'default', data_files: manifest.files.map((f) => ({ split: f.split, path: f.path })) }]);
    for (const { split: name } of header.configs[0]!.data_files) expect(name).toMatch(/^\w+(\.\w+)*$/); // datasets' split name rule
    const info = header.dataset_info;
    expect(info.features.map((f) => f.name)).toEqual(['id', 'project', 'document', 'line', 'tokens', 'ner_tags']);
    const classNames = info.features[5]!.sequence!.class_label.names;
    expect(Object.values(classNames)).toEqual(manifest.tags);
    for (const file of manifest.files) {
      const rows = release.files.get(file.path)!.toString().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(info.splits.find((s) => s.name === file.split)).toEqual({ name: file.split, num_bytes: file.bytes, num_examples: rows.length });
      for (const row of rows) {
        expect(Object.keys(row)).toEqual(info.features.map((f) => f.name));
        expect((row.ner_tags as number[]).every((t) => classNames[String(t)] !== undefined)).toBe(true);
        expect((row.tokens as string[]).length).toBe((row.ner_tags as number[]).length);
      }
      expect(body).toContain(`| ${file.split} | ${file.path} | ${file.documents} |`);
      expect(body).toContain(file.sha256);
    }
    expect(body).toContain(`| PERSON | ${manifest.files.map((f) => `${f.spans.PERSON} | ${f.documentsWith.PERSON}`).join(' | ')} |`);
    expect(body).toContain('| PERSON | B 1, I 2 | l0 |');
    expect(body).toContain('2026-11-29');
  });

  it('says what was left out and dropped, and escapes label names for markdown', () => {
    const release = buildRelease(generatedDocuments(5));
    const manifest: ReleaseManifest = { ...release.manifest, labels: [{ name: 'A|B', ids: { p: 'x' } }, { name: '<img src=x> *em*', ids: { p: 'y' } }], dropped: { labels: { DATE: 4, '[a](http://x)': 1 }, documents: { status: 2, notListed: 1 }, unknownIds: 3 }, options: { ...release.manifest.options, status: ['completed'] } };
    manifest.leftOut.labels.nested = 6;
    const { body } = split(datasetCard(manifest));
    expect(body).toContain('- 6 label(s): nested');
    expect(body).toContain('- 4 DATE label(s): not in --labels');
    expect(body).toContain('- 2 document(s): status not completed');
    expect(body).toContain('- 1 document(s): not in --documents');
    expect(body).toContain('- 3 id(s) of --documents: in no project of the release');
    expect(body).toContain('| A\\|B |');
    // Markup in a label name renders as its text (shared/escape's markdownText), in the table and in the list.
    expect(body).toContain('| \\<img src=x\\> \\*em\\* |');
    expect(body).toContain('- 1 \\[a\\](http\\://x) label(s): not in --labels');
    expect(body).not.toMatch(/(?<!\\)<img/);
  });
});
