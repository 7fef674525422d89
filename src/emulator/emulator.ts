import { createSchema, createYoga } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import { demoProject, demoProjects } from './demoProject.js';
import { httpRoutes } from './httpRoutes.js';
import { loadDataDir } from './loadDataDir.js';
import { operationNamePlugin } from './operationNamePlugin.js';
import { createRequestLog, REQUEST_ID } from './requestLog.js';
import { MAX_BODY_BYTES, queryLimitPlugins } from './requestLimits.js';
import { secretRedactionPlugin } from './secretRedactionPlugin.js';
import { createResolvers } from './resolvers.js';
import { JobRunner } from './jobRunner.js';
import type { ModelOptions } from './jobRunner.js';
import { emulatorSchemaSource, loadSchemaSource } from './schemaSource.js';
import type { SchemaGeneration } from '../shared/constants.js';
import { EmulatorStore } from './store.js';
import { TokenAuthority } from './tokenAuthority.js';
import { isLoopbackHost } from '../shared/isLoopbackHost.js';

/** Options of {@link createEmulator} and `startEmulator`. */
export interface EmulatorOptions {
  /** Port to listen on (`startEmulator` only); 0 takes a free one. @defaultValue 0 */
  port?: number;
  /** Address to listen on (`startEmulator` only). @defaultValue '127.0.0.1' */
  host?: string;
  /** A data folder to load projects from; see `loadDataDir` for its layout. @defaultValue none */
  dataDir?: string;
  /** Include the built-in project `demo-project`. @defaultValue true */
  demoProject?: boolean;
  /**
   * Also hold N small demo projects, `demo-project-1` … `demo-project-N` (each with the demo
   * label set and 3 to 7 lines), to try a run over many projects. @defaultValue 0
   */
  demoProjects?: number;
  /** A Bearer token that is always accepted. @defaultValue a random one, returned as `token` */
  staticToken?: string;
  /** Client id accepted at `POST /api/oauth/token`. @defaultValue a random one, returned as `clientId` */
  clientId?: string;
  /** Client secret accepted at `POST /api/oauth/token`. @defaultValue a random one, returned as `clientSecret` */
  clientSecret?: string;
  /** Lifetime of tokens from `/api/oauth/token`, in seconds (fractions allowed). @defaultValue 3600 */
  tokenTtlSeconds?: number;
  /** Origins that browsers may call from (exact strings), instead of the loopback ones. @defaultValue loopback origins: http(s)://localhost, 127.x.x.x, [::1], any port */
  corsOrigins?: string[];
  /**
   * Which generation of the service's schema to speak: `tags` (today's production: `tagItems`,
   * `tagName`) or `labels` (after the rename: `labelItems`, `labelName`). Switch a running emulator
   * with {@link Emulator.setSchemaGeneration}.
   * @defaultValue 'tags' (today's production)
   */
  schemaGeneration?: SchemaGeneration;
  /**
   * The largest request body read, in bytes. A larger one is refused with HTTP 413 and a
   * GraphQL-shaped error (`REQUEST_ENTITY_TOO_LARGE`) before it is read; the token is checked
   * first, from the headers. @defaultValue 1_048_576 (1 MiB)
   */
  maxBodyBytes?: number;
  /** Origins allowed besides `corsOrigins` (or besides the loopback default), e.g. `https://app.example:8443`; `labelkit emulator --cors-origin`. @defaultValue none */
  extraCorsOrigins?: string[];
  /** How the job runner calls models: time-out, concurrency, retries. */
  model?: ModelOptions;
  /**
   * A service latency: each `POST /graphql` is answered this many milliseconds later than it
   * would be (benchmarks of many workers against a service that is not local). @defaultValue 0
   */
  latencyMs?: number;
  /**
   * Receives one line per HTTP request and per job event; never a token or secret. A request's
   * line names its operation, its `x-request-id` and what the client saw, e.g.
   * `POST /graphql 200 op=GetCabinet request=3b24… 4ms` or `POST /graphql 200 Unauthorized request=… 1ms`
   * (see `createRequestLog`). @defaultValue no logging
   */
  log?: (line: string) => void;
}

