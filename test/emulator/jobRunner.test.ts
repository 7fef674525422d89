import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEMO_PROJECT_ID } from '../../src/emulator/index.js';
import { OriginSlots } from '../../src/emulator/jobRunner.js';
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

  // End to end, the HTTP agent's maxSockets caps sockets per host as well; OriginSlots is tested on its own below.
  it('never has more model calls in flight to one endpoint than the concurrency, over two jobs calling it', async () => {
    const emulator = createEmulator({ staticToken: 'tok', demoProject: false, model: { concurrency: 2, retries: 0 } });
    for (const id of ['p1', 'p2']) {
      emulator.store.addProject({ id, labelSets: [{ name: 'L', labels: [{ id: 'p', name: 'PERSON' }] }], documents: [{ id: 'd', lines: Array.from({ length: 6 }, (_, i) => `line ${i}`) }] });
    }
    let inFlight = 0;
    let most = 0;
    let answered = 0;
    const model = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const asked = JSON.parse(body) as { id: string; documents: { id: string }[] };
        // Answer a little later, so that calls overlap when the limit lets them.
        setTimeout(() => {
          inFlight--;
          answered++;
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: asked.id, documents: asked.documents.map((d) => ({ id: d.id, labels: [] })) }));
        }, 5);
      });
    });
    const endpoint = await listenOnLoopback(model);
    try {
      const jobs = await Promise.all(['p1', 'p2'].map((projectId) => startJob(emulator, { projectId, endpoint, secretKey: 'k-secret', filesPerRequest: 1, token: 'tok' })));
      await expect.poll(() => jobs.map((j) => j.status)).toEqual(['DELIVERED', 'DELIVERED']);
      expect(answered).toBe(12);
      expect(most).toBe(2); // each job has two workers: four callers for two slots
    } finally {
      await emulator.close();
      await closeServer(model);
    }
  });

  it('frees the slot of a failed model call, so that a job waiting for that endpoint goes on', async () => {
    const emulator = createEmulator({ staticToken: 'tok', demoProject: false, model: { concurrency: 1, retries: 0, maxFailedBatches: 2 } });
    for (const id of ['refused', 'fine']) {
      emulator.store.addProject({ id, labelSets: [{ name: 'L', labels: [{ id: 'p', name: 'PERSON' }] }], documents: [{ id: 'd', lines: ['one', 'two', 'three'] }] });
    }
    const model = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const asked = JSON.parse(body) as { id: string; documents: { id: string }[] };
        if (asked.id === 'refused') return void res.writeHead(400).end('no');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: asked.id, documents: asked.documents.map((d) => ({ id: d.id, labels: [] })) }));
      });
    });
    const endpoint = await listenOnLoopback(model);
    try {
      const refused = await startJob(emulator, { projectId: 'refused', endpoint, secretKey: 'k-secret', filesPerRequest: 1, token: 'tok' });
      const fine = await startJob(emulator, { projectId: 'fine', endpoint, secretKey: 'k-secret', filesPerRequest: 1, token: 'tok' });
      await expect.poll(() => [refused.status, fine.status]).toEqual(['FAILED', 'DELIVERED']);
      expect(refused.errors[0]!.stack).toContain('the model answered HTTP 400');
    } finally {
      await emulator.close();
      await closeServer(model);
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

describe('OriginSlots', () => {
  /** A call that ends when the test says so; `started` tells whether the slots let it run yet. */
  const deferredCall = () => {
    const call = {
      started: false,
      finish: (_ok: boolean) => {},
      fn: () =>
        new Promise<string>((resolve, reject) => {
          call.started = true;
          call.finish = (ok) => (ok ? resolve('ok') : reject(new Error('model failed')));
        }),
    };
    return call;
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most max calls per origin at once and hands a freed slot to the first waiter', async () => {
    const slots = new OriginSlots(2);
    const calls = [deferredCall(), deferredCall(), deferredCall(), deferredCall()];
    const settled = Promise.allSettled(calls.map((c) => slots.run('http://a', c.fn)));
    await turn();
    expect(calls.map((c) => c.started)).toEqual([true, true, false, false]);
    calls[1]!.finish(true);
    await turn();
    expect(calls.map((c) => c.started)).toEqual([true, true, true, false]); // the first waiter, not the last
    calls[0]!.finish(false); // a failed call frees its slot too
    await turn();
    expect(calls[3]!.started).toBe(true);
    calls[2]!.finish(true);
    calls[3]!.finish(true);
    expect(await settled).toEqual([
      { status: 'rejected', reason: new Error('model failed') },
      { status: 'fulfilled', value: 'ok' },
      { status: 'fulfilled', value: 'ok' },
      { status: 'fulfilled', value: 'ok' },
    ]);
  });

  it('keeps each origin to its own slots, so a full origin holds back no call to another', async () => {
    const slots = new OriginSlots(1);
    const [a1, a2, b1] = [deferredCall(), deferredCall(), deferredCall()];
    const results = [slots.run('http://a', a1.fn), slots.run('http://a', a2.fn), slots.run('http://b', b1.fn)];
    await turn();
    expect([a1.started, a2.started, b1.started]).toEqual([true, false, true]);
    a1.finish(true);
    b1.finish(true);
    await turn();
    expect(a2.started).toBe(true);
    a2.finish(true);
    await Promise.all(results);
    // an origin whose calls all ended starts afresh with all its slots
    const [c1, c2] = [deferredCall(), deferredCall()];
    const again = [slots.run('http://a', c1.fn), slots.run('http://a', c2.fn)];
    await turn();
    expect([c1.started, c2.started]).toEqual([true, false]);
    c1.finish(true);
    await turn();
    c2.finish(true);
    await Promise.all(again);
  });
});
