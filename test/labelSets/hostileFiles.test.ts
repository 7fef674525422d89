// Label-set files a hostile or careless author might hand to `labelkit label-sets plan|apply`
// (issue 40 item 8): bytes that are not UTF-8, control characters in names, nesting deep enough
// to exhaust a recursive parser, and a YAML "billion laughs". Each is a file problem at its line,
// exit 2, before anything is sent: no "unexpected error", no stack.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { LabelSetsFileError, readLabelSetsFile } from '../../src/labelSets/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { useTempDirs } from '../support/tempDirs.js';

const tempDir = useTempDirs();

/** Writes a file into a fresh folder and returns its path. */
function file(name: string, contents: string | Buffer): string {
  const path = join(tempDir('labelkit-hostile-'), name);
  writeFileSync(path, contents);
  return path;
}

/** The problems of reading a file, as `line: message` (the file's name is checked once). */
async function problemsOf(path: string): Promise<string[]> {
  const error = await readLabelSetsFile(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LabelSetsFileError);
  const { problems } = error as LabelSetsFileError;
  for (const p of problems) expect(p.file).toBe(path);
  return problems.map((p) => `${p.line}: ${p.message}`);
}

const set = (items: unknown[], name = 'Entities') => ({ labelSets: [{ index: 0, name, labelItems: items }] });

/** A YAML file whose nine aliases each stand for nine of the one before: 9^9 strings once expanded. */
function billionLaughs(): string {
  const lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < 9; i++) {
    const [prev, name] = [String.fromCharCode(96 + i), String.fromCharCode(97 + i)];
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
  }
  return `${lines.join('\n')}\nlabelSets: *i\n`;
}

