import pc from 'picocolors';
import type { LabelSet, SchemaChangeEvent } from 'labelkit';
import { buildLabelTree } from 'labelkit/labels';
import type { LabelNode } from 'labelkit/labels';
import type { Printer } from '../../io.js';
import { drawTree } from '../../../shared/drawTree.js';
import { coloured, terminalText } from '../../../shared/escape.js';
import type { LabelSetsResult } from './runner.js';

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/**
 * A coloured square for a `#rrggbb` (or `#rgb`) colour, in 24-bit terminal colour.
 *
 * @param color - the label's colour as the service gives it
 * @returns the swatch and a space, or '' when the colour is not hex
 */
function swatch(color: string | null): string {
  const match = color ? HEX.exec(color) : null;
  if (!match) return '';
  let hex = match[1]!;
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `\u001b[38;2;${r};${g};${b}m■\u001b[39m `;
}

/**
 * The lines of one label set drawn as a tree.
 *
 * @param set - a label set
 * @param color - add colour swatches and dim the ids
 * @returns the lines, a header first
 * @throws {@link LabelHierarchyError} when the set's hierarchy is broken (orphans, cycles)
 * @example
 * ```ts
 * labelSetLines(set, false);
 * // ['Entities (label set 0, id 1, 5 labels)', '├─ ENTITY #6b7280 (id 10)', '│  ├─ PERSON #ef4444 (id 11)', …]
 * ```
 */
function labelSetLines(set: LabelSet, color: boolean): string[] {
  const c = pc.createColors(color);
  const count = set.labelItems.length;
  // Names, colours and ids come from the service: escaped before labelkit colours them.
  const t = terminalText;
  const heading = `${c.bold(t(set.name))} (label set ${set.index}, id ${t(set.id)}, ${count} label${count === 1 ? '' : 's'})`;
  const line = ({ item: { labelName, color: hue, id } }: LabelNode) => `${color ? swatch(hue) : ''}${t(labelName)}${hue ? ` ${c.dim(t(hue))}` : ''} ${c.dim(`(id ${t(id)})`)}`;
  return [heading, ...drawTree(buildLabelTree(set).roots, line)];
}

/**
 * Prints the outcome of `labelkit label-sets`.
 *
 * @param printer - where to print
 * @param result - the cabinet and its sets
 * @param options - `json`: one JSON object `{ projectId?, role?, cabinetId, labelSets }`, indented
 * by two spaces (the file `label-sets plan` reads is this output: a pulled file reviews line by
 * line in a diff); `color`: swatches
 */
export function printLabelSets(printer: Printer, result: LabelSetsResult, options: { json: boolean; color: boolean }): void {
  if (options.json) {
    printer.json(result, { indent: 2 });
    return;
  }
  if (result.labelSets.length === 0) {
    printer.out(`cabinet ${result.cabinetId} has no label sets`);
    return;
  }
  result.labelSets.forEach((set, i) => {
    if (i > 0) printer.out('');
    for (const line of labelSetLines(set, options.color)) printer.out(coloured(line));
  });
}

/**
 * Prints, on stderr, that the client switched to the renamed label-set documents (`--verbose`).
 *
 * @param printer - where to print
 * @param event - the switch the client reported
 * @example
 * ```ts
 * printSchemaChange(printer, { from: 'tags', to: 'labels', operationName: 'getCabinetLabelSetsById', message: '…' });
 * // labelkit: the service has renamed tagItems/tagName to labelItems/labelName; getCabinetLabelSetsById was sent again with the new names (…)
 * ```
 */
export function printSchemaChange(printer: Printer, event: SchemaChangeEvent): void {
  printer.err(
    `labelkit: the service has renamed tagItems/tagName to labelItems/labelName; ${event.operationName} was sent again with the new names (the service said: ${event.message})`,
  );
}
