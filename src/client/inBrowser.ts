/**
 * Tells whether the client runs in a web page or a web worker, where `fetch` follows CORS.
 *
 * @returns true when `document` or `WorkerGlobalScope` exists
 * @remarks Two behaviours hang on it: no `User-Agent` header is sent there (it is the browser's,
 * and it would join the CORS preflight), and a network error adds that it can be a CORS refusal
 * (a page's fetch reports one exactly like an unreachable server).
 * @example
 * ```ts
 * if (!inBrowser()) headers['user-agent'] = `labelkit/${VERSION}`;
 * ```
 */
export function inBrowser(): boolean {
  const scope = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return scope.document !== undefined || scope.WorkerGlobalScope !== undefined;
}
