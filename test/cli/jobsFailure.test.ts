import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startStubModel } from '../support/stubModel.js';
import type { StubModel } from '../support/stubModel.js';
import { argv, fakeIo } from '../support/fakeIo.js';

// Item 3 of issue 19: a job whose model is unreachable showed "FAILED 99%". Progress counts the
// batches whose labels were stored, and `labelkit jobs` says what failed next to it. Everything
// runs over HTTP on 127.0.0.1: the emulator, the CLI's client, and the model (or no model).
const SECRET = 'SENTINEL-model-secret-7c1f';
// The demo project: 4 documents of 3, 5, 4 and 7 lines.
const DOCS = 4;
const LINES = 19;

let emu: RunningEmulator;
let stopping: RunningEmulator;
let model: StubModel;
let unreachable: string;

beforeAll(async () => {
  emu = await startEmulator({ model: { retries: 0 } });
  stopping = await startEmulator({ model: { retries: 0, concurrency: 1, maxFailedBatches: 3 } });
  // Fails every request about doc-2, labels the others.
  model = await startStubModel((req) => (req.documents[0]!.id === 'doc-2' ? { kind: 'status', status: 500 } : { kind: 'predict' }));
  // A port nothing listens on: taken, then freed.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  unreachable = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/`;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await emu?.close();
  await stopping?.close();
  await model?.close();
});

/** Starts a job with `labelkit auto-label` and waits (on the store) until it has ended. */
async function failedJob(on: RunningEmulator, endpoint: string, filesPerRequest: number) {
  const io = fakeIo({ LABELKIT_URL: on.url, LABELKIT_TOKEN: on.token, LABELKIT_MODEL_SECRET: SECRET });
  expect(await main(argv('auto-label', '--project', DEMO_PROJECT_ID, '--labeler-email', 'a@example.com', '--endpoint', endpoint, '--files-per-request', String(filesPerRequest)), io)).toBe(0);
  const jobId = io.out().trim();
  const job = on.emulator.store.jobs.get(jobId)!;
  await expect.poll(() => job.status, { timeout: 10_000 }).toBe('FAILED');
  return job;
}

/** Runs `labelkit jobs <id> [more…]` against an emulator. */
async function jobsLine(on: RunningEmulator, jobId: string, ...more: string[]) {
  const io = fakeIo({ LABELKIT_URL: on.url, LABELKIT_TOKEN: on.token });
  const code = await main(argv('jobs', jobId, ...more), io);
  return { code, out: io.out(), err: io.err() };
}

describe('a failed job’s progress and its line in labelkit jobs', () => {
  it('shows 0% and says every batch failed, and what, when the model is unreachable', async () => {
    const job = await failedJob(emu, unreachable, 0);
    expect(job.progress).toBe(0);
    const { code, out, err } = await jobsLine(emu, job.id);
    expect(code).toBe(5);
    expect(out.split('\n')).toEqual([expect.stringMatching(new RegExp(`^${job.id} FAILED 0% \\(${DOCS} of ${DOCS} batches failed: document "doc-1" lines 0-2: .*could not be reached.*ECONNREFUSED`)), '']);
    expect(err).toBe('');
    expect(out).not.toContain('SENTINEL');
  });

  it('counts only the batches whose labels were stored when some fail', async () => {
    const job = await failedJob(emu, model.url, 0);
    expect(job.progress).toBe(75); // 3 of 4 documents labelled
    const { code, out } = await jobsLine(emu, job.id);
    expect(code).toBe(5);
    expect(out).toBe(`${job.id} FAILED 75% (1 of ${DOCS} batches failed: document "doc-2" lines 0-4: the model answered HTTP 500)\n`);
  });

  it('says how many batches were not sent when the job stopped early, in the --wait outcome too', async () => {
    const job = await failedJob(stopping, unreachable, 1);
    expect(job.progress).toBe(0);
    const first = 'document "doc-1" lines 0-0: the model could not be reached (ECONNREFUSED)';
    expect((await jobsLine(stopping, job.id)).out).toBe(`${job.id} FAILED 0% (3 of ${LINES} batches failed, ${LINES - 3} not sent: ${first})\n`);
    const waited = await jobsLine(stopping, job.id, '--wait', '--interval', '20ms');
    expect(waited.code).toBe(5);
    expect(waited.out).toBe(`${job.id} FAILED 0%: 3 of ${LINES} batches failed, ${LINES - 3} not sent: ${first} (${job.errors.length} errors)\n`);
  });
});
