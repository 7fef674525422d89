import type { EmulatorStore } from '../store.js';
import { graphiqlPage } from './graphiqlPage.js';
import { escapeHtml, htmlPage, htmlResponse } from './html.js';
import { homePage } from './homePage.js';
import { PageAccess } from './pageAccess.js';
import { parseMatch, parseView, resultsPage } from './resultsPage.js';

/** What the page routes need from the emulator. */
interface PageRoutesOptions {
  store: EmulatorStore;
  /** The emulator's dev token (shown on the home page and pre-set in GraphiQL for local visits). */
  token: string;
  /** The address the emulator listens on, accepted as `Host` besides loopback names. @defaultValue none */
  listenHost?: string;
}

/** Where `?next=` may send a browser after the home page set the cookie: the results pages only. */
const SAFE_NEXT = /^\/emulator\/projects\/[A-Za-z0-9_-]+\/results(\?(job=[A-Za-z0-9_%-]+|match=(strict|overlap|token)|view=(labels|outcomes))(&(match=(strict|overlap|token)|view=(labels|outcomes)))*)?$/;
const RESULTS = /^\/emulator\/projects\/([^/]+)\/results$/;

/**
 * The emulator's web pages: `/` (home), `/emulator/projects/:id/results[?job=…][&match=strict|overlap|token][&view=labels|outcomes]` (results) and
 * the GraphiQL page of `GET /graphql`.
 *
 * @param options - the store, the dev token, the listen address
 * @returns `route(request, url)`: a Response for a page request, or undefined for anything else
 * (GraphQL, JSON routes, non-HTML GETs of `/graphql`)
 * @remarks A results page without the page cookie redirects to `/?next=…`; the home page, visited
 * from this machine, sets the cookie and sends the browser back. The cookie never authenticates
 * GraphQL or a JSON route. See {@link PageAccess} for who counts as "this machine".
 * @example
 * ```ts
 * const pages = pageRoutes({ store, token });
 * const response = (await pages.route(request, new URL(request.url))) ?? (await graphql(request));
 * ```
 */
export function pageRoutes(options: PageRoutesOptions): { route(request: Request, url: URL): Promise<Response | undefined>; access: PageAccess } {
  const access = new PageAccess(options.listenHost);
  const graphiql = new Map<boolean, Promise<string>>(); // ~9 MB each: rendered once per variant
  const graphiqlHtml = (withToken: boolean) => {
    let html = graphiql.get(withToken);
    if (html === undefined) {
      html = graphiqlPage(withToken ? options.token : undefined);
      html.catch(() => graphiql.delete(withToken)); // a failed render is tried again next time
      graphiql.set(withToken, html);
    }
    return html;
  };
  const isGet = (request: Request) => request.method === 'GET' || request.method === 'HEAD';
  const notAllowed = () => htmlResponse(htmlPage({ title: 'Method not allowed', body: '<p>Pages answer GET only.</p>' }), 405, { allow: 'GET, HEAD' });

  return {
    access,
    async route(request, url) {
      const path = url.pathname;
      if (path === '/' || path === '/index.html') {
        if (!isGet(request)) return notAllowed();
        const local = access.isLocalHost(request);
        const next = url.searchParams.get('next');
        const cookie = local ? { 'set-cookie': access.cookieHeader() } : undefined;
        if (local && next !== null && SAFE_NEXT.test(next)) return new Response(null, { status: 303, headers: { location: next, 'cache-control': 'no-store', ...cookie } });
        const html = homePage({ store: options.store, origin: url.origin, ...(local && { token: options.token }) });
        return htmlResponse(html, 200, cookie);
      }
      const results = RESULTS.exec(path);
      if (results) {
        if (!isGet(request)) return notAllowed();
        if (!access.hasCookie(request)) {
          const next = `${path}${url.search}`;
          return new Response(null, { status: 303, headers: { location: `/?next=${encodeURIComponent(next)}`, 'cache-control': 'no-store' } });
        }
        let projectId: string;
        try {
          projectId = decodeURIComponent(results[1]!);
        } catch {
          projectId = results[1]!;
        }
        const project = options.store.projects.get(projectId);
        if (!project) {
          const body = `<p>No project has the id <code>${escapeHtml(projectId)}</code>. <a href="/">Projects</a></p>`;
          return htmlResponse(htmlPage({ title: 'No such project', body }), 404);
        }
        const jobId = url.searchParams.get('job') ?? undefined;
        const match = parseMatch(url.searchParams.get('match'));
        const view = parseView(url.searchParams.get('view'));
        const { html, status } = resultsPage({ store: options.store, project, ...(jobId !== undefined && { jobId }), ...(match && { match }), ...(view && { view }) });
        return htmlResponse(html, status);
      }
      if (path === '/graphql' && isGet(request)) {
        const wantsPage = (request.headers.get('accept') ?? '').includes('text/html') && !url.searchParams.has('query');
        if (!wantsPage) return undefined;
        // GraphiQL runs inline script and blob workers: no CSP of the other pages here.
        return new Response(await graphiqlHtml(access.isLocalHost(request)), {
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' },
        });
      }
      return undefined;
    },
  };
}
