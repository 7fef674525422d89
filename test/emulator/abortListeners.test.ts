import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index.js';
import { closeServer, listenOnLoopback, startJob } from '../support/emulatorJobs.js';

const IN_FLIGHT = 16;

describe('JobRunner abort listeners', () => {
  it('emits no MaxListenersExceededWarning when a job has more than 10 model calls in flight at once', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on('warning', onWarning);
    const emulator = createEmulator({ staticToken: 'tok', demoProject: false, model: { concurrency: IN_FLIGHT, retries: 0 } });
    emulator.store.addProject({
      id: 'many',
      labelSets: [{ name: 'L', labels: [{ id: 'p', name: 'PERSON' }] }],
      documents: [{ id: 'd', lines: Array.from({ length: IN_FLIGHT * 2 }, (_, i) => `line ${i}`) }],
    });
    // The model holds its answers until IN_FLIGHT requests wait together, so that many calls are in flight at once.
    let held: (() => void)[] = [];
    let most = 0;
    const model = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const asked = JSON.parse(body) as { id: string; documents: { id: string }[] };
        held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: asked.id, documents: asked.documents.map((d) => ({ id: d.id, labels: [] })) })));
        most = Math.max(most, held.length);
        if (held.length === IN_FLIGHT) {
          const all = held;
          held = [];
          for (const answer of all) answer();
        }
      });
    });
    const endpoint = await listenOnLoopback(model);
    try {
      const job = await startJob(emulator, { projectId: 'many', endpoint, secretKey: 'k-secret', filesPerRequest: 1, token: 'tok' });
      await expect.poll(() => job.status).toBe('DELIVERED');
      await new Promise((resolve) => setImmediate(resolve)); // process warnings are emitted on a later tick
      expect(most).toBe(IN_FLIGHT);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await emulator.close();
      await closeServer(model);
    }
  });
});
