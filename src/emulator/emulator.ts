import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { parse } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import { demoProject } from './demoProject.js';
import { createResolvers } from './resolvers.js';
import { JobRunner } from './runner.js';
import type { RunnerOptions } from './runner.js';
import { loadSchemaSource } from './schemaSource.js';
import { EmulatorStore } from './store.js';

/** Options of the emulator; see docs/CONTRACTS.md. */
export interface EmulatorOptions {
  /** @defaultValue 0 (a free port) */
  port?: number;
  /** @defaultValue '127.0.0.1' */
  host?: string;
  /** Include the built-in demo project. @defaultValue true */
  demoProject?: boolean;
  /** A Bearer token that is always accepted. @defaultValue a random one, returned as `token` */
  staticToken?: string;
  /** Client credentials accepted at POST /api/oauth/token. @defaultValue random ones */
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of issued tokens. @defaultValue 3600 */
  tokenTtlSeconds?: number;
  /** Origins allowed by CORS. @defaultValue loopback origins */
  corsOrigins?: string[];
  /** How the job runner calls models. */
  model?: RunnerOptions;
}

/** The emulator as a value: a fetch-style handler over an in-memory store. */
export interface Emulator {
  handle(request: Request): Promise<Response>;
  store: EmulatorStore;
  /** The static token, client id and client secret in force. */
  token: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

const unauthorized = () =>
  Response.json({ data: null, errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] }, { status: 200 });

const sameSecret = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

const isLoopbackOrigin = (origin: string) => /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(origin);

/**
 * Creates the emulator without a socket: `handle(request)` answers like the service.
 *
 * @param options - data, auth and runner settings
 * @returns the emulator; `startEmulator` serves it over HTTP
 * @remarks Routes: `POST /graphql` (Bearer required), `GET /graphql` (GraphiQL for people; queries
 * are not accepted as GET), `POST /api/oauth/token` (client credentials), and the emulator-only
 * `GET /emulator/projects/:id/labels` (not part of the service).
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const store = new EmulatorStore();
  if (options.demoProject ?? true) store.addProject(demoProject());
  const runner = new JobRunner(store, options.model);
  const token = options.staticToken ?? `emu-${randomBytes(16).toString('hex')}`;
  const clientId = options.clientId ?? `emu-client-${randomBytes(4).toString('hex')}`;
  const clientSecret = options.clientSecret ?? randomBytes(16).toString('hex');
  const ttlMs = (options.tokenTtlSeconds ?? 3600) * 1000;
  const issued = new Map<string, number>(); // token → expiry (epoch ms)

  const validBearer = (request: Request) => {
    const auth = request.headers.get('authorization') ?? '';
    if (!auth.startsWith('Bearer ')) return false;
    const given = auth.slice(7);
    if (sameSecret(given, token)) return true;
    const expiry = issued.get(given);
    return expiry !== undefined && Date.now() < expiry;
  };

  const routes: Plugin = {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname === '/api/oauth/token') {
        if (request.method !== 'POST') return endResponse(Response.json({ error: 'invalid_request' }, { status: 405 }));
        const form = new URLSearchParams(await request.text());
        if (form.get('grant_type') !== 'client_credentials') {
          return endResponse(Response.json({ error: 'unsupported_grant_type' }, { status: 400 }));
        }
        if (!sameSecret(form.get('client_id') ?? '', clientId) || !sameSecret(form.get('client_secret') ?? '', clientSecret)) {
          return endResponse(Response.json({ error: 'invalid_client' }, { status: 401 }));
        }
        const accessToken = `emu-${randomBytes(16).toString('hex')}`;
        issued.set(accessToken, Date.now() + ttlMs);
        return endResponse(Response.json({ access_token: accessToken, token_type: 'Bearer', expires_in: ttlMs / 1000 }));
      }
      const labels = /^\/emulator\/projects\/([^/]+)\/labels$/.exec(url.pathname);
      if (labels) {
        if (!validBearer(request)) return endResponse(unauthorized());
        const projectId = decodeURIComponent(labels[1]!);
        if (!store.projects.has(projectId)) return endResponse(Response.json({ error: `unknown project ${projectId}` }, { status: 404 }));
        return endResponse(Response.json({ projectId, copies: store.labelsOf(projectId) }));
      }
      if (url.pathname === '/graphql') {
        if (request.method === 'GET' && url.searchParams.has('query')) {
          return endResponse(Response.json({ errors: [{ message: 'send queries as POST' }] }, { status: 405, headers: { allow: 'POST' } }));
        }
        if (request.method === 'POST' && !validBearer(request)) return endResponse(unauthorized());
      }
      return undefined;
    },
    // The service accepts any operationName when the document holds one operation.
    onParams({ params, setParams }) {
      if (!params.operationName || !params.query) return;
      try {
        const ops = parse(params.query).definitions.filter((d) => d.kind === 'OperationDefinition');
        if (ops.length === 1 && (!('name' in ops[0]!) || ops[0]!.name?.value !== params.operationName)) {
          setParams({ ...params, operationName: undefined });
        }
      } catch {
        /* yoga reports the syntax error */
      }
    },
  };

  const yoga = createYoga({
    schema: createSchema({ typeDefs: loadSchemaSource(), resolvers: createResolvers(store, runner) }),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    maskedErrors: true,
    cors: (request) => {
      const origin = request.headers.get('origin') ?? '';
      const allowed = options.corsOrigins ? options.corsOrigins.includes(origin) : isLoopbackOrigin(origin);
      return allowed
        ? { origin, credentials: false, allowedHeaders: ['authorization', 'content-type', 'x-request-id', 'x-labelkit-client'], methods: ['POST', 'GET'] }
        : false; // no CORS headers at all (an empty origin list would mean "allow all")
    },
    plugins: [routes],
  });

  return {
    handle: async (request) => yoga.fetch(request),
    store,
    token,
    clientId,
    clientSecret,
    close: async () => {
      runner.close();
    },
  };
}
