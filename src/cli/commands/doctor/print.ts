import pc from 'picocolors';
import type { Printer } from '../../io.js';
import type { DoctorResult } from './runner.js';

/**
 * Prints the outcome of `labelkit doctor`: one finding a line with its fix, then one line.
 *
 * @param printer - where to print
 * @param result - what the checks found
 * @param options - `json`: one JSON object; `verbose`: also what each check saw; `color`: red findings
 * @example
 * ```ts
 * printDoctor(printer, result, { json: false, verbose: false, color: false });
 * // tsconfig: verbatimModuleSyntax is true (…) (fix: "verbatimModuleSyntax": false in tsconfig.json, …)
 * // doctor: 1 finding in /app
 * ```
 */
export function printDoctor(printer: Printer, result: DoctorResult, options: { json: boolean; verbose: boolean; color: boolean }): void {
  if (options.json) {
    printer.json(result);
    return;
  }
  const c = pc.createColors(options.color);
  if (options.verbose) for (const { check, saw } of result.checks) printer.out(`${check}: ${saw}`);
  for (const f of result.findings) printer.out(`${c.red(f.check)}: ${f.problem} (fix: ${f.fix})`);
  const n = result.findings.length;
  printer.out(result.healthy ? `doctor: healthy (${result.checks.length} checks) in ${result.dir}` : `doctor: ${n} finding${n === 1 ? '' : 's'} in ${result.dir}`);
}
