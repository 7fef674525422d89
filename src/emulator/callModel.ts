import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { classifyFailure } from '../shared/classify.js';
import { redactAndCut } from '../shared/redact.js';
import type { SpanRequest } from 'labelkit/model';
import type { JobAbort } from './jobAbort.js';
import { errorCode } from '../shared/classify.js';

/** Why one model call failed, and whether trying again may help. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  /**
   * @param message - what went wrong, without the secret
   * @param retryable - true when {@link classifyFailure} calls the failure transient (408, 429,
   * 5xx, a time-out, a network error)
   * @param status - the HTTP status, when the model answered
   */
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Keep-alive connection pools for model calls, one per scheme; destroy them when done. */
export interface ModelAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * Creates the keep-alive pools the runner calls models through.
 *
 * @param maxSockets - connections per model host (the runner's concurrency)
 * @returns the pools; call `destroy()` on each when the emulator closes
 */
export function createModelAgents(maxSockets: number): ModelAgents {
  const options = { keepAlive: true, maxSockets, scheduling: 'lifo' as const };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

/** What one model call needs. */
interface ModelCall {
  /** The model's URL; a job passes it parsed once, as a `URL`, instead of once per call. */
  endpoint: string | URL;
  secretKey: string;
  request: SpanRequest;
  timeoutMs: number;
  /** Aborts the call when the job stops (the emulator closes); the call subscribes while it runs. */
  stop: JobAbort;
  agents: ModelAgents;
}

/** Errors of a request sent on a kept-alive connection that its server had just closed (see `callModel`). */
const staleConnections = new WeakSet<object>();

/** One POST over node:http(s); resolves with the status and the body text. */
function post(call: ModelCall, body: string, onTimeout: () => void): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = typeof call.endpoint === 'string' ? new URL(call.endpoint) : call.endpoint;
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      agent: secure ? call.agents.https : call.agents.http,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        accept: 'application/json',
        authorization: `Bearer ${call.secretKey}`,
      },
    });
    const timer = setTimeout(() => {
      onTimeout();
      req.destroy(new Error('timeout'));
    }, call.timeoutMs);
    const unsubscribe = call.stop.subscribe(() => req.destroy(new Error('aborted')));
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
    };
    let responded = false;
    req.on('response', (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        done();
        // Most answers arrive in one chunk: decode it as it is instead of copying it into a new buffer first.
        const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text });
      });
      res.on('error', (error) => {
        done();
        reject(error);
      });
    });
    req.on('error', (error) => {
      done();
      // Reset on a kept-alive connection before any answer: the model's server closed it as it was reused.
      if (req.reusedSocket && !responded && errorCode(error) === 'ECONNRESET') staleConnections.add(error);
      reject(error);
    });
    req.end(body);
  });
}

/**
 * POSTs one span-labeling request to the customer's model and returns the parsed JSON answer.
 *
 * @param call - endpoint, secret, request body, time-out, the job's stop and the connection pools
 * @returns the answer, parsed but not yet checked against the contract
 * @throws {@link ModelCallError} retryable when `classifyFailure` (the project's one failure
 * classification) calls it transient: 408, 429, 5xx, a time-out or a network error; not retryable
 * for any other non-2xx answer or malformed JSON
 * @remarks The secret travels only as `Authorization: Bearer <secretKey>`. An answer's text goes
 * into an error only through `redactAndCut` (redacted in every wire form, then cut to 200
 * characters, then any secret fragment left at the cut redacted too). Calls go through node:http(s) with keep-alive pools:
 * measured on loopback, a round trip costs about a third of what Node 20's fetch costs, and the
 * runner makes one per batch. The time-out covers the whole call, reading the answer included.
 */
export async function callModel(call: ModelCall): Promise<unknown> {
  let timedOut = false;
  let answer: { status: number; text: string };
  const body = JSON.stringify(call.request);
  try {
    answer = await post(call, body, () => (timedOut = true)).catch((error: unknown) => {
      // A kept-alive connection the model's server closed just as this call reused it (its idle
      // time-out): the request never reached the model. Sent once more, on a new connection, as
      // Node's docs advise for reusedSocket and ECONNRESET; not counted as one of the job's retries.
      if (typeof error === 'object' && error !== null && staleConnections.has(error) && !call.stop.aborted) return post(call, body, () => (timedOut = true));
      throw error;
    });
  } catch (error) {
    if (call.stop.aborted) throw new ModelCallError('the emulator stopped while the model was answering', false);
    if (timedOut) throw new ModelCallError(`the model did not answer within ${call.timeoutMs} ms`, true);
    const code = errorCode(error);
    if (code === 'ERR_INVALID_CHAR') throw new ModelCallError('the secretKey cannot travel in the Authorization header: it holds characters outside Latin-1', false);
    // No answer at all (refused, reset, DNS): transient, as classifyFailure says of a failure without a status.
    throw new ModelCallError(`the model could not be reached${code ? ` (${code})` : ''}`, true);
  }
  const { status, text } = answer;
  if (status < 200 || status >= 300) {
    const retryable = classifyFailure({ status }) === 'transient';
    // Redact first, then cut: a secret straddling the cut must not leave its first part behind.
    const excerpt = retryable ? '' : redactAndCut(text, 200, [call.secretKey]).replace(/\s+/g, ' ').trim();
    const hint = status === 401 || status === 403 ? ' (does the model expect this secretKey?)' : '';
    throw new ModelCallError(`the model answered HTTP ${status}${hint}${excerpt ? `: ${excerpt}` : ''}`, retryable, status);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ModelCallError(`the model answered HTTP ${status} with malformed JSON (${text.length} bytes)`, false, status);
  }
}
