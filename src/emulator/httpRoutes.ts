import type { Plugin } from 'graphql-yoga';
import { pageRoutes } from './pages/pageRoutes.js';
import { BodyTooLargeError, MAX_BODY_BYTES, readLimitedText } from './requestLimits.js';
import type { EmulatorStore } from './store.js';
import type { TokenAuthority } from './tokenAuthority.js';

/** The error production answers for a missing, wrong or expired token. */
const UNAUTHORIZED_BODY = { data: null, errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] };

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => Response.json(body, { status, headers });

/** Why a token request's body or Basic credentials cannot be read: a status and an OAuth error. */
type GrantProblem = { status: number; body: Record<string, string> };

/** Reads client credentials from the form body, or from `Authorization: Basic` (RFC 6749 §2.3.1). */
async function readGrant(request: Request, maxBodyBytes: number): Promise<URLSearchParams | GrantProblem> {
  let text: string;
  try {
    text = await readLimitedText(request, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413, body: { error: 'invalid_request', error_description: error.message } };
    throw error;
  }
  const form = new URLSearchParams(text);
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (basic && !form.has('client_id')) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        form.set('client_id', decodeURIComponent(decoded.slice(0, colon)));
        form.set('client_secret', decodeURIComponent(decoded.slice(colon + 1)));
      } catch {
        // The value is not quoted back: it holds the client secret.
        return { status: 400, body: { error: 'invalid_request', error_description: 'the Basic credentials are not valid percent-encoding: form-encode client_id and client_secret before joining them with ":" (RFC 6749 §2.3.1)' } };
      }
    }
  }
  return form;
}

/**
 * The emulator's HTTP routes around GraphQL, as a yoga plugin.
 *
 * @param store - the data, for the labels route
 * @param auth - checks Bearer tokens and answers the token route
 * @param note - told what an answer means when its status does not say it (`Unauthorized` for a
 * refused token answered 200, the OAuth error code of a refused grant), for the request log
 * @param pages - where the emulator listens (`listenHost`), for the web pages' local-visit check,
 * and the largest body the token route reads (`maxBodyBytes`, 413 above it)
 * @returns a yoga plugin
 * @remarks
 * - `GET /`, `GET /emulator/projects/:id/results[?job=…]` and the GraphiQL page of `GET /graphql`
 *   (Accept: text/html): the web pages, see `pageRoutes`. They authenticate with a cookie that
 *   the home page sets; that cookie is never accepted by the routes below.
 * - `POST /api/oauth/token`: client credentials (form body or Basic) → `{ access_token, token_type, expires_in }`.
 * - `GET /graphql` without Accept: text/html is 405: queries are never run from a GET.
 * - `POST /graphql`: needs a valid Bearer token, else `Unauthorized` / `AuthenticationError`.
 * - `GET /emulator/projects/:id/labels`: emulator-only (not part of the service), Bearer required.
 */
export function httpRoutes(
  store: EmulatorStore,
  auth: TokenAuthority,
  note: (request: Request, outcome: string) => void = () => {},
  pages: { listenHost?: string; maxBodyBytes?: number } = {},
): Plugin {
  const maxBodyBytes = pages.maxBodyBytes ?? MAX_BODY_BYTES;
  const refused = (request: Request, status = 200) => {
    note(request, 'Unauthorized');
    return json(UNAUTHORIZED_BODY, status);
  };
  const pageRouter = pageRoutes({ store, token: auth.staticToken, ...(pages.listenHost !== undefined && { listenHost: pages.listenHost }) });
  return {
    async onRequest({ request, url, endResponse }) {
      const path = url.pathname;
      const page = await pageRouter.route(request, url);
      if (page) return endResponse(page);
      if (path === '/api/oauth/token') {
        if (request.method !== 'POST') return endResponse(json({ error: 'invalid_request', error_description: 'POST a form body' }, 405, { allow: 'POST' }));
        const grant = await readGrant(request, maxBodyBytes);
        const { status, body } = grant instanceof URLSearchParams ? auth.grant(grant) : grant;
        if (typeof body.error === 'string') note(request, body.error);
        return endResponse(json(body, status, { 'cache-control': 'no-store' }));
      }
      const labels = /^\/emulator\/projects\/([^/]+)\/labels$/.exec(path);
      if (labels) {
        if (request.method !== 'GET') return endResponse(json({ error: 'use GET' }, 405, { allow: 'GET' }));
        if (!auth.check(request.headers.get('authorization'))) return endResponse(refused(request, 401));
        let projectId: string;
        try {
          projectId = decodeURIComponent(labels[1]!);
        } catch {
          return endResponse(json({ error: 'the project id in the path is not valid percent-encoding (encode it with encodeURIComponent)' }, 400));
        }
        if (!store.projects.has(projectId)) return endResponse(json({ error: `no project has the id "${projectId}"` }, 404));
        return endResponse(json({ projectId, note: 'emulator-only route, not part of the labeling service', copies: store.labelsOf(projectId) }));
      }
      if (path === '/graphql') {
        if (request.method === 'GET' || request.method === 'HEAD') {
          return endResponse(json({ errors: [{ message: 'Queries are not accepted as GET: POST them as JSON to /graphql' }] }, 405, { allow: 'POST' }));
        }
        if (request.method === 'POST' && !auth.check(request.headers.get('authorization'))) return endResponse(refused(request));
      }
      return undefined;
    },
  };
}
