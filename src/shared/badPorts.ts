/**
 * The ports that `fetch` refuses to call: the "bad ports" of the Fetch standard. One list for the
 * whole project: the CLI refuses them for `--port`, the client names them in its error.
 *
 * Source: the WHATWG Fetch standard, "Port blocking", its table of bad ports
 * (https://fetch.spec.whatwg.org/#port-blocking), as of whatwg/fetch#1847 (August 2025, which
 * added port 0; 4190 and 6679 came in 2024 with whatwg/fetch#1663). The web-platform-tests check
 * the same list (`fetch/api/request/request-bad-port.any.js`).
 *
 * This module is pure: the client (browsers included) imports it too.
 */

/**
 * The Fetch standard's bad ports, ascending.
 *
 * @remarks Browsers, Node's `fetch` (undici) and Deno refuse a request to an `http:` or `https:`
 * URL on one of these ports before opening a socket: Node answers `TypeError: fetch failed` with
 * the cause `bad port`. Node 20's undici does not refuse port 0 yet (the standard added it in
 * 2025); a URL cannot name a usable port 0 anyway.
 */
export const BAD_PORTS: readonly number[] = Object.freeze([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113,
  115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563,
  587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669,
  6679, 6697, 10080,
]);

const BAD = new Set(BAD_PORTS);

/**
 * Tells whether `fetch` refuses to call a port (a Fetch standard "bad port").
 *
 * @param port - a port number, or a URL's `port` string (`new URL(u).port`; `''` means the
 * scheme's default port, 80 or 443, which is never bad)
 * @returns true when the port is on {@link BAD_PORTS}
 * @remarks A listening port of 0 means "any free port" to the operating system, not port 0 of a
 * URL: callers that take a port to listen on check `port !== 0 && isBadPort(port)`. The free ports
 * that systems hand out (from 32768 on Linux, 49152 elsewhere) are above every bad port.
 * @example
 * ```ts
 * isBadPort(6000); // true (X11)
 * isBadPort(new URL('http://127.0.0.1:4000/graphql').port); // false
 * isBadPort(new URL('https://api.example.com/graphql').port); // false ('' = 443)
 * ```
 */
export function isBadPort(port: number | string): boolean {
  if (typeof port === 'string') return /^\d{1,5}$/.test(port) && BAD.has(Number(port));
  return BAD.has(port);
}
