import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEMO_PROJECT_ID } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';

const MUTATION = 'mutation Start($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }';

describe('JobRunner', () => {
  it('keeps labeling with a second model endpoint while another endpoint never answers', async () => {
    const emulator = createEmulator({ staticToken: 'tok', model: { concurrency: 1, timeoutMs: 600_000, retries: 0 } });
    let hungRequests = 0;
    const hung = createServer(() => void hungRequests++); // accepts every request, never answers
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const good = await startModelServer({ secretKey: 'good-secret' });
    const start = async (endpoint: string, secretKey: string) => {
      const res = await emulator.handle(
        new Request('http://emulator.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer tok' },
          body: JSON.stringify({ query: MUTATION, variables: { input: { projectId: DEMO_PROJECT_ID, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint, secretKey } } } }),
        }),
      );
      const id = ((await res.json()) as { data: { autoLabelTokenBasedProject: { id: string } } }).data.autoLabelTokenBasedProject.id;
      return emulator.store.jobs.get(id)!;
    };
    try {
      const stuck = await start(`http://127.0.0.1:${(hung.address() as AddressInfo).port}/`, 'hung-secret');
      await expect.poll(() => hungRequests).toBe(1); // the one slot of that endpoint is taken, for ever
      const other = await start(good.url, 'good-secret');
      await expect.poll(() => other.status).toBe('DELIVERED');
      expect(stuck.status).toBe('IN_PROGRESS');
      expect(hungRequests).toBe(1); // concurrency 1 holds on the hung endpoint itself
    } finally {
      await emulator.close();
      hung.closeAllConnections();
      await new Promise((resolve) => hung.close(resolve));
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
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    try {
      const res = await emulator.handle(
        new Request('http://emulator.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer tok' },
          body: JSON.stringify({
            query: MUTATION,
            variables: { input: { projectId: DEMO_PROJECT_ID, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: `http://127.0.0.1:${(model.address() as AddressInfo).port}/`, secretKey: 'k-secret' } } },
          }),
        }),
      );
      const job = emulator.store.jobs.get(((await res.json()) as { data: { autoLabelTokenBasedProject: { id: string } } }).data.autoLabelTokenBasedProject.id)!;
      await expect.poll(() => job.status).toBe('DELIVERED');
      expect(job.errors).toEqual([]);
      expect(seen).toBe(emulator.store.projects.get(DEMO_PROJECT_ID)!.documents.length + 2);
    } finally {
      await emulator.close();
      model.closeAllConnections();
      await new Promise((resolve) => model.close(resolve));
    }
  });
});
