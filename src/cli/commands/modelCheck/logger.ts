import pc from 'picocolors';
import type { Printer } from '../../io.js';
import type { ModelCheckResult } from './runner.js';

const MAX_PROBLEMS = 5;

/**
 * Prints the outcome of `labelkit model check`: a table of latency per batch size, the
 * problems of each invalid answer, and whether a wrong secret was refused.
 *
 * @param printer - where to print
 * @param result - the check's rows
 * @param options - `json`: one JSON object (the result); `color`: green/red verdicts
 */
export function printModelCheck(printer: Printer, result: ModelCheckResult, options: { json: boolean; color: boolean }): void {
  if (options.json) {
    printer.json(result);
    return;
  }
  const c = pc.createColors(options.color);
  printer.out(`model check ${result.url}`);
  printer.out(`${'lines'.padStart(6)}  ${'HTTP'.padStart(4)}  ${'latency'.padStart(10)}  ${'entities'.padStart(8)}  result`);
  for (const row of result.rows) {
    const verdict = row.problems.length === 0 ? c.green('valid') : c.red(`INVALID (${row.problems.length} problem${row.problems.length === 1 ? '' : 's'})`);
    printer.out(`${String(row.size).padStart(6)}  ${String(row.status).padStart(4)}  ${`${row.latencyMs.toFixed(1)} ms`.padStart(10)}  ${String(row.entities).padStart(8)}  ${verdict}`);
    for (const p of row.problems.slice(0, MAX_PROBLEMS)) printer.out(`          ${p.path}: ${p.message}`);
    if (row.problems.length > MAX_PROBLEMS) printer.out(`          … ${row.problems.length - MAX_PROBLEMS} more (--json lists all)`);
  }
  const refused = result.wrongSecretStatus === 401 || result.wrongSecretStatus === 403;
  printer.out(
    refused
      ? `wrong secret: refused with ${result.wrongSecretStatus} ${c.green('(good)')}`
      : `wrong secret: answered ${result.wrongSecretStatus} ${c.yellow('(warning: the endpoint should refuse a wrong secret with 401)')}`,
  );
  printer.out(result.valid ? c.green('every answer follows the span contract') : c.red('some answers break the span contract'));
}
