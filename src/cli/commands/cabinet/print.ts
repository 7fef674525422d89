import type { Printer } from '../../io.js';
import type { CabinetResult } from './runner.js';

/**
 * Prints the outcome of `labelkit cabinet`.
 *
 * @param printer - where to print
 * @param result - the cabinet found
 * @param json - print `{"projectId","role","cabinetId"}` instead of the bare id
 * @remarks The bare id on stdout is meant for `CABINET=$(labelkit cabinet …)`.
 */
export function printCabinet(printer: Printer, result: CabinetResult, json: boolean): void {
  if (json) printer.json(result);
  else printer.out(result.cabinetId);
}
