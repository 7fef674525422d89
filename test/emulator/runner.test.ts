import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEMO_PROJECT_ID } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import { closeServer, listenOnLoopback, startJob } from '../support/emulatorJobs.js';

describe('JobRunner', () => {
  it('keeps labeling with a second model endpoint while another endpoint never answers', async () => {
    const emulator = createEmulator({ staticToken: 'tok', model: { concurrency: 1, timeoutMs: 600_000, retries: 0 } });
    let hungRequests = 0;
    const hung = createServer(() => void hungRequests++); // accepts every request, never answers
    const hungUrl = await listenOnLoopback(hung);
    const good = await startModelServer({ secretKey: 'good-secret' });
    const start = (endpoint: string, secretKey: string) =>
      startJob(emulator, { projectId: DEMO_PROJECT_ID, endpoint, secretKey, filesPerRequest: 0, token: 'tok' });
    try {
      const stuck = await start(hungUrl, 'hung-secret');
      await expect.poll(() => hungRequests).toBe(1); // the one slot of that endpoint is taken, for ever
      const other = await start(good.url, 'good-secret');
      await expect.poll(() => other.status).toBe('DELIVERED');
      expect(stuck.status).toBe('IN_PROGRESS');
      expect(hungRequests).toBe(1); // concurrency 1 holds on the hung endpoint itself
    } finally {
      await emulator.close();
      await closeServer(hung);
      await good.close();
    }
  });

  it('retries a batch the model answered 429 or 408, as the shared classification calls them transient', async () => {
    const emulator = createEmulator({ staticToken: 'tok', model: { concurrency: 1, retries: 2, retryDelayMs: 1 } });
    let seen = 0;
    const model = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen++;
        if (seen <= 2) return void res.writeHead(seen === 1 ? 429 : 408).end('busy');
        const asked = JSON.parse(body) as { id: string; documents: { id: string }[] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: asked.id, documents: asked.documents.map((d) => ({ id: d.id, labels: [] })) }));
      });
    });
    const endpoint = await listenOnLoopback(model);
    try {
      const job = await startJob(emulator, { projectId: DEMO_PROJECT_ID, endpoint, secretKey: 'k-secret', filesPerRequest: 0, token: 'tok' });
      await expect.poll(() => job.status).toBe('DELIVERED');
      expect(job.errors).toEqual([]);
      expect(seen).toBe(emulator.store.projects.get(DEMO_PROJECT_ID)!.documents.length + 2);
    } finally {
      await emulator.close();
      await closeServer(model);
    }
  });
});
