import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, demoProject, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createSampleModel } from '../../src/model/index.js';
import type { SpanResponse } from '../../src/model/index.js';
import { startStubModel } from './stubModel.js';
import type { StubModel } from './stubModel.js';

const SECRET = 'model-secret-SENTINEL-e2e';
const lineCounts = demoProject().documents.map((d) => d.lines.length); // [3, 5, 4]

describe('auto-labeling end to end: client → emulator → model', () => {
  let emu: RunningEmulator;
  let model: StubModel;
  let client: LabelingClient;
  beforeEach(async () => {
    emu = await startEmulator({ model: { timeoutMs: 300, retries: 1, retryDelayMs: 10, concurrency: 2 } });
    model = await startStubModel(SECRET);
    client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 10, maxIntervalMs: 20 } });
  });
  afterEach(async () => {
    client.close();
    await emu.close();
    await model.close();
  });

  const start = (n: number) =>
    client.startAutoLabel({
      projectId: DEMO_PROJECT_ID,
      labelerEmail: 'ann@example.com',
      options: { numberOfFilesPerRequest: n },
      targetAPI: { endpoint: model.url, secretKey: SECRET },
    });

  it.each([
    [0, lineCounts.length],
    [1, lineCounts.reduce((a, b) => a + b, 0)],
    [2, lineCounts.reduce((a, n) => a + Math.ceil(n / 2), 0)],
    [4, lineCounts.reduce((a, n) => a + Math.ceil(n / 4), 0)],
  ])('sends %i line(s) per request as %i model requests', async (n, expected) => {
    const job = await start(n);
    expect(job.status).toBe('QUEUED');
    const outcome = await client.waitForJob(job.id);
    expect(outcome.outcome).toBe('delivered');
    expect(model.requests).toHaveLength(expected);
    for (const r of model.requests) {
      expect(r.documents).toHaveLength(1);
      if (n > 0) expect(r.documents[0]!.sentences.length).toBeLessThanOrEqual(n);
    }
    expect(model.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('moves progress forward only, ends at 100, and stores exactly the predictions', async () => {
    const job = await start(1);
    const seen: number[] = [];
    const outcome = await client.waitForJob(job.id, { onProgress: (j) => seen.push(j.progress) });
    expect(outcome).toMatchObject({ outcome: 'delivered', job: { progress: 100, errors: [] } });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);

    const res = await fetch(`${emu.baseUrl}/emulator/projects/${DEMO_PROJECT_ID}/labels`, { headers: { authorization: `Bearer ${emu.token}` } });
    const stored = (await res.json()) as { copies: { labelerEmail: string; documents: { id: string; lines: { id: number; entities: unknown[] }[] }[] }[] };
    expect(stored.copies.map((c) => c.labelerEmail)).toEqual(['ann@example.com']);
    const predict = createSampleModel();
    const project = demoProject();
    for (const doc of stored.copies[0]!.documents) {
      const lines = project.documents.find((d) => d.id === doc.id)!.lines;
      const expected = predict({ id: project.id, name: project.name, documents: [{ id: doc.id, sentences: lines.map((text, id) => ({ id, text })) }] }) as SpanResponse;
      expect(doc.lines.map((l) => l.entities)).toEqual(expected.documents[0]!.labels.map((l) => l.entities));
    }
    expect(stored.copies[0]!.documents.flatMap((d) => d.lines.flatMap((l) => l.entities)).length).toBeGreaterThan(5);
  });

  it('retries a batch after a 500 and stores its labels once', async () => {
    model.script.push({ status: 500 });
    const job = await start(0);
    expect((await client.waitForJob(job.id)).outcome).toBe('delivered');
    expect(model.requests).toHaveLength(lineCounts.length + 1);
    const copies = emu.emulator.store.labelsOf(DEMO_PROJECT_ID);
    const doc1 = copies[0]!.documents.find((d) => d.id === model.requests[0]!.documents[0]!.id)!;
    expect(doc1.lines.map((l) => l.id)).toEqual([...new Set(doc1.lines.map((l) => l.id))]);
  });

  it.each([
    ['answers 500 every time', () => Array(6).fill({ status: 500 }), /batch \d .*the model answered HTTP 500 \(after 2 attempts\)/],
    ['times out', () => Array(6).fill({ hangMs: 1_000 }), /did not answer within 300 ms/],
    ['answers malformed JSON', () => [{ status: 200, body: '{not json' }], /malformed JSON/],
    [
      'answers an unknown label',
      () => [(r: { id: string; documents: { id: string }[] }) => ({ id: r.id, documents: [{ id: r.documents[0]!.id, labels: [{ id: 0, entities: [{ label: 'ALIEN', start_char: 0, end_char: 3 }] }] }] })],
      /label "ALIEN", which is in none of the project's label sets/,
    ],
    [
      'answers an offset outside the line',
      () => [(r: { id: string; documents: { id: string }[] }) => ({ id: r.id, documents: [{ id: r.documents[0]!.id, labels: [{ id: 0, entities: [{ label: 'PERSON', start_char: 0, end_char: 999 }] }] }] })],
      /start_char\/end_char must satisfy/,
    ],
  ])('fails the job with a JobError when the model %s', async (_name, script, pattern) => {
    model.script.push(...(script() as StubModel['script']));
    const job = await start(0);
    const outcome = await client.waitForJob(job.id);
    expect(outcome.outcome).toBe('failed');
    if (outcome.outcome !== 'failed') return;
    expect(outcome.errors.map((e) => e.stack).join('\n')).toMatch(pattern);
    expect(JSON.stringify(outcome.job)).not.toContain(SECRET);
  });

  it('sends the secret only as the Bearer header of model requests', async () => {
    const job = await start(0);
    await client.waitForJob(job.id);
    expect(JSON.stringify(model.requests)).not.toContain(SECRET);
  });
});
