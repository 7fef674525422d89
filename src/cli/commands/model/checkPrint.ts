import pc from 'picocolors';
import type { Printer } from '../../io.js';
import { MODEL_WRONG_SECRET_MESSAGE } from '../../../shared/constants.js';
import { own, ownWords, withOwnPhrases } from '../../../shared/redact.js';
import type { ModelCheckResult } from '../../checks/modelEndpoint.js';

const MAX_PROBLEMS = 5;

/** labelkit's fixed phrases that a model's answer may quote (the sample model's refusal). */
const OWN_PHRASES = [MODEL_WRONG_SECRET_MESSAGE];

/**
 * Prints the outcome of `labelkit model check`: a table of latency per batch size, the
 * problems of each invalid answer, and whether a wrong secret was refused.
 *
 * @param printer - where to print
 * @param result - the check's rows
 * @param options - `json`: one JSON object (the result); `color`: green/red verdicts
 * @remarks Lines are built with `own`: the secret is redacted wherever it touches the URL, an
 * answer or a problem, but labelkit's wording stays whole (`wrong secret: refused with 401` with
 * the secret `secret`), and so does the sample model's fixed refusal quoted in a problem.
 */
export function printModelCheck(printer: Printer, result: ModelCheckResult, options: { json: boolean; color: boolean }): void {
  if (options.json) {
    printer.json(result, { phrases: OWN_PHRASES });
    return;
  }
  const c = pc.createColors(options.color);
  printer.out(own`model check ${result.url}`);
  printer.out(ownWords(`${'lines'.padStart(6)}  ${'HTTP'.padStart(4)}  ${'latency'.padStart(10)}  ${'entities'.padStart(8)}  result`));
  for (const row of result.rows) {
    const n = row.problems.length;
    const verdict = n === 0 ? ownWords(c.green('valid')) : ownWords(c.red(`INVALID (${n} problem${n === 1 ? '' : 's'})`));
    printer.out(own`${String(row.size).padStart(6)}  ${String(row.status).padStart(4)}  ${`${row.latencyMs.toFixed(1)} ms`.padStart(10)}  ${String(row.entities).padStart(8)}  ${verdict}`);
    for (const p of row.problems.slice(0, MAX_PROBLEMS)) printer.out(own`          ${p.path}: ${withOwnPhrases(p.message, OWN_PHRASES)}`);
    if (n > MAX_PROBLEMS) printer.out(own`          … ${n - MAX_PROBLEMS} more (--json lists all)`);
  }
  const status = result.wrongSecretStatus;
  printer.out(
    status === 401 || status === 403
      ? own`wrong secret: refused with ${status} ${ownWords(c.green('(good)'))}`
      : own`wrong secret: answered ${status} ${ownWords(c.yellow('(warning: the endpoint should refuse a wrong secret with 401)'))}`,
  );
  printer.out(ownWords(result.valid ? c.green('every answer follows the span contract') : c.red('some answers break the span contract')));
}
