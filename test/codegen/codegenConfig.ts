import { generate } from '@graphql-codegen/cli';
import { join } from 'node:path';
import ts from 'typescript';
import { codegenConfig } from '../../codegen.js';

/** The repository root, from this file's location. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/**
 * Runs the project's own codegen.ts on another checkout (a folder with schema.graphql and
 * operations/), in memory.
 * Returns the text of every output, by its path (`generated/tags/graphql.ts`, `generated/labels/resolvers.ts`, …).
 */
export async function generateFrom(root: string): Promise<Map<string, string>> {
  const outputs = (await generate({ ...codegenConfig(root), silent: true }, false)) as Array<{ filename: string; content: string }>;
  return new Map(outputs.map((o) => [o.filename, o.content]));
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
