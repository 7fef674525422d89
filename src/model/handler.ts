import { createHash, timingSafeEqual } from 'node:crypto';
import { validateSpanRequest, validateSpanResponse } from './contract.js';
import type { Predict, SpanRequest } from './contract.js';
import { MODEL_WRONG_SECRET_MESSAGE } from '../shared/constants.js';

/** Options of {@link createModelHandler}. */
export interface ModelHandlerOptions {
  /** The secret the service sends as `Authorization: Bearer <secretKey>`. */
  secretKey: string;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Wraps a prediction function as a model endpoint of the span contract (fetch-style handler).
 *
 * @param predict - computes the labels of a request
 * @param options - the secret key the caller must present
 * @returns `(request: Request) => Promise<Response>`, for any fetch-style server or `startModelServer`
 * @remarks Checks the secret in constant time (401 when wrong or missing, never echoed), accepts
 * only POST (405), answers a malformed body with 400 listing every problem with its path, and
 * checks the model's own answer (500 with the problems when it breaks the contract, e.g. an
 * offset outside the line).
 * @example
 * ```ts
 * import { createModelHandler, startModelServer } from 'labelkit/model';
 * const predict = (req) => ({ id: req.id, documents: req.documents.map((d) => ({ id: d.id, labels: [] })) });
 * const server = await startModelServer({ secretKey: process.env.MODEL_SECRET!, predict });
 * ```
 */
export function createModelHandler(predict: Predict, options: ModelHandlerOptions): (request: Request) => Promise<Response> {
  if (!options.secretKey) throw new Error('createModelHandler: secretKey must be a non-empty string');
  const expected = digest(`Bearer ${options.secretKey}`);
  return async (request) => {
    if (request.method !== 'POST') return json(405, { error: 'method not allowed: POST a span-labeling request' });
    const given = digest(request.headers.get('authorization') ?? '');
    if (!timingSafeEqual(given, expected)) return json(401, { error: MODEL_WRONG_SECRET_MESSAGE });
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return json(400, { error: 'the body is not JSON', problems: [{ path: '$', message: 'must be JSON' }] });
    }
    const problems = validateSpanRequest(body);
    if (problems.length > 0) return json(400, { error: 'the request breaks the span contract', problems });
    let answer: unknown;
    try {
      answer = await predict(body as SpanRequest);
    } catch (error) {
      return json(500, { error: `the model failed: ${error instanceof Error ? error.message : String(error)}` });
    }
    const own = validateSpanResponse(answer, body as SpanRequest);
    if (own.length > 0) return json(500, { error: 'the model produced an answer that breaks the span contract', problems: own });
    return json(200, answer);
  };
}
