// Every ```ts block of the documentation (README.md and the pages of docs/: test/support/docs.ts),
// read from the pages when the test runs, type-checked as a module of its own with the project's compiler options — and once more with exactOptionalPropertyTypes,
// which many apps turn on: `token: process.env.LABELKIT_TOKEN` must compile there too. A block may
// use what its page says it assumes from the examples above it (`client`, `set`, `sets`,
// `jobIds`, `input`, `buildLabelTree`); those it does not declare itself are declared for it.
// The blocks import the packages by their published names, which mean the sources here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { docBlocks } from '../support/docs.js';
import { cachedHost } from '../support/tsc.js';

const repo = join(import.meta.dirname, '..', '..');

/** What the README's blocks assume from the examples above them, as declarations. */
const ASSUMED: Record<string, string> = {
  client: "declare const client: import('labelkit').LabelingClient;",
  set: "declare const set: import('labelkit').LabelSet;",
  sets: "declare const sets: import('labelkit').LabelSet[];",
  jobIds: 'declare const jobIds: string[];',
  input: "declare const input: import('labelkit').AutoLabelInput;",
  buildLabelTree: "import { buildLabelTree } from 'labelkit/labels';",
};

/** The block with a declaration for each assumed name it uses but does not declare or import. */
function withAssumptions(text: string): string {
  const code = text.replace(/\/\/[^\n]*/g, ''); // names in comments are not uses
  const head = Object.entries(ASSUMED)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(code))
    .filter(([name]) => !new RegExp(`(?:\\b(?:const|let|var)\\s+[[{]?[^=]*\\b${name}\\b[^=]*=|\\bimport\\b[^;]*\\b${name}\\b[^;]*from)`).test(code))
    .map(([, declaration]) => declaration);
  return `${head.join('\n')}\n${text}\nexport {};\n`;
}

/** The project's compiler options (tsconfig.json), with the published names mapped to the sources. */
function compilerOptions(exactOptionalPropertyTypes: boolean): ts.CompilerOptions {
  const config = ts.readConfigFile(join(repo, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
  return {
    ...options,
    rootDir: undefined, // the blocks' files are outside the repository
    noEmit: true,
    declaration: false,
    sourceMap: false,
    // A snippet may declare what it does not go on to use.
    noUnusedLocals: false,
    noUnusedParameters: false,
    exactOptionalPropertyTypes,
    typeRoots: [join(repo, 'node_modules', '@types')],
    paths: {
      ...options.paths,
      'labelkit-tools/emulator': [join(repo, 'src', 'emulator', 'index.ts')],
      'labelkit-tools/bulk': [join(repo, 'src', 'bulk', 'index.ts')],
      'labelkit-tools/label-sets': [join(repo, 'src', 'labelSets', 'index.ts')],
      'labelkit-tools/eval': [join(repo, 'src', 'eval', 'index.ts')],
      'labelkit-tools/export': [join(repo, 'src', 'export', 'index.ts')],
      // The app's codegen.ts of "Your own operations" (the blocks' files sit outside the checkout).
      '@graphql-codegen/cli': [join(repo, 'node_modules', '@graphql-codegen', 'cli', 'typings', 'index.d.ts')],
    },
  };
}

describe("the documentation's ts blocks", () => {
  const dir = mkdtempSync(join(tmpdir(), 'labelkit-readme-ts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A block that imports the app's own generated documents ("Your own operations": `./generated/…`)
  // needs that app's codegen run first: test/build/packInstall.test.ts runs those blocks as printed
  // in an app made from the installed tarball (codegen, strict tsc, a run against the emulator).
  const blocks = docBlocks('ts').filter((block) => !/from '\.\/generated\//.test(block.text));
  /** Each block's file, and how many lines of declarations precede the block's first line. */
  const files = new Map(
    blocks.map((block) => {
      const file = join(dir, `${block.page.replace(/\W+/g, '-')}-line-${block.line}.mts`);
      const text = withAssumptions(block.text);
      writeFileSync(file, text);
      return [file, { block, before: text.split('\n').length - block.text.split('\n').length - 2 }] as const;
    }),
  );

  // One host for both checks: exactOptionalPropertyTypes changes what the checker says, not how a
  // file parses, so each file (lib, @types, the sources) is read and parsed once, not twice (and
  // not again where another compile of this process parsed it: test/support/tsc.ts).
  const host = cachedHost(compilerOptions(false));

  /** Each diagnostic of the blocks' files as `<page>:<line>: message`. */
  const check = (exact: boolean): string[] => {
    const program = ts.createProgram([...files.keys()], compilerOptions(exact), host);
    // The blocks' files only: the sources they import are checked as far as the blocks use them.
    const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...[...files.keys()].flatMap((f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f)))];
    return diagnostics
      .filter((d) => d.file === undefined || d.file.fileName.startsWith(dir))
      .map((d) => {
        const of = d.file && files.get(d.file.fileName);
        const line = of && d.start !== undefined ? of.block.line + 1 + d.file!.getLineAndCharacterOfPosition(d.start).line - of.before : undefined;
        return `${line === undefined ? 'options' : `${of!.block.page}:${line}`}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
  };

  it('finds the blocks', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
  });

  it('compile with the project\'s options', { timeout: 120_000 }, () => {
    expect(check(false)).toEqual([]);
  });

  it('compile with exactOptionalPropertyTypes as well', { timeout: 120_000 }, () => {
    expect(check(true)).toEqual([]);
  });
});
