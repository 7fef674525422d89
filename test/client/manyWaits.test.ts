import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, waitForJob } from '../../src/client/index.js';
import { createJobPoller } from '../../src/client/jobPoller.js';
import { JOB_POLL_CHUNK } from '../../src/shared/constants.js';
import { startCountingService } from '../support/countingService.js';
import type { CountingService } from '../support/countingService.js';

// Many waits on one client, each registered alone (as a many-project run registers its jobs'
// waits), then asked about in chunks.
describe('the shared job poll with many waits', () => {
  let service: CountingService;
  beforeAll(async () => {
    service = await startCountingService({ demoProject: false });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('registers 40,000 waits one by one without a scan of every waiter so far (before: 58.8 CPU-s, quadratic)', async () => {
    const asked: number[] = [];
    const poller = createJobPoller(async (ids) => (asked.push(ids.length), ids.map(() => null)), { intervalMs: 1_000 });
    const waits = Array.from({ length: 40_000 }, (_, i) => poller.waitAll([`job-${i}`], { notFoundGraceMs: 0 }));
    const outcomes = (await Promise.all(waits)).flat();
    expect(outcomes.filter((o) => o.outcome === 'not-found')).toHaveLength(40_000);
    expect(asked).toEqual(Array(40_000 / JOB_POLL_CHUNK.ids).fill(JOB_POLL_CHUNK.ids));
    poller.close();
  });

  it('polls 10,000 jobs over HTTP in chunks within the request size limit (before: one request of every id, over 1 MiB near 96,000)', async () => {
    const client = createLabelingClient({ url: service.url, token: service.token, poll: { intervalMs: 1_000 } });
    try {
      const ids = Array.from({ length: 10_000 }, (_, i) => `job-missing-${i}`);
      const outcomes = await Promise.all(ids.map((id) => waitForJob(client, id, { notFoundGraceMs: 0 })));
      expect(outcomes.every((o) => o.outcome === 'not-found')).toBe(true);
      expect(new Set(outcomes.map((o) => o.jobId)).size).toBe(10_000);
      const polls = service.requests.filter((r) => r.operationName === 'GetJobs');
      expect(polls.map((r) => r.jobIds)).toEqual(Array(10_000 / JOB_POLL_CHUNK.ids).fill(JOB_POLL_CHUNK.ids));
    } finally {
      client.close();
    }
  });
});
