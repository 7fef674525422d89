import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graphql } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { addMocksToSchema } from '@graphql-tools/mock';
import type { IMocks } from '@graphql-tools/mock';
import { schemaInGeneration } from '../../src/shared/schemaGeneration.js';
import { createLabelingClient } from '../../src/client/index.js';
import type { LabelingClient, LabelingClientOptions } from '../../src/client/index.js';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Date.now() when the request arrived. */
  receivedAt: number;
  json?: { operationName?: string; query?: string; variables?: Record<string, unknown> };
}

/** What the server does with the next GraphQL request instead of answering it. */
export type Plan =
  | { status: number; headers?: Record<string, string>; body?: string; statusText?: string }
  | { drop: true }
  | { delayMs: number }
  /** 200 headers and the first part of a JSON body, then the connection is destroyed. */
  | { cut: true }
  /** Never answers (until the server closes). */
  | { hang: true }
  /** An answer computed from the request (to echo what the client sent). */
  | { respond: (request: RecordedRequest) => { status: number; headers?: Record<string, string>; body: string; statusText?: string } };

export interface MockJob {
  id: string;
  status: 'QUEUED' | 'IN_PROGRESS' | 'DELIVERED' | 'FAILED' | 'NONE';
  progress: number;
  errors: { id: string; stack: string; args: Record<string, unknown> | null }[];
  resultId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MockServerOptions {
  /** SDL to mock; defaults to the project's schema.graphql. */
  typeDefs?: string;
  /** Extra mocks (custom scalars of a bigger schema). */
  mocks?: IMocks;
  /** Tokens the server accepts; the token endpoint adds the ones it issues. */
  validTokens?: string[];
  /** How an unknown token is refused. @defaultValue 'graphql' (production's shape) */
  authFailure?: 'graphql' | 'http401';
  /** Client credentials accepted by POST /api/oauth/token. */
  clientId?: string;
  clientSecret?: string;
  /** expires_in of issued tokens, in seconds. */
  expiresIn?: number;
  /** Whether tokens issued by the token endpoint are accepted. @defaultValue true */
  acceptIssuedTokens?: boolean;
  /** Delay of the token endpoint, to make concurrent refreshes overlap. */
  tokenDelayMs?: number;
}

export interface MockServer {
  url: string;
  requests: RecordedRequest[];
  /** GraphQL requests only. */
  graphqlRequests(): RecordedRequest[];
  tokenRequests: number;
  validTokens: Set<string>;
  jobs: Map<string, MockJob>;
  /** Queue plans for the next GraphQL requests, in order. */
  plan(...plans: Plan[]): void;
  /** Queue plans for the next token requests, in order. */
  tokenPlan(...plans: Plan[]): void;
  close(): Promise<void>;
}

const repoRoot = join(import.meta.dirname, '..', '..');
/** The project's schema.graphql in today's generation (tagItems, tagName), whichever it is written in. */
export const projectSdl = schemaInGeneration(readFileSync(join(repoRoot, 'schema.graphql'), 'utf8'), 'tags');

/** A job snapshot with sensible defaults. */
export function mockJob(id: string, patch: Partial<MockJob> = {}): MockJob {
  return { id, status: 'QUEUED', progress: 0, errors: [], resultId: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', ...patch };
}

function mockedSchema(typeDefs: string, mocks: IMocks, jobs: Map<string, MockJob>): GraphQLSchema {
  const schema = makeExecutableSchema({ typeDefs });
  let counter = 0;
  const resolvers: Parameters<typeof addMocksToSchema>[0]['resolvers'] = {
      Query: {
        getCabinet: (_: unknown, args: { projectId: string; role: string }) => ({ id: `cabinet-${args.projectId}-${args.role}` }),
        getCabinetLabelSetsById: () =>
          [2, 0, 1].map((index) => ({
            id: `set-${index}`,
            index,
            name: `Set ${index}`,
            signature: index === 1 ? null : 'ab12',
            arrowLabelRequired: false,
            tagItems: [
              { id: `${index}-root`, parentId: null, tagName: 'ENTITY', color: '#ff0000', desc: null, type: 'SPAN' },
              { id: `${index}-child`, parentId: `${index}-root`, tagName: 'PERSON', color: null, desc: null, type: 'SPAN' },
            ],
          })),
        getJob: (_: unknown, args: { jobId: string }) => jobs.get(args.jobId) ?? null,
        getJobs: (_: unknown, args: { jobIds: string[] }) => args.jobIds.map((id) => jobs.get(id) ?? null),
      },
      Mutation: {
        autoLabelTokenBasedProject: () => {
          const job = mockJob(`job-${++counter}`);
          jobs.set(job.id, job);
          return job;
        },
      },
  };
  return addMocksToSchema({ schema, mocks: { JobErrorArgs: () => ({}), ...mocks } as IMocks, resolvers });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, statusText?: string): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const head = { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers };
  if (statusText === undefined) res.writeHead(status, head);
  else res.writeHead(status, statusText, head);
  res.end(text);
}

/** Carries out a plan; true when the request is answered (or dropped) by it. */
async function follow(plan: Plan, req: IncomingMessage, res: ServerResponse, record: RecordedRequest): Promise<boolean> {
  if ('drop' in plan) {
    req.socket.destroy();
    return true;
  }
  if ('hang' in plan) return true;
  if ('cut' in plan) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"data":{"getJobs":[{"id":"j","sta', () => req.socket.destroy());
    return true;
  }
  if ('delayMs' in plan) {
    await new Promise((r) => setTimeout(r, plan.delayMs));
    return false;
  }
  const answer = 'respond' in plan ? plan.respond(record) : { ...plan, body: plan.body ?? `status ${plan.status}` };
  send(res, answer.status, answer.body, answer.headers, answer.statusText);
  return true;
}

/**
 * Starts a GraphQL server on 127.0.0.1 over a mocked executable schema (graphql-tools), with
 * Bearer auth, a client-credentials token endpoint, and plans that make the next requests fail.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const jobs = new Map<string, MockJob>();
  const schema = mockedSchema(options.typeDefs ?? projectSdl, options.mocks ?? {}, jobs);
  const plans: Plan[] = [];
  const tokenPlans: Plan[] = [];
  const sockets = new Set<Socket>();
  let issued = 0;
  const state: MockServer = {
    url: '',
    requests: [],
    graphqlRequests: () => state.requests.filter((r) => r.path === '/graphql'),
    tokenRequests: 0,
    validTokens: new Set(options.validTokens ?? ['test-token']),
    jobs,
    plan: (...more) => plans.push(...more),
    tokenPlan: (...more) => tokenPlans.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, `mock server failed: ${String(error)}`);
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const record: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body, receivedAt: Date.now() };
    state.requests.push(record);

    if (path === '/api/oauth/token' && req.method === 'POST') {
      state.tokenRequests++;
      if (options.tokenDelayMs) await new Promise((r) => setTimeout(r, options.tokenDelayMs));
      const tokenPlan = tokenPlans.shift();
      if (tokenPlan && (await follow(tokenPlan, req, res, record))) return;
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'client_credentials' || form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) {
        send(res, 401, { error: 'invalid_client' });
        return;
      }
      const token = `issued-${++issued}`;
      if (options.acceptIssuedTokens !== false) state.validTokens.add(token);
      send(res, 200, { access_token: token, token_type: 'Bearer', ...(options.expiresIn !== undefined && { expires_in: options.expiresIn }) });
      return;
    }
    if (path !== '/graphql') return send(res, 404, 'not found');
    if (req.method !== 'POST') return send(res, 405, 'POST only');
    try {
      record.json = JSON.parse(body) as RecordedRequest['json'];
    } catch {
      return send(res, 400, { errors: [{ message: 'body is not JSON' }] });
    }

    const plan = plans.shift();
    if (plan && (await follow(plan, req, res, record))) return;

    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!state.validTokens.has(token)) {
      if (options.authFailure === 'http401') return send(res, 401, { errors: [{ message: 'Unauthorized' }] });
      return send(res, 200, { data: null, errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] });
    }
    const json = record.json!;
    const result = await graphql({
      schema,
      source: json.query ?? '',
      variableValues: json.variables ?? {},
      operationName: json.operationName ?? null,
    });
    send(res, 200, result);
  };
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return state;
}

/** A mock server and a client of it: what most client tests start before each test. */
export interface MockClient {
  server: MockServer;
  client: LabelingClient;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

/**
 * Starts a mock server and a client pointed at it, with a static token (`test-token` unless
 * given) and the other options given.
 *
 * @param clientOptions - the client's options but its URL (the server's)
 * @param serverOptions - the server's ({@link MockServerOptions})
 */
export async function startMockClient(clientOptions: Partial<LabelingClientOptions> = {}, serverOptions: MockServerOptions = {}): Promise<MockClient> {
  const server = await startMockServer(serverOptions);
  const client = createLabelingClient({ token: 'test-token', ...clientOptions, url: server.url } as LabelingClientOptions);
  return {
    server,
    client,
    close: async () => {
      client.close();
      await server.close();
    },
  };
}
