import { LabelkitError } from 'labelkit';
import { validateSpanResponse } from 'labelkit/model';
import type { SpanRequest } from 'labelkit/model';
import { isLoopbackHost } from '../../shared/isLoopbackHost.js';
import { own, ownWords } from '../../shared/redact.js';
import { parseDuration } from '../duration.js';
import type { ActionContext } from '../runAction.js';
import { CliUsageError, ownProblem } from '../usageError.js';
import type { UsageProblem } from '../usageError.js';
import { errorCode } from '../../shared/classify.js';

/** Flags of `labelkit model check`. */
export interface ModelCheckFlags {
  secretKeyEnv: string;
  sizes: string;
  timeout?: string;
  allowInsecureEndpoint?: boolean;
}

/** The check of one batch size. */
interface ModelCheckRow {
  /** Lines in the request. */
  size: number;
  /** The HTTP status. */
  status: number;
  /** Time from sending the request to the whole answer, in ms (measured, not asserted). */
  latencyMs: number;
  /** Entities in the answer. */
  entities: number;
  /** Every way the answer breaks the contract (empty when valid). */
  problems: { path: string; message: string }[];
}

/** What `labelkit model check` found. */
export interface ModelCheckResult {
  url: string;
  rows: ModelCheckRow[];
  /** The status of a request with a wrong secret (it should be 401 or 403). */
  wrongSecretStatus: number;
  /** True when every answer was valid. */
  valid: boolean;
}

const TEMPLATES = [
  'Ada Lovelace opened the conference in London on Monday.',
  'Engineers from Acme Corp and Globex attended.',
  'The Red Cross sent supplies to Nairobi in March.',
  'Grace Hopper met Alan Turing in Paris.',
  'Nothing to label on this line.',
  'Initech moved its offices to Tokyo in 2024.',
];

/**
 * A contract-shaped request with `size` lines, spread over two documents when `size > 1`.
 *
 * @param size - the number of lines
 * @returns the request body
 */
export function checkRequest(size: number): SpanRequest {
  const sentences = Array.from({ length: size }, (_, i) => ({ id: i, text: TEMPLATES[i % TEMPLATES.length]! }));
  const half = Math.ceil(size / 2);
  const documents =
    size > 1
      ? [
          { id: 'labelkit-check-doc-1', sentences: sentences.slice(0, half) },
          { id: 'labelkit-check-doc-2', sentences: sentences.slice(half).map((s, i) => ({ ...s, id: i })) },
        ]
      : [{ id: 'labelkit-check-doc-1', sentences }];
  return { id: 'labelkit-check', name: 'labelkit model check', documents };
}

function parseSizes(text: string, problems: UsageProblem[]): number[] {
  const parts = text.split(',').map((s) => s.trim());
  const sizes = parts.map(Number);
  if (parts.length === 0 || parts.some((p, i) => !/^\d+$/.test(p) || sizes[i]! < 1 || sizes[i]! > 10_000)) {
    problems.push({ field: '--sizes', message: 'must be a comma-separated list of line counts from 1 to 10000, e.g. 1,10,100' });
    return [];
  }
  return sizes;
}

function checkUrl(value: string, allowInsecure: boolean, problems: UsageProblem[]): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    /* below */
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({ field: '<url>', message: 'must be an absolute http(s) URL of the model endpoint' });
  } else if (url.username || url.password) {
    // fetch refuses such a URL, and its error would print it whole, password and all.
    problems.push(ownProblem('<url>', ownWords('must not carry credentials in the URL (user:password@); give the secret with --secret-key-env')));
  } else if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecure) {
    problems.push(ownProblem('<url>', ownWords('plain http on a non-loopback host would send the secret in clear; use https or --allow-insecure-endpoint')));
  }
}

async function post(url: string, secret: string, body: unknown, timeoutMs: number, signal: AbortSignal): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    const text = await response.text();
    return { status: response.status, text, ms: performance.now() - started };
  } catch (error) {
    const name = (error as Error).name;
    if (signal.aborted) throw new LabelkitError('ABORTED', '[Network] the check was interrupted');
    if (name === 'TimeoutError') throw new LabelkitError('TIMEOUT', `[Network] the model at ${url} did not answer within ${timeoutMs} ms`);
    const inner = error instanceof Error ? error.cause : undefined;
    const cause = errorCode(inner) ?? (inner instanceof Object && 'errors' in inner && Array.isArray(inner.errors) ? errorCode(inner.errors[0]) : undefined) ?? (error as Error).message;
    throw new LabelkitError('NETWORK', `[Network] cannot reach the model at ${url} (${cause})`);
  }
}

