import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, waitForJob } from '../../src/client/index.js';
import type { JobOutcome, LabelingClient } from '../../src/client/index.js';
import { demoProject } from '../../src/emulator/demoProject.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { startStubModel, stubPredict } from '../support/stubModel.js';
import type { SeenRequest, StubBehaviour, StubModel } from '../support/stubModel.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';
import type { SchemaGeneration } from '../../src/shared/schemaGeneration.js';

const SECRET = 'model-secret-SENTINEL-7f3a';
const DOCS = demoProject().documents;
const LINE_COUNTS = DOCS.map((d) => d.lines.length); // [3, 5, 4, 7]
const TOTAL_LINES = LINE_COUNTS.reduce((a, b) => a + b, 0);

let emu: RunningEmulator | undefined;
let model: StubModel | undefined;
let client: LabelingClient | undefined;
/** The schema generation of the current describe.each group. */
let generation: SchemaGeneration = 'tags';

afterEach(async () => {
  client?.close();
  await emu?.close();
  await model?.close();
  emu = model = client = undefined;
});

/** Emulator + stub model + public client, with short time-outs and retry delays. */
async function setUp(behaviour?: StubBehaviour, opts: { delayMs?: number; model?: EmulatorOptions['model'] } = {}) {
  model = await startStubModel(behaviour, opts.delayMs ?? 0);
  emu = await startEmulator({ schemaGeneration: generation, model: { timeoutMs: 2_000, retries: 1, retryDelayMs: 5, concurrency: 4, ...opts.model } });
  client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 5, maxIntervalMs: 20 } });
  return { emu, model, client };
}

async function runJob(n: number, onProgress?: (progress: number) => void, labelerEmail = 'ann@example.com'): Promise<JobOutcome> {
  const job = await startAutoLabel(client!, 
    { projectId: DEMO_PROJECT_ID, labelerEmail, options: { numberOfFilesPerRequest: n, serviceProvider: 'CUSTOM' }, targetAPI: { endpoint: model!.url, secretKey: SECRET } },
    { allowInsecureEndpoint: true },
  );
  expect(job).toMatchObject({ status: 'QUEUED', progress: 0 });
  return waitForJob(client!, job.id, { timeoutMs: 20_000, ...(onProgress && { onProgress: (j) => onProgress(j.progress) }) });
}

