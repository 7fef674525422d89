import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabelSetsFileError, parseLabelSetsFile, readLabelSetsFile } from '../../src/labelSets/index.js';
import { saying } from '../support/saying.js';

/** What `labelkit label-sets --project demo-project --role LABELER --json` prints (pretty-printed). */
const PULLED = {
  projectId: 'demo-project',
  role: 'LABELER',
  cabinetId: 'demo-project:labeler',
  labelSets: [
    {
      id: '1',
      index: 0,
      name: 'Entities',
      signature: 'abc',
      labelItems: [
        { id: '10', parentId: null, labelName: 'ENTITY', color: '#6b7280' },
        { id: '11', parentId: '10', labelName: 'PERSON', color: '#ef4444' },
        { id: '14', parentId: null, labelName: 'DATE', color: '#f59e0b' },
      ],
    },
  ],
};

const problemsOf = (text: string, name: string): string[] => {
  try {
    parseLabelSetsFile(text, name);
  } catch (error) {
    expect(error).toBeInstanceOf(LabelSetsFileError);
    return (error as LabelSetsFileError).problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
  }
  throw new Error('expected problems');
};

describe('parseLabelSetsFile', () => {
  it('reads exactly the JSON that label-sets --json prints, compact or pretty', () => {
    for (const text of [JSON.stringify(PULLED), JSON.stringify(PULLED, null, 2)]) {
      const { spec } = parseLabelSetsFile(text, 'labels.json');
      expect(spec).toEqual(PULLED);
    }
  });

  it('names the line of any value, and of the nearest ancestor of a missing one', () => {
    const { where } = parseLabelSetsFile(JSON.stringify(PULLED, null, 2), 'labels.json');
    expect(where(['labelSets', 0, 'labelItems', 1, 'labelName'])).toBe('labels.json:21');
    expect(where(['labelSets', 0, 'labelItems', 1, 'desc'])).toBe('labels.json:18');
  });

  it('reads YAML with the same fields by extension, numbers written where text is expected taken as written', () => {
    const yaml = [
      'projectId: demo-project',
      'role: labeler',
      'labelSets:',
      '  - id: 1',
      '    index: 0',
      '    name: Entities',
      '    labelItems:',
      '      - { id: 010, labelName: ENTITY, color: "#6b7280" }',
      '      - id: 11',
      '        parentId: 010',
      '        labelName: PERSON',
      '        desc: a person',
      '      - labelName: 2024',
    ].join('\n');
    for (const name of ['labels.yaml', 'LABELS.YML']) {
      const { spec, where } = parseLabelSetsFile(yaml, name);
      expect(spec).toEqual({
        projectId: 'demo-project',
        role: 'LABELER',
        labelSets: [
          {
            id: '1',
            index: 0,
            name: 'Entities',
            labelItems: [
              { id: '010', labelName: 'ENTITY', color: '#6b7280' },
              { id: '11', parentId: '010', labelName: 'PERSON', desc: 'a person' },
              { labelName: '2024' },
            ],
          },
        ],
      });
      expect(where(['labelSets', 0, 'labelItems', 1, 'parentId'])).toBe(`${name}:10`);
    }
  });

  it('lists every rule broken in a JSON file at once, each with its line', () => {
    const text = JSON.stringify(
      {
        role: 'BOSS',
        labelSets: [
          {
            index: 0,
            name: 'A',
            labelItems: [
              { id: '1', labelName: 'X', color: 'red' },
              { id: '1', labelName: 'Y' },
              { id: '2', parentId: '9', labelName: 'Z' },
              { id: '3', parentId: null, labelName: 'x' },
              { id: '4', parentId: '5', labelName: 'C1' },
              { id: '5', parentId: '4', labelName: 'C2' },
              { id: '6', labelName: '', colour: '#000000' },
            ],
          },
          { index: 0, name: 'B', labelItems: [] },
          { index: 7, labelItems: [] },
          { index: 1, name: 'C', labelItems: [] },
          { index: 2, name: 'D', labelItems: [] },
          { index: 3, name: 'E', labelItems: [] },
        ],
      },
      null,
      2,
    );
    expect(problemsOf(text, 'bad.json')).toEqual([
      'bad.json:2: role: must be LABELER or REVIEWER (got "BOSS")',
      'bad.json:3: labelSets: a project has at most 5 label sets (got 6)',
      saying('bad.json:11: labelSets[0].labelItems[0].color:', '#rrggbb', 'null', '"red"'),
      'bad.json:14: labelSets[0].labelItems[1].id: "1" is also the id of labelItems[0] ("X")',
      'bad.json:19: labelSets[0].labelItems[2].parentId: "9" is not the id of a label of this set',
      saying('bad.json:25: labelSets[0].labelItems[3].labelName:', '"x"', 'labelItems[0] ("X")', 'top of the set', 'case-insensitively'),
      saying('bad.json:29: labelSets[0].labelItems[4].parentId:', 'cycle', '"4" → "5" → "4"'),
      saying('bad.json:34: labelSets[0].labelItems[5].parentId:', 'cycle', '"5" → "4" → "5"'),
      'bad.json:39: labelSets[0].labelItems[6].labelName: must be a non-empty string',
      saying('bad.json:40: labelSets[0].labelItems[6].colour:', 'unknown field', 'id, parentId, parent, labelName, color, desc'),
      'bad.json:45: labelSets[1].index: index 0 is used twice (also labelSets[0])',
      'bad.json:49: labelSets[2].name: required: the set\'s name',
      'bad.json:50: labelSets[2].index: must be an integer from 0 to 4 (got 7)',
    ]);
  });

  it('lists every YAML rule broken, and an unquoted colour (a comment in YAML) with a hint to quote it', () => {
    const yaml = ['labelSets:', '  - index: 0', '    name: E', '    labelItems:', '      - labelName: A', '        color: #ef4444', '      - labelName: a', '      - parentId: A'].join('\n');
    expect(problemsOf(yaml, 'e.yaml')).toEqual([
      saying('e.yaml:6: labelSets[0].labelItems[0].color:', 'quotes', 'color: "#ef4444"', 'comment'),
      saying('e.yaml:7: labelSets[0].labelItems[1].labelName:', '"a"', 'labelItems[0] ("A")', 'case-insensitively'),
      'e.yaml:8: labelSets[0].labelItems[2].labelName: required: the label\'s name',
      'e.yaml:8: labelSets[0].labelItems[2].parentId: "A" is not the id of a label of this set',
    ]);
  });

  it('names the line of an unquoted colour inside a YAML flow map, and that # starts a comment, not the line after where YAML stumbles', () => {
    // The comment swallows the map's `}`: YAML's own error is "Flow map … must end with a }" on the
    // next line. A `#` inside quotes is text, not a comment, and is left alone.
    const yaml = [
      'labelSets:',
      '  - index: 0',
      '    name: E',
      '    labelItems:',
      '      - { labelName: A, color: #ef4444 }',
      '      - { labelName: B, desc: "see #abcdef" }',
      '      - { labelName: C, color: #abc }',
    ].join('\n');
    expect(problemsOf(yaml, 'flow.yaml')).toEqual([
      saying('flow.yaml:5: not YAML:', '# starts a comment in YAML', '"#ef4444 }"', 'write the colour in quotes: color: "#ef4444"'),
      saying('flow.yaml:7: not YAML:', '# starts a comment in YAML', 'write the colour in quotes: color: "#abc"'),
    ]);
    // A flow map closed on the next line parses (the colour is null): the hint of a block map.
    const closedLater = ['labelSets:', '  - index: 0', '    name: E', '    labelItems:', '      - { labelName: A, color: #ef4444', '        }'].join('\n');
    expect(problemsOf(closedLater, 'later.yaml')).toEqual([saying('later.yaml:5: labelSets[0].labelItems[0].color:', 'quotes', 'color: "#ef4444"', 'comment')]);
  });

  it('lists the syntax errors of every line of a JSON file, and checks nothing else then', () => {
    const text = '{\n "labelSets": [\n  {"index": 0 "name": "A", "labelItems": []},\n  {"index": 1, "name": "B", "labelItems": [],}\n ]\n}';
    expect(problemsOf(text, 'broken.json')).toEqual([
      'broken.json:3: not JSON: expected "," (column 15)',
      'broken.json:4: not JSON: expected a property name in double quotes (column 46)',
    ]);
  });

  it('refuses a key given twice in one JSON object, at the line of the second, as YAML does', () => {
    const text = [
      '{',
      '  "labelSets": [',
      '    { "index": 0, "name": "E",',
      '      "labelItems": [',
      '        { "labelName": "X",',
      '          "labelName": "Y" }',
      '      ] }',
      '  ],',
      '  "labelSets": []',
      '}',
    ].join('\n');
    expect(problemsOf(text, 'dup.json')).toEqual([
      saying('dup.json:6: labelSets[0].labelItems[0].labelName:', 'twice', 'line 5', 'write it once'),
      saying('dup.json:9: labelSets:', 'twice', 'line 2', 'write it once'),
    ]);
    expect(problemsOf('{"labelSets":[{"index":0,"name":"E","labelItems":[{"labelName":"X","labelName":"Y"}]}]}', 'one.json')).toEqual([
      saying('one.json:1: labelSets[0].labelItems[0].labelName:', 'twice', 'line 1', 'write it once'),
    ]);
  });

  it('lists the syntax errors of a YAML file with their lines', () => {
    expect(problemsOf('labelSets:\n  - index: 0\n    index: 1\n', 'dup.yml')).toEqual(['dup.yml:3: not YAML: Map keys must be unique']);
  });

  it('refuses a document that is not an object with labelSets', () => {
    expect(problemsOf('[]', 'a.json')).toEqual(['a.json:1: (top): must be an object with "labelSets" (what labelkit label-sets --json prints)']);
    expect(problemsOf('{"projectId": ""}', 'b.json')).toEqual(['b.json:1: projectId: must be a non-empty string', 'b.json:1: labelSets: required: a list of label sets']);
  });
});

describe('readLabelSetsFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'labelkit-labelsets-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file (a byte-order mark is ignored)', async () => {
    const path = join(dir, 'labels.json');
    await writeFile(path, `\uFEFF${JSON.stringify(PULLED)}`);
    expect((await readLabelSetsFile(path)).spec).toEqual(PULLED);
  });

  it('says a missing file or a folder cannot be read, naming the file without a line (no line means anything)', async () => {
    const path = join(dir, 'nope.yaml');
    const missing = (await readLabelSetsFile(path).catch((e: unknown) => e)) as LabelSetsFileError;
    expect(missing).toMatchObject({ problems: [{ file: path, message: 'cannot read: no such file' }] });
    expect(missing.problems[0]!.line).toBeUndefined();
    expect(missing.message).toBe(`[LabelSets] ${path}: 1 problem:\n${path}: cannot read: no such file`);
    const folder = (await readLabelSetsFile(dir).catch((e: unknown) => e)) as LabelSetsFileError;
    expect(folder.message).toBe(`[LabelSets] ${dir}: 1 problem:\n${dir}: cannot read: is a folder`);
  });
});
