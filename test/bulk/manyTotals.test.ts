import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresJournal } from '../../src/bulk/index.js';
import { main } from '../../src/cli/main.js';
import { demoProjectId } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { startCountingService } from '../support/countingService.js';
import type { CountingService } from '../support/countingService.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { startTestPostgres } from '../support/postgres.js';

// Issue 44 item 8: after a takeover, each worker's table counts what it did (a job another worker
// started and left is "taken over", not this worker's delivery), and one closing line gives the
// whole run's totals from the journal, each project once.
const pg = await startTestPostgres();
const SECRET = 'SENTINEL-totals-model-secret-5a';
let service: CountingService;
let model: RunningModelServer;

beforeAll(async () => {
  if (pg.skip) return;
  service = await startCountingService({ demoProject: false, demoProjects: 8, model: { concurrency: 8, retries: 0 } });
  model = await startModelServer({ secretKey: SECRET });
});
afterAll(async () => {
  await service?.close();
  await model?.close();
  await pg.close();
});

describe.skipIf(pg.skip !== undefined)(`a many-project run's counts on a shared journal${pg.skip ? ` (skipped: ${pg.skip})` : ''}`, () => {
  it('counts jobs taken over from a worker that stopped apart from its own deliveries, and closes with the run totals from the journal', async () => {
    const env = { LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: SECRET };
    const base = ['auto-label', '--journal', pg.url!, '--journal-name', 'totals', '--labeler-email', 'totals@example.com', '--endpoint', model.url, '--files-per-request', '0', '--interval', '20ms'];
    const first = [1, 2, 3].map(demoProjectId);
    const all = [1, 2, 3, 4, 5].map(demoProjectId);
    // A worker starts three jobs and ends without waiting for them (it stopped).
    const starter = fakeIo(env);
    expect(await main(argv(...base, ...first.flatMap((p) => ['--project', p])), starter), starter.err()).toBe(0);
    // A second worker over all five: it waits for the three (taken over) and starts and waits for two.
    const second = fakeIo(env);
    expect(await main(argv(...base, '--wait', ...all.flatMap((p) => ['--project', p])), second), second.err()).toBe(0);
    const rows = second.out().split('\n').filter((l) => l.startsWith('demo-project-'));
    for (const p of first) expect(rows.find((r) => r.startsWith(`${p} `))).toMatch(new RegExp(`^${p}\\s+job-\\d+\\s+delivered \\(taken over\\)\\s`));
    for (const p of all.slice(3)) expect(rows.find((r) => r.startsWith(`${p} `))).toMatch(new RegExp(`^${p}\\s+job-\\d+\\s+delivered\\s`));
    expect(second.err()).toContain('labelkit: 5 projects: 3 delivered (taken over), 2 delivered');
    expect(second.err()).toContain('labelkit: the whole run in the journal: 5 projects: 5 delivered');
    expect(all.map((p) => service.jobsStarted.get(p) ?? 0)).toEqual([1, 1, 1, 1, 1]);
    // The same counts in the JSON summary.
    const json = fakeIo(env);
    expect(await main(argv(...base, '--wait', '--json', ...all.flatMap((p) => ['--project', p])), json), json.err()).toBe(0);
    const summary = JSON.parse(json.out().trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(summary).toMatchObject({ event: 'summary', run: { projects: 5, states: { delivered: 5 } } });
  });

  it('keeps one abort listener on the run signal however many journal calls are in flight (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const stop = new AbortController();
    const journal = openPostgresJournal({ url: pg.url!, name: 'listeners', signal: stop.signal });
    try {
      await journal.open();
      const at = new Date().toISOString();
      await Promise.all(Array.from({ length: 40 }, (_, i) => journal.append({ type: 'unknown', at, projectId: `p-${i}`, error: 'listener check' })));
      await journal.append({ type: 'run', at, url: 'http://127.0.0.1:9/graphql' });
    } finally {
      await journal.close();
      await new Promise((r) => setTimeout(r, 20)); // warnings are emitted on the next tick
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
  });
});
