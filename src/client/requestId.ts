/**
 * A new request id: a random (version 4) UUID.
 *
 * @returns e.g. `3b241101-e2bb-4255-8caf-4136c566a962`
 * @remarks `crypto.randomUUID` exists only in secure contexts in browsers (https, localhost); an
 * app served over plain http still has `crypto.getRandomValues`, so the id is built from that.
 * @example
 * ```ts
 * headers['x-request-id'] = newRequestId();
 * ```
 */
export function newRequestId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
