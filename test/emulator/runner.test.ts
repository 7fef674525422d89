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
  it('counts the batches of a FAILED job in its errors, exactly even when the list of errors was capped', async () => {
    const emulator = createEmulator({ staticToken: 'tok', model: { retries: 0 } });
    // Every line gets 30 entities of a label the project does not have: 30 errors per line.
    const model = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const asked = JSON.parse(body) as { id: string; documents: { id: string; sentences: { id: number }[] }[] };
        const entities = Array.from({ length: 30 }, () => ({ label: 'NO_SUCH_LABEL', start_char: 0, end_char: 1 }));
        const documents = asked.documents.map((d) => ({ id: d.id, labels: d.sentences.map((s) => ({ id: s.id, entities })) }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: asked.id, documents }));
      });
    });
    const endpoint = await listenOnLoopback(model);
    try {
      const job = await startJob(emulator, { projectId: DEMO_PROJECT_ID, endpoint, secretKey: 'k-secret', filesPerRequest: 0, token: 'tok' });
      await expect.poll(() => job.status).toBe('FAILED');
      expect(job.progress).toBe(0); // no batch was stored
      expect(job.errors[0]!.args).toMatchObject({ documentId: 'doc-1', firstLine: 0, lastLine: 2, batches: 4 });
      expect(job.errors).toHaveLength(51);
      expect(job.errors.at(-1)).toMatchObject({ stack: 'more errors were left out', args: { failedBatches: 4, batches: 4, notSent: 0 } });
    } finally {
      await emulator.close();
      await closeServer(model);
    }
  });
});