/** The labels stored on ann's copy, read over HTTP from the emulator-only route. */
async function storedLabels() {
  const res = await fetch(`${emu!.baseUrl}/emulator/projects/${DEMO_PROJECT_ID}/labels`, { headers: { authorization: `Bearer ${emu!.token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { copies: { labelerEmail: string; role: string; documents: { id: string; lines: { id: number; entities: unknown[] }[] }[] }[] };
  return body.copies.filter((c) => c.role === 'LABELER'); // the reviewer copy holds the demo project's gold labels
}

/** The whole demo project's predictions of the stub, per document, as stored (layer defaulted). */
const expectedLabels = () =>
  DOCS.map((doc) => ({
    id: doc.id,
    lines: stubPredict({ id: DEMO_PROJECT_ID, name: '', documents: [{ id: doc.id, sentences: doc.lines.map((text, id) => ({ id, text })) }] }).documents[0]!.labels.map((l) => ({
      id: l.id,
      entities: l.entities.map((e) => ({ ...e, layer: 0 })),
    })),
  }));

describe.each(SCHEMA_GENERATIONS)('with the emulator speaking the %s schema', (schemaGeneration) => {
  beforeAll(() => {
    generation = schemaGeneration;
  });

  describe('startEmulator batching (numberOfFilesPerRequest)', () => {
    it.each([
      [0, LINE_COUNTS.length],
      [1, TOTAL_LINES],
      [2, LINE_COUNTS.reduce((a, n) => a + Math.ceil(n / 2), 0)], // 2 + 3 + 2 + 4: odd documents end with one line
      [3, LINE_COUNTS.reduce((a, n) => a + Math.ceil(n / 3), 0)], // 1 + 2 + 2 + 3
      [50, LINE_COUNTS.length],
    ])('sends %i line(s) per request as %i model requests covering every line once', async (n, expected) => {
      await setUp();
      const outcome = await runJob(n);
      expect(outcome.outcome).toBe('delivered');
      expect(model!.requests).toHaveLength(expected);
      for (const doc of DOCS) {
        const batches = model!.requests.filter((r) => r.documents[0]!.id === doc.id).map((r) => r.documents[0]!.sentences);
        for (const b of batches) {
          expect(b.length).toBeLessThanOrEqual(n === 0 ? doc.lines.length : n);
          expect(b.map((s) => s.text)).toEqual(b.map((s) => doc.lines[s.id]));
        }
        expect(batches.flat().map((s) => s.id).sort((a, b) => a - b)).toEqual(doc.lines.map((_, i) => i));
      }
      for (const r of model!.requests) expect(r).toMatchObject({ id: DEMO_PROJECT_ID, name: 'Demo: news snippets' });
      expect(new Set(model!.authorizations)).toEqual(new Set([`Bearer ${SECRET}`]));
    });
  });

  describe('startEmulator job progress and results', () => {
    it('moves progress forward only and ends DELIVERED at 100 when the model answers well', async () => {
      await setUp(undefined, { delayMs: 5, model: { concurrency: 1 } });
      const seen: number[] = [];
      const outcome = await runJob(1, (p) => seen.push(p));
      expect(outcome).toMatchObject({ outcome: 'delivered', job: { status: 'DELIVERED', progress: 100, errors: [] } });
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen.at(-1)).toBe(100);
      expect(new Set(seen).size).toBeGreaterThan(2); // it moved in steps, not 0 → 100
    });

    it('stores exactly the model predictions on the labeler copy when the job is delivered', async () => {
      await setUp();
      expect((await runJob(2)).outcome).toBe('delivered');
      const copies = await storedLabels();
      expect(copies.map((c) => [c.labelerEmail, c.role])).toEqual([['ann@example.com', 'LABELER']]);
      expect(copies[0]!.documents.map(({ id, lines }) => ({ id, lines: lines.map(({ id: line, entities }) => ({ id: line, entities })) }))).toEqual(expectedLabels());
      expect(copies[0]!.documents.flatMap((d) => d.lines.flatMap((l) => l.entities)).length).toBeGreaterThan(20);
      expect(emu!.emulator.store.labelsOf(DEMO_PROJECT_ID).filter((c) => c.role === 'LABELER')).toEqual(copies.map((c) => ({ ...c, documents: c.documents.map((d) => ({ ...d })) })));
    });

    it('stores each label once when a batch fails once and then succeeds', async () => {
      const failed = new Set<string>();
      await setUp((req) => {
        const doc = req.documents[0]!.id;
        if (failed.has(doc)) return { kind: 'predict' };
        failed.add(doc);
        return { kind: 'status', status: 503 };
      });
      expect((await runJob(0)).outcome).toBe('delivered');
      expect(model!.requests).toHaveLength(LINE_COUNTS.length * 2);
      const copies = await storedLabels();
      expect(copies[0]!.documents.map(({ id, lines }) => ({ id, lines: lines.map(({ id: line, entities }) => ({ id: line, entities })) }))).toEqual(expectedLabels());
    });

    it('stores each label once when the first answer comes too late and the retry answers', async () => {
      // A second's time-out (not 150 ms): at load 20 a quick answer of the retry took longer than 150 ms, was timed out and sent again.
      await setUp((_req, n) => (n === 0 ? { kind: 'hang', ms: 3_000 } : { kind: 'predict' }), { model: { timeoutMs: 1_000, concurrency: 1 } });
      expect((await runJob(0)).outcome).toBe('delivered');
      expect(model!.requests).toHaveLength(LINE_COUNTS.length + 1);
      const copies = await storedLabels();
      expect(copies[0]!.documents.map(({ id, lines }) => ({ id, lines: lines.map(({ id: line, entities }) => ({ id: line, entities })) }))).toEqual(expectedLabels());
    });

    it('keeps at most `concurrency` model requests in flight, also over two jobs at once', async () => {
      await setUp(undefined, { delayMs: 25, model: { concurrency: 3 } });
      // Two labelers, so that each job writes its own copy. (Two identical concurrent calls would
      // work as well: the client sends and answers each one, see test/client/request.test.ts.)
      const outcomes = await Promise.all([runJob(1), runJob(1, undefined, 'bob@example.com')]);
      expect(outcomes.map((o) => o.outcome)).toEqual(['delivered', 'delivered']);
      expect(model!.requests).toHaveLength(TOTAL_LINES * 2);
      expect(model!.maxInFlight).toBe(3);
    });
  });

  describe('startEmulator model failures', () => {
    const unknownLabel: StubBehaviour = (req) => ({
      kind: 'json',
      body: { id: req.id, documents: [{ id: req.documents[0]!.id, labels: [{ id: req.documents[0]!.sentences[0]!.id, entities: [{ label: 'ALIEN', start_char: 0, end_char: 2 }] }] }] },
    });
    const outsideLine: StubBehaviour = (req) => {
      const s = req.documents[0]!.sentences[0]!;
      return { kind: 'json', body: { id: req.id, documents: [{ id: req.documents[0]!.id, labels: [{ id: s.id, entities: [{ label: 'person', start_char: 0, end_char: s.text.length + 1 }] }] }] } };
    };
    const wrongDocument: StubBehaviour = (req) => ({ kind: 'json', body: { id: req.id, documents: [{ id: 'not-asked', labels: [] }] } });

    it.each<[string, StubBehaviour, RegExp, number]>([
      ['answers 500 every time', () => ({ kind: 'status', status: 500 }), /lines 0-2: the model answered HTTP 500 \(after 2 attempts\)/, 2],
      ['times out', () => ({ kind: 'hang', ms: 4_000 }), /the model did not answer within 1000 ms \(after 2 attempts\)/, 2],
      ['drops the connection', () => ({ kind: 'drop' }), /the model could not be reached.*\(after 2 attempts\)/, 2],
      ['answers malformed JSON', () => ({ kind: 'status', status: 200, body: '{"id": "demo-project", "documents": [' }), /malformed JSON/, 1],
      ['answers 400', () => ({ kind: 'status', status: 400, body: 'bad request' }), /the model answered HTTP 400: bad request/, 1],
      ['answers an unknown label', unknownLabel, /label "ALIEN" is not a span label of the project's label sets/, 1],
      ['answers an offset outside the line', outsideLine, /start_char\/end_char must satisfy 0 <= start_char < end_char <= \d+ \(the line's length\) as integers, got start_char=0 end_char=\d+/, 1],
      ['answers a document it was not asked for', wrongDocument, /must be a document id of the request, got "not-asked"/, 1],
    ])('ends FAILED with a JobError naming the batch when the model %s', async (name, behaviour, pattern, attemptsPerBatch) => {
      // A shorter time-out only where the time-out is the point: on a loaded machine a quick wrong
      // answer can take longer than it, and its time-out would be retried. A second, not 150 ms: at
      // load 20 a 150 ms time-out ended some requests before they reached the model, which counts them.
      await setUp(behaviour, { model: { timeoutMs: name === 'times out' ? 1_000 : 5_000, maxFailedBatches: 100 } });
      const outcome = await runJob(0);
      expect(outcome.outcome).toBe('failed');
      if (outcome.outcome !== 'failed') return;
      expect(outcome.job.status).toBe('FAILED');
      expect(outcome.errors.length).toBeGreaterThanOrEqual(LINE_COUNTS.length);
      expect(outcome.errors.map((e) => e.stack).join('\n')).toMatch(pattern);
      expect(outcome.errors[0]!.args).toMatchObject({ documentId: expect.any(String), firstLine: 0 });
      expect(model!.requests).toHaveLength(LINE_COUNTS.length * attemptsPerBatch);
      // Nothing of a failed batch is stored: never a partial or silently filtered answer.
      expect((await storedLabels()).flatMap((c) => c.documents.flatMap((d) => d.lines))).toEqual([]);
    });

    it('stops sending after maxFailedBatches failed batches and says how many were not sent', async () => {
      await setUp(() => ({ kind: 'status', status: 422 }), { model: { concurrency: 1, maxFailedBatches: 3 } });
      const outcome = await runJob(1);
      expect(outcome.outcome).toBe('failed');
      expect(model!.requests).toHaveLength(3);
      expect(outcome.job?.errors.at(-1)?.stack).toBe(`the job stopped after 3 failed model requests; ${TOTAL_LINES - 3} were not sent`);
    });

    it('keeps the secret out of job errors when the model echoes it back', async () => {
      const echo: StubBehaviour = (req: SeenRequest, n, authorization) =>
        n % 2 === 0
          ? { kind: 'status', status: 401, body: `rejected ${authorization}` }
          : { kind: 'json', body: { id: req.id, documents: [{ id: req.documents[0]!.id, labels: [{ id: 0, entities: [{ label: authorization, start_char: 0, end_char: 1 }] }] }] } };
      await setUp(echo, { model: { maxFailedBatches: 100 } });
      const outcome = await runJob(0);
      expect(outcome.outcome).toBe('failed');
      expect(model!.authorizations[0]).toBe(`Bearer ${SECRET}`); // the model did get it, as Bearer
      const text = JSON.stringify(outcome);
      expect(text).toContain('Bearer ***'); // the shared redactor's mark
      expect(text).not.toContain(SECRET);
      expect(JSON.stringify(emu!.emulator.store.jobs.get(outcome.jobId))).not.toContain(SECRET);
      expect(JSON.stringify(model!.requests)).not.toContain(SECRET); // only in the header, never in the body
    });
  });
});
