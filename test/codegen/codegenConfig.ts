import { generate } from '@graphql-codegen/cli';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { join } from 'node:path';
import ts from 'typescript';
import config from '../../codegen.js';

/** The repository root, from this file's location. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/**
 * Runs the project's own codegen.ts on another schema and operations folder, in memory.
 * Returns the text it would write to generated/graphql.ts.
 */
export async function generateFrom(schemaFile: string, operationsDir: string): Promise<string> {
  const [target] = Object.values(config.generates);
  const run: CodegenConfig = {
    ...config,
    silent: true,
    schema: schemaFile,
    documents: [join(operationsDir, '**/*.graphql')],
    generates: { 'generated/graphql.ts': target! },
  };
  const outputs = (await generate(run, false)) as Array<{ filename: string; content: string }>;
  if (outputs.length !== 1) throw new Error(`expected one output, got ${outputs.length}`);
  return outputs[0]!.content;
}

/**
 * The names of the operation types of a generated file: every `…Query`, `…Mutation`,
 * `…Variables` and `…Fragment` type alias. These are what users import.
 */
export function operationTypeNames(generated: string): string[] {
  const re = /^export type (\w+(?:Query|Mutation|Variables|Fragment)) = /gm;
  return [...generated.matchAll(re)].map((m) => m[1]!).sort();
}

/**
 * Type-checks a TypeScript file with the project's compiler options and returns its
 * diagnostics as text (empty when it compiles).
 */
export function typeCheck(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