/** The emulator as a value: a fetch-style handler over an in-memory store. */
export interface Emulator {
  /** Answers one HTTP request like the service (plus the emulator-only routes). */
  handle(request: Request): Promise<Response>;
  /** The data: add projects, read jobs and stored labels in process. */
  store: EmulatorStore;
  /** The static Bearer token in force. */
  token: string;
  /** The client id accepted at `/api/oauth/token`. */
  clientId: string;
  /** The client secret accepted at `/api/oauth/token` (a local test secret: do not print it). */
  clientSecret: string;
  /** The ids of the projects loaded from `dataDir`, in the folder's order (empty without one). */
  readonly dataProjects: readonly string[];
  /** The schema generation the emulator speaks now. */
  readonly schemaGeneration: SchemaGeneration;
  /**
   * Switches the schema generation at once, as the service will on the day of its rename: the
   * next request is validated and answered with the other field names. Data and jobs stay.
   */
  setSchemaGeneration(generation: SchemaGeneration): void;
  /**
   * The auto-labeling jobs in flight (started, not yet ended), now and at most at once since the
   * emulator began or since `resetPeak` (e.g. to check a run's `--max-running`).
   */
  jobsInFlight(): { now: number; peak: number };
  /** Starts the peak of {@link Emulator.jobsInFlight} again from the jobs in flight now. */
  resetJobsPeak(): void;
  /** Stops the job runner: running jobs end FAILED; resolves when none runs. */
  close(): Promise<void>;
}

function checkGeneration(value: unknown): SchemaGeneration {
  if (value === 'tags' || value === 'labels') return value;
  throw new TypeError(`[Emulator] schemaGeneration must be 'tags' or 'labels', got ${JSON.stringify(value)}`);
}

/** An `Origin` header of a page served from this machine (http or https, any port). */
function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && isLoopbackHost(url.hostname);
}

const ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'x-request-id', 'x-labelkit-client'];
/** Response headers a browser client may read: the retry hint and the request id it sent. */
const EXPOSED_HEADERS = ['Retry-After', 'x-request-id'];

/**
 * Headers for browser clients on every answer: `Vary: Origin` (whether CORS headers are sent
 * depends on the Origin), and the request's `x-request-id` echoed back (a plain id only), which a
 * page may read because CORS exposes it.
 */
const browserHeaders = (): Plugin => ({
  onResponse({ request, response }) {
    const id = request.headers.get('x-request-id');
    if (id && REQUEST_ID.test(id) && !response.headers.has('x-request-id')) response.headers.set('x-request-id', id);
    const vary = response.headers.get('vary');
    if (!vary) response.headers.set('vary', 'Origin');
    else if (!/(^|,)\s*origin\s*(,|$)/i.test(vary) && vary.trim() !== '*') response.headers.set('vary', `${vary}, Origin`);
  },
});

