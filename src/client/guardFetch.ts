import { AuthError } from './errors.js';

/** The most of an error answer's body (a non-2xx status) that is read; the rest is not downloaded. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Statuses whose Response may not have a body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(size, max));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, Math.min(chunk.byteLength, bytes.length - offset));
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function hasGraphQLErrors(text: string): boolean {
  try {
    const json = JSON.parse(text) as { errors?: unknown } | null;
    return Array.isArray(json?.errors) && json.errors.length > 0;
  } catch {
    return false;
  }
}

/**
 * Wraps the client's fetch: no request without `Authorization`, and an error status that no
 * body can hide.
 *
 * @param fetchFn - the fetch to wrap
 * @returns a fetch for urql's Client
 * @remarks A request without `Authorization` is not sent (an {@link AuthError} with
 * `phase: 'token'`): the last line of defence behind the auth exchange. The answer of a non-2xx
 * status is read up to {@link MAX_ERROR_BODY_BYTES} (a 50 MB error page is not downloaded); when
 * it is not GraphQL errors (a JSON body without `errors`, such as `{"data":null}` with a 503), it
 * is passed on as text that is not JSON, so that urql reports a network error carrying the status
 * rather than a result without data: the HTTP status then decides (408/429/5xx are transient
 * whatever the body says). GraphQL errors pass through, for their messages.
 * @example
 * ```ts
 * new Client({ url, fetch: guardFetch(globalThis.fetch), exchanges });
 * ```
 */
export function guardFetch(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    if (!new Headers(init?.headers).has('authorization')) {
      throw new AuthError('no access token; the request was not sent', { phase: 'token' });
    }
    const response = await fetchFn(input, init);
    if (response.ok) return response;
    const { status, statusText } = response;
    const init2 = { status, statusText, headers: new Headers(response.headers) };
    if (NULL_BODY.has(status)) return new Response(null, init2);
    const text = await readCapped(response, MAX_ERROR_BODY_BYTES);
    if (hasGraphQLErrors(text)) return new Response(text, init2);
    init2.headers.set('content-type', 'text/plain; charset=utf-8');
    init2.headers.delete('content-length');
    // No status text: urql then keeps the body (not the status text) as its error's message,
    // which becomes the (redacted, cut) cause of ours.
    const head = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
    return new Response(text ? `${head}: ${text}` : head, { ...init2, statusText: '' });
  };
}