describe('readLabelSetsFile with hostile files', () => {
  it('names each line whose bytes are not UTF-8, and the file\'s other problems with them, instead of reading \\xff\\xfe as U+FFFD', async () => {
    const text = Buffer.concat([
      Buffer.from('{\n "labelSets": [\n  {"index": 0, "name": "DAT'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('", "labelItems": [\n   {"labelName": "X", "colour": "red"},\n   {"labelName": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\n  ]}\n ]\n}\n'),
    ]);
    expect(await problemsOf(file('latin.json', text))).toEqual([
      '3: not UTF-8: the bytes ff fe at column 28 are not UTF-8 text (save the file as UTF-8)',
      '4: labelSets[0].labelItems[0].colour: unknown field "colour" (known: id, parentId, parent, labelName, color, desc)',
      '5: not UTF-8: the byte e9 at column 22 is not UTF-8 text (save the file as UTF-8)',
    ]);
    // A U+FFFD written as UTF-8 is a character like any other, and a UTF-8 byte-order mark is dropped.
    const fine = await readLabelSetsFile(file('fine.json', `\uFEFF${JSON.stringify(set([{ labelName: 'A\uFFFD' }]))}`));
    expect(fine.spec.labelSets[0]!.labelItems[0]!.labelName).toBe('A\uFFFD');
  });

  it('asks for a UTF-16 file to be saved as UTF-8, in one problem', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(set([])), 'utf16le')]);
    expect(await problemsOf(file('wide.json', utf16))).toEqual(['1: not UTF-8: the file is UTF-16 text (it starts with a UTF-16 byte-order mark): save it as UTF-8']);
  });

  it('refuses NUL, ESC, CR and their like in names and ids, in JSON and YAML, every one at its line; a description may hold line feeds and tabs', async () => {
    const json = JSON.stringify(set([{ labelName: 'A\u0000B' }, { id: 'x\u009b', labelName: 'C\u001b[2J', desc: 'two\nlines\tok' }, { labelName: 'D', desc: 'bad\r\n' }, { labelName: 'E\u202eRTL' }], 'Set\r'), null, 2);
    const rule = (shown: string, at: number) => `must not hold control characters (NUL, ESC, CR and the like): ${shown} at character ${at}`;
    expect(await problemsOf(file('control.json', json))).toEqual([
      `5: labelSets[0].name: ${rule('\\r', 4)}`,
      `8: labelSets[0].labelItems[0].labelName: ${rule('\\u0000', 2)}`,
      `11: labelSets[0].labelItems[1].id: ${rule('\\u009b', 2)}`,
      `12: labelSets[0].labelItems[1].labelName: ${rule('\\u001b', 2)}`,
      '17: labelSets[0].labelItems[2].desc: must not hold control characters (NUL, ESC, CR and the like; line feed and tab are fine): \\r at character 4',
      `20: labelSets[0].labelItems[3].labelName: ${rule('\\u202e', 2)}`,
    ]);
    const yaml = 'labelSets:\n  - index: 0\n    name: "Set\\e]0;title\\a"\n    labelItems:\n      - labelName: "A\\0"\n      - labelName: B\n        parent: "A\\r"\n';
    expect(await problemsOf(file('control.yaml', yaml))).toEqual([
      `3: labelSets[0].name: ${rule('\\u001b', 4)}`,
      `5: labelSets[0].labelItems[0].labelName: ${rule('\\u0000', 2)}`,
      `7: labelSets[0].labelItems[1].parent: ${rule('\\r', 2)}`,
      '7: labelSets[0].labelItems[1].parent: no label of this set has the name "A\\r" (parent is another label\'s name, or its path from the top such as "ENTITY/PERSON")',
    ]);
  });

  it('refuses JSON nested 200,000 deep at its line, before a parser that recurses runs out of stack', async () => {
    const deep = `{"labelSets":\n${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect(await problemsOf(file('deep.json', deep))).toEqual(['2: too deep: lists and objects nested more than 64 levels deep (column 64; a label-set file needs 5)']);
  });

  it('refuses YAML nested 3,000 deep, in flow or block style, at its line', async () => {
    const rule = 'too deep: lists and objects nested more than 64 levels deep (a label-set file needs 5)';
    expect(await problemsOf(file('flow.yaml', `labelSets:\n  - ${'['.repeat(3000)}${']'.repeat(3000)}\n`))).toEqual([`2: ${rule}`]);
    expect(await problemsOf(file('dashes.yaml', `labelSets:\n  ${'- '.repeat(3000)}x\n`))).toEqual([`2: ${rule}`]);
    const block = `labelSets:\n${Array.from({ length: 100 }, (_, i) => `${' '.repeat(2 * i + 2)}k:`).join('\n')} 1\n`;
    expect(await problemsOf(file('block.yaml', block))).toEqual([`65: ${rule}`]);
  });

  it('refuses a YAML billion laughs by the YAML library\'s alias limit, at the line of the first alias', async () => {
    expect(await problemsOf(file('laughs.yaml', billionLaughs()))).toEqual([
      '2: too many aliases: the aliases (*name) stand for more values than a YAML reader here takes (at most 100: the guard against "billion laughs" files, which make a reader run out of memory); write the values out',
    ]);
    // A few shared values are what aliases are for.
    const shared = 'labelSets:\n  - index: 0\n    name: E\n    labelItems:\n      - { labelName: A, color: &red "#ff0000" }\n      - { labelName: B, color: *red }\n';
    expect((await readLabelSetsFile(file('shared.yaml', shared))).spec.labelSets[0]!.labelItems.map((i) => i.color)).toEqual(['#ff0000', '#ff0000']);
  });
});

describe('labelkit label-sets plan and apply with hostile files', () => {
  // Nothing listens on port 9 of the loopback: a request would fail with a network error, not exit 2.
  const connection = ['--url', 'http://127.0.0.1:9/graphql', '--token', 't', '--project', 'p', '--role', 'LABELER'];
  const hostile: [string, string | Buffer, string][] = [];
  hostile.push(
    ['latin.json', Buffer.concat([Buffer.from('{"labelSets": [{"index": 0, "name": "DAT'), Buffer.from([0xff, 0xfe]), Buffer.from('", "labelItems": []}]}')]), ':1: not UTF-8: the bytes ff fe'],
    ['control.yaml', 'labelSets:\n  - index: 0\n    name: "E\\e[2J"\n    labelItems: []\n', ':3: labelSets[0].name: must not hold control characters'],
    ['deep.json', `${'['.repeat(200_000)}${']'.repeat(200_000)}`, ':1: too deep: lists and objects nested more than 64 levels deep'],
    ['deep.yaml', `labelSets: ${'['.repeat(3000)}${']'.repeat(3000)}\n`, ':1: too deep: lists and objects nested more than 64 levels deep'],
    ['laughs.yaml', billionLaughs(), ':2: too many aliases'],
  );

  it.each(hostile)('refuses %s with its file:line and the rule, exit 2, no stack and nothing sent', async (name, contents, expected) => {
    const path = file(name, contents);
    for (const command of ['plan', 'apply']) {
      const io = fakeIo();
      const code = await main(argv('label-sets', command, path, ...connection, ...(command === 'apply' ? ['--yes'] : [])), io);
      expect(io.err()).toContain(`${path}${expected}`);
      expect(io.err()).not.toMatch(/unexpected error|Maximum call stack|\n\s+at /);
      expect(code).toBe(2);
    }
  });

  it('refuses a saved plan nested too deep or not UTF-8 at its line, exit 2', async () => {
    for (const [name, contents, expected] of [
      ['deep-plan.json', `{"format":\n${'['.repeat(200_000)}${']'.repeat(200_000)}}`, ':2: too deep: lists and objects nested more than 64 levels deep (column 64)'],
      ['latin-plan.json', Buffer.concat([Buffer.from('{"format": "'), Buffer.from([0xe9]), Buffer.from('"}')]), ':1: not UTF-8: the byte e9 at column 13'],
    ] as const) {
      const path = file(name, contents);
      const io = fakeIo();
      const code = await main(argv('label-sets', 'apply', '--plan', path, '--yes', '--url', 'http://127.0.0.1:9/graphql', '--token', 't'), io);
      expect(io.err()).toContain(`${path}${expected}`);
      expect(io.err()).not.toMatch(/unexpected error|Maximum call stack|\n\s+at /);
      expect(code).toBe(2);
    }
  });
});
