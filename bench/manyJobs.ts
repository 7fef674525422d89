import { createLabelingClient, startAutoLabel, waitForJobs } from '../src/client/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { createModelHandler, createSampleModel, serveFetchHandler } from '../src/model/index.js';
import { smoke } from './support/stats.js';
import type { Figure } from './support/stats.js';

const SECRET = 'bench-secret';

/**
 * 3. Many jobs: waiting on N jobs that end at different times (a slow model behind the emulator's
 * bounded concurrency), with labelkit's shared poller vs a naive loop polling each job on its own.
 */
export async function manyJobs(): Promise<Figure[]> {
  const jobs = smoke ? 40 : 200;
  const intervalMs = 100;
  const emu = await startEmulator({ demoProject: false, model: { concurrency: 8, timeoutMs: 10_000 } });
  for (let i = 0; i < jobs; i++) {
    emu.emulator.store.addProject({
      id: `p${i}`,
      labelSets: [{ name: 'E', labels: [{ id: 'p', name: 'PERSON' }] }],
      documents: [{ id: 'd', lines: [`Ada Lovelace, line ${i}.`] }],
    });
  }
  const sample = createSampleModel({ terms: { PERSON: ['Ada Lovelace'] } });
  const handler = createModelHandler(async (req) => {
    await new Promise((r) => setTimeout(r, 20));
    return sample(req);
  }, { secretKey: SECRET });
  const model = await serveFetchHandler(handler, 0, '127.0.0.1');

  let requests = 0;
  const countingFetch: typeof fetch = (input, init) => {
    requests++;
    return fetch(input, init);
  };
  const starter = createLabelingClient({ url: emu.url, token: emu.token });
  const startAll = () =>
    Promise.all(
      Array.from({ length: jobs }, (_, i) =>
        startAutoLabel(starter, {
          projectId: `p${i}`,
          labelerEmail: 'bench@example.com',
          options: { numberOfFilesPerRequest: 0 },
          targetAPI: { endpoint: `${model.url}/`, secretKey: SECRET },
        }),
      ),
    );

  // labelkit: one shared getJobs request per tick.
  let ids = (await startAll()).map((j) => j.id);
  const waiter = createLabelingClient({ url: emu.url, token: emu.token, fetch: countingFetch, poll: { intervalMs, maxIntervalMs: intervalMs } });
  requests = 0;
  let t = performance.now();
  const outcomes = await waitForJobs(waiter, ids, { timeoutMs: 120_000 });
  const sharedMs = performance.now() - t;
  const sharedRequests = requests;
  const delivered = outcomes.filter((o) => o.outcome === 'delivered').length;
  waiter.close();

  // Naive: every job polled on its own with getJob, same interval.
  ids = (await startAll()).map((j) => j.id);
  const query = 'query GetJob($jobId: String!) { getJob(jobId: $jobId) { id status progress } }';
  requests = 0;
  t = performance.now();
  await Promise.all(
    ids.map(async (jobId) => {
      for (;;) {
        const res = await countingFetch(emu.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.token}` },
          body: JSON.stringify({ operationName: 'GetJob', query, variables: { jobId } }),
        });
        const body = (await res.json()) as { data: { getJob: { status: string } | null } };
        const status = body.data.getJob?.status;
        if (status === 'DELIVERED' || status === 'FAILED') return;
        await new Promise((r) => setTimeout(r, intervalMs));
      }
    }),
  );
  const naiveMs = performance.now() - t;
  const naiveRequests = requests;

  starter.close();
  await model.close();
  await emu.close();
  const ticks = Math.ceil(sharedMs / intervalMs) + 1;
  return [
    { bench: 'many jobs', name: `${jobs} jobs delivered (labelkit)`, value: delivered, unit: 'jobs' },
    { bench: 'many jobs', name: 'labelkit waitForJobs: HTTP requests', value: sharedRequests, unit: 'req', goal: `≤ 1 per interval (${ticks} intervals)`, met: sharedRequests <= ticks },
    { bench: 'many jobs', name: 'labelkit waitForJobs: wall time', value: sharedMs, unit: 'ms' },
    { bench: 'many jobs', name: 'naive per-job polling: HTTP requests', value: naiveRequests, unit: 'req' },
    { bench: 'many jobs', name: 'naive per-job polling: wall time', value: naiveMs, unit: 'ms' },
  ];
}
