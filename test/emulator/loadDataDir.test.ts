import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmulatorDataError, startEmulator } from '../../src/emulator/index.js';
import { loadDataDir } from '../../src/emulator/loadDataDir.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'labelkit-data-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const write = (path: string, content: string | Buffer) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
};

/** A good project `news`: two documents, a JSON set and a CSV set. */
function goodProject() {
  write('news/project.json', '{ "name": "News" }\n');
  write('news/documents/a.txt', 'Ada Lovelace lives in London.\nGrace Hopper too.\n');
  write('news/documents/b.txt', 'One line, no final newline');
  write(
    'news/label-sets/1-entities.json',
    JSON.stringify({ name: 'Entities', labels: [{ id: 'e', name: 'ENTITY', color: '#111111' }, { id: 'p', parentId: 'e', name: 'PERSON' }] }, null, 2),
  );
  write('news/label-sets/2-dates.csv', 'id,parentId,name,color,desc,type\nd,,DATE,"#f59e0b","A day, or a ""date""",SPAN\n\ny,d,YEAR,,,ALL\n');
}

/** Loads and returns the error's problems as `file:line: …` lines relative to the folder. */
function problemsOf(): string[] {
  try {
    loadDataDir(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(EmulatorDataError);
    return (error as EmulatorDataError).problems.map((p) => `${(p.file ?? '').slice(dir.length + 1)}${p.line ? `:${p.line}` : ''}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
  }
  throw new Error('loadDataDir accepted the folder');
}

describe('loadDataDir', () => {
  it('reads projects, documents line by line, and JSON and CSV label sets when the folder is good', () => {
    goodProject();
    write('README.md', 'ignored: files directly in the folder are not projects');
    const [project, ...rest] = loadDataDir(dir);
    expect(rest).toEqual([]);
    expect(project).toEqual({
      id: 'news',
      name: 'News',
      documents: [
        { id: 'a', name: 'a.txt', lines: ['Ada Lovelace lives in London.', 'Grace Hopper too.'] },
        { id: 'b', name: 'b.txt', lines: ['One line, no final newline'] },
      ],
      labelSets: [
        { name: 'Entities', labels: [{ id: 'e', name: 'ENTITY', color: '#111111' }, { id: 'p', parentId: 'e', name: 'PERSON' }] },
        {
          name: 'dates',
          labels: [
            { id: 'd', parentId: null, name: 'DATE', color: '#f59e0b', desc: 'A day, or a "date"', type: 'SPAN' },
            { id: 'y', parentId: 'd', name: 'YEAR', color: null, desc: null, type: 'ALL' },
          ],
        },
      ],
    });
  });

  it('serves the loaded projects over GraphQL when startEmulator gets dataDir', async () => {
    goodProject();
    const emu = await startEmulator({ dataDir: dir, demoProject: false });
    try {
      const res = await fetch(emu.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.token}` },
        body: JSON.stringify({ query: '{ getCabinetLabelSetsById(cabinetId: "news:labeler") { index name tagItems { tagName parentId type } } }' }),
      });
      expect(await res.json()).toEqual({
        data: {
          getCabinetLabelSetsById: [
            { index: 0, name: 'Entities', tagItems: [{ tagName: 'ENTITY', parentId: null, type: 'SPAN' }, { tagName: 'PERSON', parentId: 'e', type: 'SPAN' }] },
            { index: 1, name: 'dates', tagItems: [{ tagName: 'DATE', parentId: null, type: 'SPAN' }, { tagName: 'YEAR', parentId: 'd', type: 'ALL' }] },
          ],
        },
      });
      expect(emu.emulator.store.projects.has('demo-project')).toBe(false);
    } finally {
      await emu.close();
    }
  });

  it('names the file and line of a JSON syntax error', () => {
    goodProject();
    write('news/label-sets/1-entities.json', '{\n  "name": "Entities",\n  "labels": [\n    { "id": "e", "name": "ENTITY" },\n  ]\n}\n');
    expect(problemsOf()).toEqual([expect.stringMatching(/^news\/label-sets\/1-entities\.json:5: is not valid JSON: .*\(line 5 column \d+\)$/)]);
  });

  it('names the file and line of every bad label in a JSON label set', () => {
    goodProject();
    write(
      'news/label-sets/1-entities.json',
      ['{', '  "name": "Entities",', '  "labels": [', '    { "id": "e", "name": "ENTITY" },', '    { "id": "p", "parentId": "nope", "name": "entity" },', '    { "id": "e", "name": "X", "colour": "red" }', '  ]', '}'].join('\n'),
    );
    expect(problemsOf()).toEqual([
      expect.stringMatching(/^news\/label-sets\/1-entities\.json:6: labels\[2\]\.colour: unknown key "colour" .*id, parentId, name, color, desc, type/),
      expect.stringMatching(/^news\/label-sets\/1-entities\.json:5: labels\[1\]\.name: "entity" .*name of label 0.*case-insensitively/),
      'news/label-sets/1-entities.json:6: labels[2].id: "e" is also the id of label 0',
      'news/label-sets/1-entities.json:5: labels[1].parentId: "nope" is not the id of a label of this set',
    ]);
  });

  it('names the file and line of bad CSV rows, and a cycle of parents, when cells span lines', () => {
    goodProject();
    write('news/label-sets/2-dates.csv', 'id,parentId,name\na,b,A\n\nc,,"unclosed\nd,,D,extra\n');
    expect(problemsOf()).toEqual([expect.stringMatching(/^news\/label-sets\/2-dates\.csv:4: a quoted cell is not closed/)]);
    write('news/label-sets/2-dates.csv', 'id,parentId,name,desc\na,,A,"two\nlines"\nb,a,B\nd,,D,x,extra\n');
    expect(problemsOf()).toEqual(['news/label-sets/2-dates.csv:4: has 3 cells, the header has 4', 'news/label-sets/2-dates.csv:5: has 5 cells, the header has 4']);
    write('news/label-sets/2-dates.csv', 'id,parentId,name,kind\na,b,A,x\nb,a,B,y\n');
    expect(problemsOf()).toEqual(['news/label-sets/2-dates.csv:1: unknown column(s) "kind" (allowed: id, parentId, name, color, desc, type)']);
    write('news/label-sets/2-dates.csv', 'id,parentId,name,desc\na,b,A,"a cell over\ntwo lines"\nb,a,B,\n');
    expect(problemsOf()).toEqual([
      expect.stringMatching(/^news\/label-sets\/2-dates\.csv:2: labels\[0\]\.parentId: .*cycle.*"a" → "b" → "a"/),
      expect.stringMatching(/^news\/label-sets\/2-dates\.csv:4: labels\[1\]\.parentId: .*cycle.*"b" → "a" → "b"/),
    ]);
  });

  it('lists every problem of every file at once: documents, project.json, folders, too many sets', () => {
    goodProject();
    write('news/documents/empty.txt', '');
    write('news/documents/latin1.txt', Buffer.from([0x6f, 0x6b, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
    write('news/documents/notes.md', '# not a document');
    write('news/project.json', '{\n  "name": "News",\n  "owner": "me"\n}');
    write('news/labelsets/x.json', '{}');
    for (const n of [3, 4, 5, 6]) write(`news/label-sets/${n}.json`, JSON.stringify({ labels: [{ id: 'a', name: `L${n}` }] }));
    write('bad id!/documents/a.txt', 'x');
    write('bad id!/label-sets/a.csv', 'id,name\na,A\n');
    write('nodocs/label-sets/a.csv', 'id,name\na,A\n');
    expect(problemsOf()).toEqual([
      'bad id!: a project folder name is the project id: letters, digits, _ or - only',
      'news/labelsets: unexpected entry (a project folder holds project.json, documents/, label-sets/ and review/)',
      'news/project.json:3: unknown key "owner" (allowed: name)',
      'news/documents/empty.txt:1: is empty: a document needs at least one line (one sentence per line)',
      'news/documents/latin1.txt:2: is not valid UTF-8 text',
      'news/documents/notes.md: unexpected entry: documents are .txt files, one sentence per line',
      'news/label-sets: holds 6 label sets; a project has at most 5',
      'nodocs/documents: is missing: put one .txt file per document in it',
    ]);
  });

  it('names the line of the bytes that are not UTF-8, after a line that holds a U+FFFD written as text', () => {
    goodProject();
    // Line 1 holds U+FFFD as its own three UTF-8 bytes (text like any other); line 3 holds a Latin-1 é.
    write('news/documents/mixed.txt', Buffer.concat([Buffer.from('a replacement \uFFFD sign\nfine\n', 'utf8'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]));
    expect(problemsOf()).toEqual(['news/documents/mixed.txt:3: is not valid UTF-8 text']);
  });

  it('says so when the folder does not exist or holds no project', () => {
    expect(problemsOf()).toEqual([': holds no project folder (DIR/<projectId>/documents/*.txt and DIR/<projectId>/label-sets/*.json|*.csv)']);
    expect(() => loadDataDir(join(dir, 'missing'))).toThrow(/data folder .*missing has 1 problem:\n {2}.*missing: is not a readable folder/);
  });
});

describe('loadDataDir review/ (the gold labels of the reviewer copy)', () => {
  const goldFile = (labels: unknown[]) => JSON.stringify({ labels }, null, 2);

  it('loads review/<documentId>.json into the document and serves it as the reviewer copy, snapped to tokens', async () => {
    goodProject();
    write('news/review/a.json', goldFile([
      { line: 0, start_char: 0, end_char: 12, label: 'person', text: 'Ada Lovelace', labeledBy: 'AUTO' },
      { line: 1, start_char: 6, end_char: 9, label: 'PERSON', deleted: true },
      { line: 0, start_char: 22, end_char: 28, label: 'YEAR', layer: 1 },
    ]));
    expect(loadDataDir(dir)[0]!.documents[0]!.review).toHaveLength(3);
    const emu = await startEmulator({ dataDir: dir, demoProject: false });
    try {
      const [reviewer] = emu.emulator.store.labelsOf('news');
      expect(reviewer).toMatchObject({ role: 'REVIEWER', labelerEmail: '' });
      expect(reviewer!.documents[0]!.lines).toEqual([
        {
          id: 0,
          text: 'Ada Lovelace lives in London.',
          entities: [
            { label: 'person', start_char: 0, end_char: 12, layer: 0, labeledBy: 'AUTO' },
            { label: 'YEAR', start_char: 22, end_char: 28, layer: 1 },
          ],
        },
        { id: 1, text: 'Grace Hopper too.', entities: [{ label: 'PERSON', start_char: 6, end_char: 12, layer: 0, deleted: true }] }, // "Hop" → "Hopper"
      ]);
    } finally {
      await emu.close();
    }
  });

  it('names the file, line and field of every bad gold label, and of a review file that names no document', () => {
    goodProject();
    write('news/review/a.json', goldFile([
      { line: 0, start_char: 0, end_char: 3, label: 'PERSON', text: 'Ada' },
      { line: 0, start_char: 0, end_char: 3, label: 'DATE' },
      { line: 1, start_char: 5, end_char: 40, label: 'PERSON', lable: 'x' },
    ]));
    write('news/review/zzz.json', goldFile([]));
    write('news/review/notes.txt', 'x');
    expect(problemsOf()).toEqual([
      'news/review/a.json:14: labels[1].label: "DATE" is not a span label of the label set of index 0',
      'news/review/a.json:21: labels[2].lable: unknown key (allowed: line, start_char, end_char, label, layer, text, labeledBy, deleted, rejected, confidence_score)',
      'news/review/a.json:19: labels[2].end_char: must be at most 17 (the line\'s length)',
      'news/review/notes.txt: unexpected entry: gold labels are <documentId>.json files',
      'news/review/zzz.json: names no document: documents/zzz.txt does not exist',
    ]);
  });
  it('refuses a key given twice in one object of project.json, a JSON label set or a review file, naming both lines, all at once', () => {
    goodProject();
    write('news/project.json', '{\n  "name": "News",\n  "name": "Old news"\n}\n');
    write('news/label-sets/1-entities.json', '{\n  "name": "Entities",\n  "labels": [\n    { "id": "e", "name": "ENTITY", "name": "THING" }\n  ]\n}\n');
    write('news/review/a.json', '{\n  "labels": [\n    { "line": 0, "start_char": 0, "end_char": 3, "label": "ENTITY", "label": "PERSON" }\n  ]\n}\n');
    expect(problemsOf()).toEqual([
      'news/project.json:3: name: given twice in one object (also on line 2); JSON would keep only this one: write it once',
      'news/label-sets/1-entities.json:4: labels[0].name: given twice in one object (also on line 4); JSON would keep only this one: write it once',
      'news/review/a.json:3: labels[0].label: given twice in one object (also on line 3); JSON would keep only this one: write it once',
    ]);
  });
});
