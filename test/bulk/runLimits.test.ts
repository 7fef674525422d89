import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { autoLabelMany, createMemoryJournal, openFileJournal } from '../../src/bulk/index.js';
import type { ManyEvent, RunLimits } from '../../src/bulk/index.js';
import { LeaseGate, localLimits } from '../../src/bulk/runLimits.js';
import { createLabelingClient, ValidationError } from '../../src/client/index.js';
import type { AutoLabelInput, LabelingClient } from '../../src/client/index.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { startCountingService } from '../support/countingService.js';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';

/** The CLI in this process (no process started: this file stays in the quick tier). */
async function runMain(args: string[], env: Record<string, string>) {
  const io = fakeIo(env);
  const code = await main(argv(...args), io);
  return { code, stdout: io.out(), stderr: io.err() };
}
import type { CountingService } from '../support/countingService.js';

// The run's limits on a journal one process holds alone (memory, file): the same limits, held in
// the process, over real HTTP against the emulator, whose own count of jobs in flight judges.
const tempDir = useTempDirs();
const SECRET = 'SENTINEL-limits-secret-21c4';
let service: CountingService;
let model: RunningModelServer;
let client: LabelingClient;

beforeAll(async () => {
  service = await startCountingService({ demoProject: false, demoProjects: 40, model: { concurrency: 16, retries: 0 } });
  // Each answer 30 ms late: jobs overlap, so 8 starters would run up to 8 at once.
  const sample = createSampleModel();
  model = await startModelServer({ secretKey: SECRET, predict: async (request) => (await new Promise((r) => setTimeout(r, 30)), sample(request)) });
});
afterAll(async () => {
  await service?.close();
  await model?.close();
});
afterEach(() => client?.close());

const newClient = () => (client = createLabelingClient({ url: service.url, token: service.token, poll: { intervalMs: 20, maxIntervalMs: 50 } }));
const input = (projectId: string): AutoLabelInput => ({
  projectId,
  labelerEmail: 'limits@example.com',
  options: { numberOfFilesPerRequest: 1 },
  targetAPI: { endpoint: model.url, secretKey: SECRET },
});
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => demoProjectId(from + k));

