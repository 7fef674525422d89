import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';
import { autoLabelMany, createMemoryJournal } from '../../src/bulk/index.js';
import { main } from '../../src/cli/main.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { startCountingService } from '../support/countingService.js';
import type { CountingService } from '../support/countingService.js';
import { argv, fakeIo } from '../support/fakeIo.js';

// Issue 39: on a starved CPU, starts passed the client's fixed 30 s time-out and runs that were only
// slow ended with unknown projects. A start's answer is now waited for up to --start-timeout
// (startTimeoutMs, default 5 minutes), whatever the client's own time-out; one given up stays
// unknown and is never sent again.
const SECRET = 'SENTINEL-start-timeout-secret-1f';
let service: CountingService;
let model: RunningModelServer;

beforeAll(async () => {
  service = await startCountingService({ demoProject: false, demoProjects: 10, model: { concurrency: 8, retries: 0 } });
  model = await startModelServer({ secretKey: SECRET });
});
afterAll(async () => {
  await service?.close();
  await model?.close();
});

const env = () => ({ LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: SECRET });
const input = (n: number) => ({ projectId: demoProjectId(n), labelerEmail: 'slow@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: model.url, secretKey: SECRET } });

describe('the wait for a start', () => {
  it("is not the client's own time-out: a start slower than it is delivered, not unknown", async () => {
    // A client whose calls give up after 300 ms (as the CLI's 30 s on a starved machine), a start that answers after 800 ms.
    const client = createLabelingClient({ url: service.url, token: service.token, timeoutMs: 300, poll: { intervalMs: 20 } });
    service.mutationDelayMs = 800;
    try {
      const { outcomes } = await autoLabelMany(client, [input(1)], { journal: createMemoryJournal() });
      expect(outcomes.map((o) => o.outcome)).toEqual(['delivered']);
    } finally {
      service.mutationDelayMs = 0;
      client.close();
    }
    expect(service.jobsStarted.get(demoProjectId(1))).toBe(1);
  });

  it('refuses a startTimeoutMs out of range before anything is sent', async () => {
    const client = createLabelingClient({ url: service.url, token: service.token });
    const requests = service.requests.length;
    try {
      await expect(autoLabelMany(client, [input(2)], { startTimeoutMs: 10 })).rejects.toMatchObject({
        code: 'VALIDATION',
        problems: [{ path: 'options.startTimeoutMs', message: 'must be an integer from 1000 to 3600000 (ms)' }],
      });
    } finally {
      client.close();
    }
    expect(service.requests.length).toBe(requests);
  });

  it('is --start-timeout in the CLI: checked where it enters, and a start given up is unknown, said so, and not sent again', async () => {
    const base = ['auto-label', '--labeler-email', 'slow@example.com', '--endpoint', model.url, '--files-per-request', '0', '--interval', '20ms', '--wait'];
    const bad = fakeIo(env());
    expect(await main(argv(...base, '--project', demoProjectId(3), '--project', demoProjectId(4), '--start-timeout', '500ms'), bad)).toBe(2);
    expect(bad.err()).toContain('--start-timeout: must be a duration from 1s to 60m, such as 5m');
    const tooLong = fakeIo(env());
    expect(await main(argv(...base, '--project', demoProjectId(3), '--start-timeout', '2h'), tooLong)).toBe(2);
    expect(tooLong.err()).toContain('--start-timeout: must be a duration from 1s to 60m');

    service.mutationDelayMs = 1_800;
    const slow = fakeIo(env());
    let code: number;
    try {
      code = await main(argv(...base, '--project', demoProjectId(5), '--project', demoProjectId(6), '--start-timeout', '1s'), slow);
    } finally {
      service.mutationDelayMs = 0;
    }
    expect(code, slow.err()).toBe(5);
    for (const p of [5, 6].map(demoProjectId)) {
      expect(slow.out()).toMatch(new RegExp(`^${p}\\s+-\\s+outcome-unknown\\s+no answer to its start within 1s \\(--start-timeout\\): a job may have started$`, 'm'));
    }
    // The service did start them (the answer came late): one job each, never a second.
    await new Promise((r) => setTimeout(r, 1_500));
    expect([5, 6].map((n) => service.jobsStarted.get(demoProjectId(n)) ?? 0)).toEqual([1, 1]);
  });
});
