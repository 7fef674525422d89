import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createEmulator } from '../../src/emulator/index.js';
import type { Emulator, EmulatorOptions } from '../../src/emulator/index.js';

/** The emulator behind a small node:http front that counts what reaches the service. */
export interface CountingService {
  url: string;
  token: string;
  emulator: Emulator;
  /** Mutations that reached the service and started a job, per project id. */
  jobsStarted: Map<string, number>;
  /** Every GraphQL request, in arrival order: operation name and, for getJobs, how many ids. */
  requests: { operationName: string; jobIds?: number }[];
  /** Projects whose mutation is run by the service but whose answer is never sent (socket destroyed). */
  dropAnswerFor: Set<string>;
  /** Delay before a mutation is handed to the service, in ms (to catch a run mid-way). */
  mutationDelayMs: number;
  /** While set, every mutation waits for it before it is handed to the service (to hold the starts until a test is ready). */
  mutationGate: Promise<void> | undefined;
  close(): Promise<void>;
}

/**
 * Starts the emulator behind a counting front on 127.0.0.1 (port 0).
 *
 * @param options - the emulator's options
 * @returns the service; `jobsStarted` counts jobs per project as the service started them
 */
export async function startCountingService(options: EmulatorOptions = {}): Promise<CountingService> {
  const emulator = createEmulator(options);
  const sockets = new Set<Socket>();
  const service = {
    url: '',
    token: emulator.token,
    emulator,
    jobsStarted: new Map<string, number>(),
    requests: [] as CountingService['requests'],
    dropAnswerFor: new Set<string>(),
    mutationDelayMs: 0,
    mutationGate: undefined as Promise<void> | undefined,
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let parsed: { operationName?: string; query?: string; variables?: { input?: { projectId?: string }; jobIds?: string[] } } = {};
    try {
      parsed = JSON.parse(body);
    } catch {
      /* not JSON: the emulator answers it */
    }
    const isMutation = /^\s*mutation\b/.test(parsed.query ?? '');
    service.requests.push({ operationName: parsed.operationName ?? '', ...(parsed.variables?.jobIds && { jobIds: parsed.variables.jobIds.length }) });
    if (isMutation && service.mutationGate) await service.mutationGate;
    if (isMutation && service.mutationDelayMs > 0) await new Promise((r) => setTimeout(r, service.mutationDelayMs));
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const response = await emulator.handle(
      new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(req.method === 'POST' && { body }) }),
    );
    const text = await response.text();
    const projectId = parsed.variables?.input?.projectId;
    if (isMutation && projectId !== undefined) {
      const started = (JSON.parse(text) as { data?: { result?: { id?: string } } | null }).data?.result?.id !== undefined;
      if (started) service.jobsStarted.set(projectId, (service.jobsStarted.get(projectId) ?? 0) + 1);
      if (started && service.dropAnswerFor.has(projectId)) {
        req.socket.destroy();
        return;
      }
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(text);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return Object.assign(service, {
    close: async () => {
      await emulator.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