describe('the run limits of a journal one process holds', () => {
  it('maxRunning holds the jobs in flight at the emulator at most K with a memory journal and with a file journal, and tells the live count', async () => {
    for (const [journal, projects] of [
      [createMemoryJournal(), ids(1, 16)],
      [openFileJournal(join(tempDir('labelkit-limits-'), 'run.ndjson')), ids(17, 32)],
    ] as const) {
      service.emulator.resetJobsPeak();
      const events: ManyEvent[] = [];
      const result = await autoLabelMany(newClient(), projects.map(input), { journal, concurrency: 8, maxRunning: 2, onEvent: (e) => events.push(e) });
      expect(result.outcomes.map((o) => o.outcome)).toEqual(projects.map(() => 'delivered'));
      expect(service.emulator.jobsInFlight().peak).toBe(2);
      const counts = events.flatMap((e) => (e.event === 'running' ? [e.running] : []));
      expect(Math.max(...counts)).toBe(2);
      expect(counts.at(-1)).toBe(0);
      expect(events.every((e) => e.event !== 'running' || e.maxRunning === 2)).toBe(true);
      expect(result.limits).toEqual({ maxRunning: 2, running: 0 });
      client.close();
    }
    // Without the limit the same run has more than 2 in flight at once (what the limit holds back).
    service.emulator.resetJobsPeak();
    await autoLabelMany(newClient(), ids(33, 40).map(input), { journal: createMemoryJournal(), concurrency: 8 });
    expect(service.emulator.jobsInFlight().peak).toBeGreaterThan(2);
  });

  it('hands the lease of a job whose end it saw to its next start in one step, not a give and a take; gives the last one back', async () => {
    const inner = localLimits({ maxRunning: 1 });
    const calls = { taken: 0, give: 0, handOver: 0 };
    const limits: RunLimits = {
      ...inner,
      take: async (projectId) => {
        const result = await inner.take(projectId);
        if (result.taken) calls.taken++;
        return result;
      },
      give: async (projectId) => (calls.give++, inner.give(projectId)),
      handOver: async (from, to) => (calls.handOver++, inner.handOver!(from, to)),
    };
    const projects = ids(1, 6);
    service.emulator.resetJobsPeak();
    // Three starters, one lease: two always wait for it while projects are left.
    const result = await autoLabelMany(newClient(), projects.map(input), { journal: { ...createMemoryJournal(), limits }, concurrency: 3, maxRunning: 1 });
    expect(result.outcomes.map((o) => o.outcome)).toEqual(projects.map(() => 'delivered'));
    expect(service.emulator.jobsInFlight().peak).toBe(1);
    // Before: a give and a take for each of the six jobs.
    expect(calls).toEqual({ taken: 1, handOver: 5, give: 1 });
    expect(await inner.running()).toBe(0);
  });

  it('polls a job that holds a lease at the first interval: the poll does not grow while nothing changes (its end is seen late otherwise)', async () => {
    // One job of 2.5 s; the client's poll from 20 ms, growing by half up to 5 s while nothing changes.
    const sample = createSampleModel();
    const slow = await startModelServer({ secretKey: SECRET, predict: async (request) => (await new Promise((r) => setTimeout(r, 2500)), sample(request)) });
    const c = (client = createLabelingClient({ url: service.url, token: service.token, poll: { intervalMs: 20, maxIntervalMs: 5000 } }));
    try {
      const before = service.requests.length;
      const result = await autoLabelMany(c, [{ ...input(demoProjectId(1)), targetAPI: { endpoint: slow.url, secretKey: SECRET } }], { journal: createMemoryJournal(), maxRunning: 1 });
      expect(result.outcomes.map((o) => o.outcome)).toEqual(['delivered']);
      const polls = service.requests.slice(before).filter((r) => r.operationName === 'GetJobs').length;
      // Growing (20, 30, 45, … ms) the poll asks 11 or 12 times in 2.5 s; at 20 ms (plus each answer's time) some 30 to 100.
      expect(polls).toBeGreaterThanOrEqual(24);
    } finally {
      await slow.close();
    }
  });

  it('asks again at once for a lease given back while its take was on its way (not after the poll interval)', async () => {
    const inner = localLimits({ maxRunning: 1 });
    let onItsWay: (() => void) | undefined;
    // The second take reads the run full, and answers only once the first lease has been given back meanwhile.
    let takes = 0;
    const limits: RunLimits = {
      ...inner,
      take: async (projectId) => {
        if (++takes !== 2) return inner.take(projectId);
        const seen = await inner.take(projectId);
        await new Promise<void>((resolve) => (onItsWay = resolve));
        return seen;
      },
    };
    // An hour between asks: only the give seen meanwhile can end the second wait in this test's time.
    const gate = new LeaseGate(limits, 3_600_000, undefined, () => undefined);
    expect(await gate.acquire('a')).toBe(true);
    const second = gate.acquire('b');
    await vi.waitFor(() => expect(onItsWay).toBeDefined());
    await gate.release('a');
    onItsWay!();
    expect(await second).toBe(true);
    expect(await inner.running()).toBe(1);
  });

  it('maxStartsPerMinute paces the starts of a memory journal\'s run by the bucket in its process: counted at the emulator', async () => {
    const jobsBefore = new Set(service.emulator.store.jobs.keys());
    const result = await autoLabelMany(newClient(), ids(1, 8).map(input), { journal: createMemoryJournal(), concurrency: 8, maxStartsPerMinute: 120 });
    expect(result.outcomes.map((o) => o.outcome)).toEqual(ids(1, 8).map(() => 'delivered'));
    expect(result.limits).toEqual({ maxStartsPerMinute: 120 });
    const created = Array.from(service.emulator.store.jobs.values()).filter((j) => !jobsBefore.has(j.id)).map((j) => Date.parse(j.createdAt)).sort((x, y) => x - y);
    // In any 1-second window: the bucket's 2, plus 2 refilled, plus one for a start slower on its way than the next.
    let most = 0;
    for (const t0 of created) most = Math.max(most, created.filter((t) => t >= t0 && t < t0 + 1000).length);
    expect(created.length).toBe(8);
    expect(most).toBeLessThanOrEqual(5);
  });

  it('refuses a bad maxRunning or maxStartsPerMinute, and maxRunning without wait, every problem at once, before anything is sent', async () => {
    const before = service.requests.length;
    const error = await autoLabelMany(newClient(), [input(demoProjectId(1))], { maxRunning: 0, maxStartsPerMinute: 1.5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).problems).toEqual([
      { path: 'options.maxRunning', message: 'must be an integer from 1 to 100000' },
      { path: 'options.maxStartsPerMinute', message: 'must be an integer from 1 to 1000000' },
    ]);
    const noWait = await autoLabelMany(newClient(), [input(demoProjectId(1))], { maxRunning: 3, wait: false }).catch((e: unknown) => e);
    expect((noWait as ValidationError).problems).toEqual([{ path: 'options.maxRunning', message: 'needs wait: a job holds its lease until the run sees it end' }]);
    expect(service.requests.length).toBe(before);
  });

  it('is --max-running and --max-starts-per-minute in the CLI: checked where they enter (every problem at once, nothing sent), the live count in the lines, the dry run and --json', async () => {
    const dir = tempDir('labelkit-limits-cli-');
    const env = { LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: SECRET };
    const base = ['auto-label', '--labeler-email', 'limits@example.com', '--endpoint', model.url, '--files-per-request', '1', '--interval', '20ms'];
    const before = service.requests.length;
    const bad = await runMain([...base, '--project', demoProjectId(1), '--project', demoProjectId(2), '--max-running', '0', '--max-starts-per-minute', 'ten', '--wait'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-running: must be an integer from 1 to 100000 (jobs running at once across every worker of the run)');
    expect(bad.stderr).toContain('--max-starts-per-minute: must be an integer from 1 to 1000000 (starts a minute across every worker of the run)');
    const noWait = await runMain([...base, '--project', demoProjectId(1), '--project', demoProjectId(2), '--max-running', '2'], env);
    expect(noWait.code).toBe(2);
    expect(noWait.stderr).toContain('--max-running: needs --wait: a job counts as running until the run sees it end');
    expect(service.requests.length).toBe(before);

    const journal = join(dir, 'run.ndjson');
    const args = [...base, '--journal', journal, '--concurrency', '6', '--max-running', '2', '--wait', ...ids(1, 8).flatMap((p) => ['--project', p])];
    const plan = await runMain([...args, '--dry-run'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain("labelkit: running 0/2 across the run's workers now (--max-running 2)");
    service.emulator.resetJobsPeak();
    const run = await runMain(args, env);
    expect(run.code, run.stderr).toBe(0);
    expect(service.emulator.jobsInFlight().peak).toBeLessThanOrEqual(2);
    expect(run.stderr).toMatch(/^project demo-project-\d+ started job \S+ \(running [12]\/2\)$/m);
    const json = await runMain([...base, '--concurrency', '6', '--max-running', '3', '--wait', '--json', ...ids(9, 14).flatMap((p) => ['--project', p])], env);
    expect(json.code, json.stderr).toBe(0);
    const events = json.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { event: string; running?: number; maxRunning?: number; limits?: unknown });
    const counts = events.filter((e) => e.event === 'running');
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.every((e) => e.maxRunning === 3 && e.running! <= 3)).toBe(true);
    expect(events.find((e) => e.event === 'summary')?.limits).toEqual({ maxRunning: 3, running: 0 });
  });
});
