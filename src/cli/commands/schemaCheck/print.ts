import pc from 'picocolors';
import { coloured, terminalText } from '../../../shared/escape.js';
import type { Printer } from '../../io.js';
import type { DocumentsCheck, SchemaChangeRow, SchemaCheckResult } from './runner.js';

/**
 * The one line about the tag→label rename.
 *
 * @param result - the check's result
 * @returns e.g. `rename: not yet — the service still says tagItems/tagName`
 */
function renameLine(result: SchemaCheckResult): string {
  if (result.renamed === true) {
    return 'rename: done — the service says labelItems/labelName (the client switches on its own; to regenerate, follow docs/rename.md)';
  }
  if (result.renamed === false) return 'rename: not yet — the service still says tagItems/tagName';
  return 'rename: cannot tell — LabelSet/TagItem have neither tagItems/tagName nor labelItems/labelName';
}

/**
 * The one line on the typed documents, for code that sends them through another GraphQL client.
 *
 * @param result - the check's result
 * @returns e.g. `documents: labelkit/documents breaks on this service (…): import labelkit/documents/labels …`
 * @remarks `createLabelingClient` switches generation on its own; plain urql or graphql-request
 * sends whatever document it is given, so an app that imports `labelkit/documents` breaks on a
 * renamed service although labelkit itself is compatible.
 */
function documentsLine(result: SchemaCheckResult): string {
  const passing = result.documents.filter((d) => d.compatible);
  const failing = result.documents.filter((d) => !d.compatible);
  const why = (d: DocumentsCheck) => {
    const paths = [...new Set(d.breaking.map((b) => b.path))];
    return `${d.breaking.length} breaking: ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}`;
  };
  if (failing.length === 0) return `documents: ${result.documents.map((d) => d.entry).join(' and ')} both pass on this service`;
  if (passing.length === 0) {
    return `documents: neither entry passes on this service (${failing.map((d) => `${d.entry}: ${why(d)}`).join('; ')})`;
  }
  const [ok] = passing;
  const head = failing.map((d) => `${d.entry} breaks on this service (${why(d)})`).join('; ');
  if (ok!.generation === 'labels') {
    return `documents: ${head}: code that sends it through another client (plain urql, graphql-request) must import ${ok!.entry} instead, which passes (createLabelingClient switches on its own)`;
  }
  return `documents: ${ok!.entry} passes on this service; ${head}, as expected before the rename`;
}

/**
 * Prints the outcome of `labelkit schema check`.
 *
 * @param printer - where to print
 * @param result - what the check found
 * @param options - `json`: the result as one JSON object; `color`: red and yellow levels;
 * `verbose`: also the breaking changes of each entry of documents and every other change
 * @example
 * ```ts
 * printSchemaCheck(printer, result, { json: false, color: false, verbose: false });
 * // compatible: no breaking change touches what labelkit uses (…)
 * // documents: labelkit/documents passes on this service; …
 * // rename: not yet — the service still says tagItems/tagName
 * ```
 */
export function printSchemaCheck(printer: Printer, result: SchemaCheckResult, options: { json: boolean; color: boolean; verbose?: boolean }): void {
  if (options.json) {
    printer.json(result);
    return;
  }
  const c = pc.createColors(options.color);
  const level = (row: SchemaChangeRow) => (row.level === 'BREAKING' ? c.red(row.level) : row.level === 'DANGEROUS' ? c.yellow(row.level) : row.level);
  // One line per change: a message that quotes a description keeps its words, not its line breaks.
  // The path and message quote the service's schema: escaped before the line is coloured.
  const line = (row: SchemaChangeRow) => coloured(`  ${level(row)} ${terminalText(row.path)}: ${terminalText(row.message.replace(/\s*\n\s*/g, ' '))}`);
  const counts = `${result.breaking.length} breaking, ${result.dangerous.length} dangerous; ${result.otherChanges.length} other changes touch nothing labelkit uses${options.verbose ? ', listed below' : ' (--verbose lists them)'}`;
  printer.out(
    coloured(
      result.compatible
        ? `compatible: no breaking change touches what labelkit uses (${counts})`
        : `${c.red('incompatible')}: the service's schema breaks what labelkit uses (${counts})`,
    ),
  );
  for (const row of [...result.breaking, ...result.dangerous]) printer.out(line(row));
  printer.out(documentsLine(result));
  if (options.verbose) {
    for (const d of result.documents.filter((d) => !d.compatible)) {
      printer.out(`${d.entry}: ${d.breaking.length} breaking changes touch its documents`);
      for (const row of d.breaking) printer.out(line(row));
    }
    printer.out(`other changes (${result.otherChanges.length}), touching nothing labelkit uses:`);
    for (const row of result.otherChanges) printer.out(line(row));
  }
  printer.out(renameLine(result));
}
