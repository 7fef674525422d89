import type { ModelRequest } from './spanContract.js';

/** Why one model call failed, and whether trying again may help. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  /**
   * @param message - what went wrong, without the secret
   * @param retryable - true for 5xx answers, time-outs and network errors
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

/** What one model call needs. */
export interface ModelCall {
  endpoint: string;
  secretKey: string;
  request: ModelRequest;
  timeoutMs: number;
  /** Aborts the call when the job stops (the emulator closes). */
  signal: AbortSignal;
}

/**
 * POSTs one span-labeling request to the customer's model and returns the parsed JSON answer.
 *
 * @param call - endpoint, secret, request body, time-out and the job's abort signal
 * @returns the answer, parsed but not yet checked against the contract
 * @throws {@link ModelCallError} retryable for a 5xx answer, a time-out or a network error; not
 * retryable for any other non-2xx answer or malformed JSON
 * @remarks The secret travels only as `Authorization: Bearer <secretKey>`; it is cut out of any
 * text of the answer that goes into an error. Node's fetch keeps connections alive, so batches of a
 * job reuse sockets. The time-out covers the whole call, reading the answer included.
 */
export async function callModel(call: ModelCall): Promise<unknown> {
  const signal = AbortSignal.any([call.signal, AbortSignal.timeout(call.timeoutMs)]);
  const redact = (text: string) => (call.secretKey ? text.split(call.secretKey).join('[redacted]') : text);
  let status = 0;
  try {
    const response = await fetch(call.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${call.secretKey}` },
      body: JSON.stringify(call.request),
      signal,
    });
    status = response.status;
    const text = await response.text();
    if (status >= 500) throw new ModelCallError(`the model answered HTTP ${status}`, true, status);
    if (status < 200 || status >= 300) {
      const excerpt = redact(text.slice(0, 200)).replace(/\s+/g, ' ').trim();
      const hint = status === 401 || status === 403 ? ' (does the model expect this secretKey?)' : '';
      throw new ModelCallError(`the model answered HTTP ${status}${hint}${excerpt ? `: ${excerpt}` : ''}`, false, status);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ModelCallError(`the model answered HTTP ${status} with malformed JSON (${text.length} bytes)`, false, status);
    }
  } catch (error) {
    if (error instanceof ModelCallError) throw error;
    if (call.signal.aborted) throw new ModelCallError('the emulator stopped while the model was answering', false);
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || signal.aborted) throw new ModelCallError(`the model did not answer within ${call.timeoutMs} ms`, true, status || undefined);
    const cause = (error as { cause?: { code?: string } }).cause;
    return Promise.reject(new ModelCallError(`the model could not be reached${cause?.code ? ` (${cause.code})` : ''}`, true));
  }
}
