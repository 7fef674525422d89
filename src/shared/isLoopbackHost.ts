/**
 * Tells whether a URL's host name is this machine (the loopback interface).
 *
 * @param hostname - `new URL(...).hostname`: `localhost`, an IPv4 address, or an IPv6 one in brackets
 * @returns true for `localhost`, `127.x.y.z` and `[::1]`
 * @remarks Plain http to such a host never leaves the machine, so a secret sent there does not
 * travel in clear over a network. `new URL` already normalises short forms such as
 * `http://127.1/` to `127.0.0.1`. Names that merely resolve to loopback (other than `localhost`)
 * are not trusted: DNS could answer otherwise next time.
 * @example
 * ```ts
 * isLoopbackHost(new URL('http://127.0.0.1:8080/predict').hostname); // true
 * isLoopbackHost(new URL('http://10.1.2.3/predict').hostname);       // false
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