/**
 * Creates the emulator of the labeling service without a socket.
 *
 * @param options - data, auth, CORS and job-runner settings (`port` and `host` are for `startEmulator`)
 * @returns the emulator; `handle(request)` answers like the service, `store` holds the data
 * @throws {@link EmulatorDataError} when `dataDir` holds bad files (every problem, with file and line)
 * @remarks Serves schema.graphql with graphql-yoga and real resolvers, in the schema generation of
 * `schemaGeneration` (the store and job runner are the same in both). Routes:
 * - `POST /graphql` — GraphQL; needs `Authorization: Bearer <token>`, else a GraphQL error
 *   `Unauthorized` with `extensions.type` `AuthenticationError`. Any alphanumeric `operationName`
 *   is accepted when the document holds one operation.
 * - `GET /graphql` — GraphiQL for browsers (bundled: nothing loaded from outside); queries are
 *   never run from a GET (405).
 * - `GET /` and `GET /emulator/projects/:id/results[?job=…]` — the web pages: home (GraphQL URL,
 *   dev token, projects, latest jobs) and each project's labelled documents; they use a cookie
 *   that the home page sets, never the Bearer header.
 * - `POST /api/oauth/token` — OAuth 2.0 client credentials → `{ access_token, token_type, expires_in }`.
 * - `GET /emulator/projects/:id/labels` — emulator-only, not part of the service: the labels
 *   stored on each labeler's copy (Bearer required).
 *
 * Limits: the token is checked from the headers before the body is read; a body over
 * `maxBodyBytes` gets 413 (`REQUEST_ENTITY_TOO_LARGE`) without being read; an operation deeper
 * than 8 or with more than 15 aliases is refused (graphql-armor). No answer quotes a request body
 * or a value under a secret-like key.
 *
 * CORS: allowed origins get `Access-Control-Allow-Origin`, and every answer carries `Vary: Origin`
 * and lets the browser read `Retry-After` and `x-request-id` (the request's own id, echoed back).
 * @example
 * ```ts
 * const emulator = createEmulator({ staticToken: 'test-token' });
 * const res = await emulator.handle(new Request('http://emulator/graphql', {
 *   method: 'POST',
 *   headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
 *   body: JSON.stringify({ query: '{ getJob(jobId: "nope") { id } }' }),
 * }));
 * console.log(await res.json()); // { data: { getJob: null } }
 * await emulator.close();
 * ```
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  if (!(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0)) throw new Error('[Emulator] maxBodyBytes must be a whole number of bytes above 0');
  const store = new EmulatorStore();
  if (options.demoProject ?? true) store.addProject(demoProject());
  for (const project of demoProjects(options.demoProjects ?? 0)) store.addProject(project);
  const dataProjects = options.dataDir === undefined ? [] : loadDataDir(options.dataDir).map((project) => store.addProject(project).id);
  const auth = new TokenAuthority(options);
  const runner = new JobRunner(store, options.model, options.log);
  const corsOrigins = options.corsOrigins;
  const sdl = loadSchemaSource();
  const schemas = {
    tags: createSchema({ typeDefs: emulatorSchemaSource(sdl, 'tags'), resolvers: createResolvers(store, runner, 'tags') }),
    labels: createSchema({ typeDefs: emulatorSchemaSource(sdl, 'labels'), resolvers: createResolvers(store, runner, 'labels') }),
  };
  let generation = checkGeneration(options.schemaGeneration ?? 'tags');
  const extraOrigins = new Set(options.extraCorsOrigins ?? []);
  const requestLog = options.log ? createRequestLog(options.log, [auth.staticToken, auth.clientSecret]) : undefined;

  const yoga = createYoga({
    schema: () => schemas[generation],
    graphqlEndpoint: '/graphql',
    graphiql: false, // yoga's own page loads GraphiQL from a CDN; httpRoutes serves the bundled one
    landingPage: false,
    logging: false,
    maskedErrors: true,
    multipart: false,
    maxRequestBodySize: maxBodyBytes, // checked after the token (httpRoutes answers a bad one from the headers)
    cors: (request) => {
      const origin = request.headers.get('origin') ?? '';
      const allowed = extraOrigins.has(origin) || (corsOrigins ? corsOrigins.includes(origin) : isLoopbackOrigin(origin));
      // `false` sends no CORS headers at all (an empty origin list would mean "allow all").
      return allowed ? { origin, credentials: false, allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, methods: ['GET', 'POST'], maxAge: 600 } : false;
    },
    plugins: [
      ...(requestLog ? [requestLog.plugin] : []), // first: it sees every request and the operationName as sent
      httpRoutes(store, auth, requestLog?.note, { maxBodyBytes, ...(options.host !== undefined && { listenHost: options.host }) }),
      operationNamePlugin(),
      ...queryLimitPlugins(),
      secretRedactionPlugin(),
      browserHeaders(),
    ],
  });

  const latencyMs = options.latencyMs ?? 0;
  if (!(Number.isFinite(latencyMs) && latencyMs >= 0)) throw new Error('[Emulator] latencyMs must be a number of milliseconds >= 0');
  const delayed = (request: Request) => latencyMs > 0 && request.method === 'POST' && new URL(request.url).pathname === '/graphql';
  return {
    handle: async (request) => {
      if (delayed(request)) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return yoga.fetch(request);
    },
    store,
    token: auth.staticToken,
    clientId: auth.clientId,
    clientSecret: auth.clientSecret,
    dataProjects,
    get schemaGeneration() {
      return generation;
    },
    setSchemaGeneration(next) {
      generation = checkGeneration(next);
      options.log?.(`schema generation: ${generation}`);
    },
    jobsInFlight: () => runner.inFlight(),
    resetJobsPeak: () => runner.resetPeak(),
    close: () => runner.close(),
  };
}
