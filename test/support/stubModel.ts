import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** The span request as the stub sees it. */
export interface SeenRequest {
  id: string;
  name: string;
  documents: { id: string; sentences: { id: number; text: string }[] }[];
}

/** What the stub does with one request: answer, hang, or drop the connection. */
export type StubAction =
  | { kind: 'predict' }
  | { kind: 'status'; status: number; body?: string }
  | { kind: 'json'; body: unknown }
  | { kind: 'hang'; ms: number }
  | { kind: 'drop' };

/** Chooses the action for the n-th request (0-based); the default predicts. */
export type StubBehaviour = (request: SeenRequest, n: number, authorization: string | undefined) => StubAction;

/** A model endpoint for tests: records every request and can fail on purpose. */
export interface StubModel {
  url: string;
  /** Every request body, in arrival order. */
  requests: SeenRequest[];
  /** Every Authorization header received. */
  authorizations: (string | undefined)[];
  /** The most requests handled at the same time. */
  maxInFlight: number;
  /** Replace to change behaviour between requests. */
  behaviour: StubBehaviour;
  close(): Promise<void>;
}

/** Terms the stub's predictor finds; they fit the emulator's demo project. */
export const STUB_TERMS: Record<string, string[]> = {
  PERSON: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'John Smith', 'Maria', 'Ravi'],
  ORGANIZATION: ['Acme Corp', 'Globex', 'Initech', 'Red Cross', 'United Nations'],
  LOCATION: ['London', 'Nairobi', 'Lisbon', 'Berlin', 'Tokyo', 'Paris'],
  DATE: ['Monday', 'Friday', 'Tuesday', 'March', 'December', 'January', '2024'],
};

/**
 * The stub's own predictions: every occurrence of each term, as the span contract shapes them.
 *
 * @param request - the span request
 * @returns the span response
 */
export function stubPredict(request: SeenRequest) {
  return {
    id: request.id,
    documents: request.documents.map((doc) => ({
      id: doc.id,
      labels: doc.sentences.map((s) => {
        const entities: { label: string; start_char: number; end_char: number; confidence_score: number }[] = [];
        for (const [label, terms] of Object.entries(STUB_TERMS)) {
          for (const term of terms) {
            for (let at = s.text.indexOf(term); at !== -1; at = s.text.indexOf(term, at + term.length)) {
              entities.push({ label, start_char: at, end_char: at + term.length, confidence_score: 0.9 });
            }
          }
        }
        entities.sort((a, b) => a.start_char - b.start_char);
        return { id: s.id, entities };
      }),
    })),
  };
}

/**
 * Starts a stub model on 127.0.0.1 (a free port) with `node:http`.
 *
 * @param behaviour - what to do with each request; predicts by default
 * @param delayMs - a delay before every answer, so that concurrency and progress can be seen
 * @returns the stub; `close()` destroys open sockets and frees the port
 */
export async function startStubModel(behaviour: StubBehaviour = () => ({ kind: 'predict' }), delayMs = 0): Promise<StubModel> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });
  let inFlight = 0;
  let count = 0;
  const stub: StubModel = { url: '', requests: [], authorizations: [], maxInFlight: 0, behaviour, close: async () => {} };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    stub.maxInFlight = Math.max(stub.maxInFlight, inFlight);
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SeenRequest;
      const n = count++;
      stub.requests.push(body);
      stub.authorizations.push(req.headers.authorization);
      if (delayMs) await wait(delayMs);
      const action = stub.behaviour(body, n, req.headers.authorization);
      if (action.kind === 'hang') {
        await wait(action.ms);
        if (!res.destroyed) res.writeHead(504).end();
      } else if (action.kind === 'drop') req.socket.destroy();
      else if (action.kind === 'status') res.writeHead(action.status, { 'content-type': 'text/plain' }).end(action.body ?? `status ${action.status}`);
      else {
        const answer = action.kind === 'json' ? action.body : stubPredict(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      }
    } finally {
      inFlight--;
    }
  };
  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/predict`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return stub;
}