/**
 * Sends contract-shaped requests of several batch sizes to a model endpoint and validates
 * every answer against the span contract (`validateSpanResponse` of the model kit).
 *
 * @param url - the model endpoint
 * @param flags - `--secret-key-env`, `--sizes`, `--timeout`, `--allow-insecure-endpoint`
 * @param context - the run (environment, printer: the secret is registered for redaction)
 * @returns one row per size, and the status a wrong secret got
 * @throws {@link CliUsageError} for bad flags (every problem); a labelkit error of code `NETWORK`, `TIMEOUT` or `ABORTED` when
 * the endpoint cannot be reached or does not answer in time
 * @remarks Sizes are checked one after the other, so latencies do not disturb each other.
 * A final request carries a wrong secret: an endpoint that accepts it is reported (not failed).
 */
export async function runModelCheck(url: string, flags: ModelCheckFlags, context: ActionContext): Promise<ModelCheckResult> {
  return probeModel(checkModelFlags(url, flags, context), context);
}

/** A model check's flags once checked: what {@link probeModel} sends with. */
export interface CheckedModelFlags {
  url: string;
  sizes: number[];
  secret: string;
  timeoutMs: number;
}

/**
 * Checks a model check's URL and flags, before any request (doctor checks `--model` so before its
 * other checks, which take seconds).
 *
 * @param url - the model endpoint
 * @param flags - `--secret-key-env`, `--sizes`, `--timeout`, `--allow-insecure-endpoint`
 * @param context - the run (environment, printer: the secret is registered for redaction)
 * @returns the URL, sizes, secret and time-out to send with
 * @throws {@link CliUsageError} naming every problem
 */
export function checkModelFlags(url: string, flags: ModelCheckFlags, context: ActionContext): CheckedModelFlags {
  const problems: UsageProblem[] = [];
  checkUrl(url, flags.allowInsecureEndpoint === true, problems);
  const sizes = parseSizes(flags.sizes, problems);
  const secret = context.io.env[flags.secretKeyEnv]?.trim();
  if (!secret) problems.push(ownProblem('--secret-key-env', own`${flags.secretKeyEnv} is not set: export ${flags.secretKeyEnv}=… (the secret your model expects)`));
  let timeoutMs = 30_000;
  if (flags.timeout !== undefined) {
    const ms = parseDuration(flags.timeout);
    if (ms === undefined) problems.push({ field: '--timeout', message: 'must be a positive duration such as 90s, 10m, 1h or plain milliseconds' });
    else timeoutMs = ms;
  }
  context.printer.addSecret(secret);
  if (problems.length > 0) throw new CliUsageError(problems, 'labelkit model check --help');
  return { url, sizes, secret: secret!, timeoutMs };
}

/**
 * Sends the checked requests (see {@link runModelCheck}).
 *
 * @param checked - what {@link checkModelFlags} returned
 * @param context - the run's Ctrl-C signal
 * @returns one row per size, and the status a wrong secret got
 * @throws a labelkit error of code `NETWORK`, `TIMEOUT` or `ABORTED` when the endpoint cannot be
 * reached or does not answer in time
 */
export async function probeModel(checked: CheckedModelFlags, context: ActionContext): Promise<ModelCheckResult> {
  const { url, sizes, secret, timeoutMs } = checked;
  const rows: ModelCheckRow[] = [];
  for (const size of sizes) {
    const request = checkRequest(size);
    const answer = await post(url, secret, request, timeoutMs, context.signal);
    let body: unknown;
    const rowProblems: ModelCheckRow['problems'] = [];
    try {
      body = JSON.parse(answer.text);
    } catch {
      rowProblems.push({ path: '$', message: 'the answer is not JSON' });
    }
    if (answer.status !== 200) {
      const error = (body as { error?: unknown } | undefined)?.error;
      rowProblems.unshift({ path: 'HTTP', message: `status ${answer.status}, expected 200${typeof error === 'string' ? `: ${error.slice(0, 200)}` : ''}` });
    } else if (body !== undefined) {
      rowProblems.push(...validateSpanResponse(body, request));
    }
    const documents = (body as { documents?: { labels?: { entities?: unknown[] }[] }[] } | undefined)?.documents;
    const entities = Array.isArray(documents)
      ? documents.reduce((n, d) => n + (Array.isArray(d?.labels) ? d.labels.reduce((m, l) => m + (Array.isArray(l?.entities) ? l.entities.length : 0), 0) : 0), 0)
      : 0;
    rows.push({ size, status: answer.status, latencyMs: Math.round(answer.ms * 10) / 10, entities, problems: rowProblems });
  }
  const wrong = await post(url, `${secret}-wrong`, checkRequest(1), timeoutMs, context.signal);
  return { url, rows, wrongSecretStatus: wrong.status, valid: rows.every((r) => r.problems.length === 0) };
}
