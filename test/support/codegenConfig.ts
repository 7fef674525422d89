import { generate } from '@graphql-codegen/cli';
import { join } from 'node:path';
import ts from 'typescript';
import { codegenConfig } from '../../codegen.js';

/** The repository root, from this file's location. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/**
 * Step 1 of docs/rename.md in a fork, as the page's `sed` line does it: rename the fields tagItems
 * to labelItems and tagName to labelName in schema.graphql (test/codegen/renameSteps.test.ts checks
 * that the page's `sed` gives exactly this). A schema renamed already stays as it is.
 */
export function renameSchema(sdl: string): string {
  return sdl.replace(/tagItems:/g, 'labelItems:').replace(/tagName:/g, 'labelName:');
}

/** What {@link generateFrom} made, by the input of each output (codegen is deterministic). */
const generated = new Map<string, string>();

/**
 * Runs the project's own codegen.ts on another checkout (a folder with schema.graphql and
 * operations/), in memory.
 * Returns the text of every output, by its path (`generated/tags/graphql.ts`, `generated/labels/resolvers.ts`, …).
 */
export async function generateFrom(root: string): Promise<Map<string, string>> {
  // Each distinct input is generated once per file: codegen.ts rewrites the schema and the
  // operations into each generation before codegen reads them, so a renamed schema, or operations
  // without their aliases, often give an output the same input as before (that sameness is what
  // docs/rename.md promises; the tests compare the outputs).
  const config = codegenConfig(root);
  const keyOf = (output: unknown) => JSON.stringify(output);
  const missing = Object.fromEntries(Object.entries(config.generates).filter(([, output]) => !generated.has(keyOf(output))));
  if (Object.keys(missing).length > 0) {
    const outputs = (await generate({ ...config, generates: missing, silent: true }, false)) as Array<{ filename: string; content: string }>;
    for (const { filename, content } of outputs) generated.set(keyOf(missing[filename]), content);
  }
  return new Map(Object.entries(config.generates).map(([filename, output]) => [filename, generated.get(keyOf(output))!]));
}

/**
 * The names of the operation types of a generated file: every `…Query`, `…Mutation`,
 * `…Variables` and `…Fragment` type alias. These are what users import.
 */
export function operationTypeNames(generated: string): string[] {
  const re = /^export type (\w+(?:Query|Mutation|Variables|Fragment)) = /gm;
  return [...generated.matchAll(re)].map((m) => m[1]!).sort();
}

/** The compiler options the type checks of these tests share: strict, Node's ES modules, no ambient types. */
export const STRICT_NODENEXT: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: [],
};

/**
 * Type-checks a TypeScript file with the project's compiler options and returns its
 * diagnostics as text (empty when it compiles).
 */
export function typeCheck(file: string): string[] {
  const program = ts.createProgram([file], STRICT_NODENEXT);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
