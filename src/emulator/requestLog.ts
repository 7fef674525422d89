import type { Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';
import { redact, secretsIn } from '../shared/redact.js';

/**
 * A request id as clients send it in `x-request-id`: the emulator echoes it back and logs it only
 * when it is this plain (letters, digits, `.`, `_`, `:`, `-`; at most 128).
 */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,127}$/;
/** The name of a document's first operation, after any comments (cheap: no parse). */
const FIRST_OPERATION = /^\s*(?:#[^\n]*\n\s*)*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]{0,127})/;
/** An error code as GraphQL servers write it in `extensions.code`. */
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** What the log knows of one request so far. */
interface Entry {
  started: number;
  operation?: string;
  outcome?: string;
  /** Secrets of this request: its credentials and the values under secret-like keys of its variables. */
  secrets: string[];
}

/** The emulator's request log: a yoga plugin, and a way for the routes to say what an answer means. */
interface RequestLog {
  /** The yoga plugin; it must come first in the list, to see every request and its own `operationName`. */
  plugin: Plugin;
  /**
   * Records what an answer means when its status alone does not say it: `Unauthorized` for a
   * refused token answered 200 as production does, an OAuth error code for the token route.
   *
   * @param request - the request answered
   * @param outcome - a fixed word or code (never text from the request)
   */
  note(request: Request, outcome: string): void;
}

/** The credential of an `Authorization` header: a Bearer token, or both parts of Basic credentials. */
function credentialsOf(header: string | null): string[] {
  // The whole rest of the header: a token may hold spaces.
  const match = /^(Bearer|Basic)\s+(\S.*?)\s*$/i.exec(header ?? '');
  if (!match) return [];
  if (match[1]!.toLowerCase() === 'bearer') return [match[2]!];
  const decoded = Buffer.from(match[2]!, 'base64').toString('utf8');
  return [match[2]!, decoded, ...decoded.split(':')];
}

/** `GraphQL error NOT_FOUND` (or `2 GraphQL errors …`) for a result with errors; undefined without. */
function errorsOf(result: unknown): string | undefined {
  const results = (Array.isArray(result) ? result : [result]) as ExecutionResult[];
  const errors = results.flatMap((r) => r?.errors ?? []);
  if (errors.length === 0) return undefined;
  const code = errors[0]?.extensions?.code;
  const named = typeof code === 'string' && CODE.test(code) ? ` ${code}` : '';
  return `${errors.length === 1 ? 'GraphQL error' : `${errors.length} GraphQL errors`}${named}`;
}

/**
 * Creates the emulator's request log: one line per HTTP request, for `EmulatorOptions.log`
 * (`labelkit emulator --verbose`).
 *
 * @param log - receives each line
 * @param knownSecrets - the emulator's own secrets (static token, client secret), redacted too
 * @returns the yoga plugin and `note`, by which the routes say what a 200 means
 * @remarks A line reads `METHOD PATH STATUS [OUTCOME] [op=NAME] [request=ID] Nms`:
 * - STATUS is the HTTP status sent; OUTCOME says what the client saw when the status does not:
 *   `Unauthorized` (a refused token, answered 200 with a GraphQL error as production does),
 *   `GraphQL error CODE` (an answer whose `errors` are set; the first error's `extensions.code`),
 *   an OAuth error code of the token route (`invalid_client`).
 * - `op` is the `operationName` the body sent, else the name of the document's first operation;
 *   absent for an anonymous operation and for a request refused by its token, whose body is not
 *   read (the token is checked from the headers first).
 * - `request` is the `x-request-id` header (`(not a plain id)` when it is not one).
 *
 * No query text, variable, header or body is logged, and the line passes through the shared
 * redactor with every secret of the request (its Bearer or Basic credentials, the values under
 * secret-like keys of its variables such as `secretKey`) and the emulator's own: a client that
 * puts a secret in its request id or operation name sees `***` there.
 * @example
 * ```ts
 * const requestLog = createRequestLog(console.error, [auth.staticToken, auth.clientSecret]);
 * createYoga({ schema, plugins: [requestLog.plugin, httpRoutes(store, auth, requestLog.note)] });
 * // POST /graphql 200 op=GetCabinet request=3b241101-e2bb-4255-8caf-4136c566a962 4ms
 * // POST /graphql 200 Unauthorized request=5f0c1d2e-… 1ms
 * ```
 */
export function createRequestLog(log: (line: string) => void, knownSecrets: readonly string[]): RequestLog {
  const entries = new WeakMap<Request, Entry>();
  const plugin: Plugin = {
    onRequest({ request }) {
      entries.set(request, { started: performance.now(), secrets: credentialsOf(request.headers.get('authorization')) });
    },
    onParams({ request, params }) {
      const entry = entries.get(request);
      if (!entry) return;
      entry.secrets.push(...secretsIn(params.variables), ...secretsIn(params.extensions));
      const sent = params.operationName;
      const operation = sent && NAME.test(sent) ? sent : typeof params.query === 'string' ? FIRST_OPERATION.exec(params.query)?.[1] : undefined;
      if (operation) entry.operation = operation;
    },
    onResultProcess({ request, result }) {
      const entry = entries.get(request);
      if (!entry || entry.outcome !== undefined || Symbol.asyncIterator in Object(result)) return;
      const outcome = errorsOf(result);
      if (outcome) entry.outcome = outcome;
    },
    onResponse({ request, response }) {
      const entry = entries.get(request);
      if (!entry) return;
      entries.delete(request);
      const id = request.headers.get('x-request-id');
      const parts = [
        request.method,
        new URL(request.url).pathname,
        String(response.status),
        entry.outcome,
        entry.operation && `op=${entry.operation}`,
        id !== null && `request=${REQUEST_ID.test(id) ? id : '(not a plain id)'}`,
        `${Math.round(performance.now() - entry.started)}ms`,
      ];
      log(redact(parts.filter(Boolean).join(' '), [...knownSecrets, ...entry.secrets]));
    },
  };
  return {
    plugin,
    note(request, outcome) {
      const entry = entries.get(request);
      if (entry) entry.outcome = outcome;
    },
  };
}
