import pc from 'picocolors';
import type { Printer } from '../../io.js';
import type { SchemaCheckResult } from './runner.js';

/**
 * The one line about the tag→label rename.
 *
 * @param result - the check's result
 * @returns e.g. `rename: not yet — the service still says tagItems/tagName`
 */
export function renameLine(result: SchemaCheckResult): string {
  if (result.renamed === true) {
    return 'rename: done — the service says labelItems/labelName (the client switches on its own; to regenerate, follow the README)';
  }
  if (result.renamed === false) return 'rename: not yet — the service still says tagItems/tagName';
  return 'rename: cannot tell — LabelSet/TagItem have neither tagItems/tagName nor labelItems/labelName';
}

/**
 * Prints the outcome of `labelkit schema check`.
 *
 * @param printer - where to print
 * @param result - what the check found
 * @param options - `json`: the result as one JSON object; `color`: red and yellow levels
 * @example
 * ```ts
 * printSchemaCheck(printer, result, { json: false, color: false });
 * // compatible: no breaking change touches what labelkit uses (…)
 * // rename: not yet — the service still says tagItems/tagName
 * ```
 */
export function printSchemaCheck(printer: Printer, result: SchemaCheckResult, options: { json: boolean; color: boolean }): void {
  if (options.json) {
    printer.json(result);
    return;
  }
  const c = pc.createColors(options.color);
  const counts = `${result.breaking.length} breaking, ${result.dangerous.length} dangerous; ${result.otherChanges} other changes touch nothing labelkit uses`;
  printer.out(
    result.compatible
      ? `compatible: no breaking change touches what labelkit uses (${counts})`
      : `${c.red('incompatible')}: the service's schema breaks what labelkit uses (${counts})`,
  );
  for (const row of [...result.breaking, ...result.dangerous]) {
    const level = row.level === 'BREAKING' ? c.red(row.level) : c.yellow(row.level);
    printer.out(`  ${level} ${row.path}: ${row.message}`);
  }
  printer.out(renameLine(result));
}
