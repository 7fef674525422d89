import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../../shared/isLoopbackHost.js';

/** The cookie that lets a browser see the emulator's pages. */
export const PAGE_COOKIE = 'labelkit_emulator_pages';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Who may see the emulator's web pages: a browser that opened the home page on this machine.
 *
 * @remarks
 * - The home page and GraphiQL show the emulator's dev token, so they answer fully only when the
 *   request's `Host` is a loopback name (`localhost`, `127.x.x.x`, `[::1]`) or the host the
 *   emulator listens on. A page of another site that re-points its own name at 127.0.0.1 (DNS
 *   rebinding) sends its own name as `Host`, and gets neither the token nor the cookie.
 * - The home page sets a cookie (`HttpOnly`, `SameSite=Strict`, path `/`) holding a random page
 *   key of this emulator: not the dev token, so the cookie can never stand in for the Bearer
 *   header. Results pages need that cookie; the JSON routes and GraphQL never read it.
 * @example
 * ```ts
 * const access = new PageAccess('127.0.0.1');
 * if (access.isLocalHost(request)) headers.set('set-cookie', access.cookieHeader());
 * ```
 */
export class PageAccess {
  private readonly key = randomBytes(18).toString('base64url');
  private readonly hosts: ReadonlySet<string>;

  /** @param listenHost - the address the emulator listens on (also accepted as `Host`), if known */
  constructor(listenHost?: string) {
    this.hosts = new Set(listenHost ? [listenHost.toLowerCase(), `[${listenHost.toLowerCase()}]`] : []);
  }

  /**
   * Tells whether a request names this machine as its host.
   *
   * @param request - the request
   * @returns true for a loopback `Host` or the emulator's listen address, any port
   */
  isLocalHost(request: Request): boolean {
    const host = (request.headers.get('host') ?? new URL(request.url).host).toLowerCase();
    const name = host.replace(/:\d{1,5}$/, '');
    return isLoopbackHost(name) || this.hosts.has(name);
  }

  /**
   * Tells whether a request carries this emulator's page cookie.
   *
   * @param request - the request
   * @returns true when the cookie holds this emulator's page key (compared in constant time)
   */
  hasCookie(request: Request): boolean {
    const cookies = (request.headers.get('cookie') ?? '').split(';');
    for (const cookie of cookies) {
      const eq = cookie.indexOf('=');
      if (eq < 0 || cookie.slice(0, eq).trim() !== PAGE_COOKIE) continue;
      if (timingSafeEqual(digest(cookie.slice(eq + 1).trim()), digest(this.key))) return true;
    }
    return false;
  }

  /**
   * The `Set-Cookie` value that gives a browser access to the pages.
   *
   * @returns the header value (HttpOnly, SameSite=Strict, Path=/, no expiry: ends with the browser session)
   */
  cookieHeader(): string {
    return `${PAGE_COOKIE}=${this.key}; Path=/; HttpOnly; SameSite=Strict`;
  }
}
