import type { Printer } from '../../io.js';
import { problemLine } from '../../checks/documents.js';
import type { DocumentsCheckResult } from '../../checks/documents.js';
import type { DocumentsMigrateResult } from './migrate.js';

/**
 * Prints the outcome of `labelkit documents check`.
 *
 * @param printer - where to print
 * @param result - what the check found
 * @param options - `json`: one JSON object; `color`: red and yellow
 * @example
 * ```ts
 * printDocumentsCheck(printer, result, { json: false, color: false });
 * // src/labelSetNames.query.graphql:5:5 query LabelSetNames: breaks on the renamed schema: Cannot query field "tagItems" on type "LabelSet". …
 * // checked 2 operations and 1 fragment in 3 files (src/**\/*.graphql, from codegen.ts) against today's schema, the renamed schema
 * // ready for rename day: no (run labelkit documents migrate --to both)
 * ```
 */
export function printDocumentsCheck(printer: Printer, result: DocumentsCheckResult, options: { json: boolean; color: boolean }): void {
  if (options.json) {
    printer.json(result);
    return;
  }
  for (const problem of result.problems) printer.out(problemLine(problem, options.color));
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const schemas = [...(result.checkedToday ? ["today's schema"] : []), 'the renamed schema', ...(result.service ? [`the service at ${result.service.url}`] : [])];
  printer.out(
    `checked ${plural(result.operations, 'operation')} and ${plural(result.fragments, 'fragment')} in ${plural(result.files, 'file')} ` +
      `(${result.globs.globs.join(' ')}, ${result.globs.from === 'arguments' ? 'as given' : result.globs.from === 'default' ? 'the default' : `from ${result.globs.from}`}) against ${schemas.join(', ')}${result.checkedToday ? '' : " (not today's: the service has been renamed)"}`,
  );
  const fixes = [...new Set(result.problems.filter((p) => p.schemas.includes('renamed') && p.fix !== undefined).map((p) => p.fix))];
  printer.out(`ready for rename day: ${result.ready ? 'yes' : `no${fixes.length > 0 ? ` (run ${fixes.join(', ')})` : ''}`}`);
}

/**
 * Prints the outcome of `labelkit documents migrate`: a diff of the changed lines, then one line.
 *
 * @param printer - where to print
 * @param result - what the rewrite changed (or would change)
 * @param options - `json`: one JSON object; `check`: whether `--check` was given (nothing written)
 * @example
 * ```ts
 * printDocumentsMigrate(printer, result, { json: false, check: false });
 * // --- src/names.query.graphql
 * // +++ src/names.query.graphql
 * // @@ -5 +5 @@
 * // -    tagItems {
 * // +    labelItems: tagItems {
 * // rewrote 1 file of 3 for --to both (…)
 * ```
 */
export function printDocumentsMigrate(printer: Printer, result: DocumentsMigrateResult, options: { json: boolean; check: boolean }): void {
  if (options.json) {
    printer.json(result);
    return;
  }
  for (const { file, lines } of result.changed) {
    printer.out(`--- ${file}`);
    printer.out(`+++ ${file}`);
    for (const { line, before, after } of lines) {
      printer.out(`@@ -${line} +${line} @@`);
      printer.out(`-${before}`);
      printer.out(`+${after}`);
    }
  }
  const n = result.changed.length;
  const files = `${n} file${n === 1 ? '' : 's'} of ${result.files}`;
  const form = result.to === 'both' ? 'runs on today\'s schema with the renamed result names' : 'runs on the renamed schema';
  if (n === 0) printer.out(`nothing to rewrite for --to ${result.to}: every document already ${form}`);
  else if (options.check) printer.out(`a rewrite is due for --to ${result.to}: ${files} (run labelkit documents migrate --to ${result.to})`);
  else printer.out(`rewrote ${files} for --to ${result.to}: the documents now ${result.to === 'both' ? "run on today's schema with the renamed result names; regenerate (npx graphql-codegen) and let tsc show the code to update" : 'run on the renamed schema; point codegen at labelkit/schema.labels.graphql and regenerate: the result types are the same'}`);
}
