import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { manyExitCode } from '../../src/cli/commands/autoLabel/manyRunner.js';
import { projectIds } from '../../src/cli/projectFlags.js';
import type { AutoLabelManyRun } from '../../src/cli/commands/autoLabel/manyRunner.js';
import type { ProjectOutcome } from '../../src/bulk/index.js';
import type { UsageProblem } from '../../src/cli/usageError.js';
import { main } from '../../src/cli/main.js';
import { startCountingService } from '../support/countingService.js';
import type { CountingService } from '../support/countingService.js';
import { useTempDirs } from '../support/tempDirs.js';
import { argv, fakeIo } from '../support/fakeIo.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// Sizes past the hard limits of a spread call (near 120,000 arguments): loops, never spreads.
describe('many-project runs past the old hard limits', () => {
  it('reads a projects file of 150,000 lines (before: "cannot read the file (unreadable)", a spread overflowed the stack)', async () => {
    const file = join(tempDir('labelkit-many-limits-'), 'projects.txt');
    writeFileSync(file, Array.from({ length: 150_000 }, (_, i) => `p-${i}`).join('\n') + '\n');
    const problems: UsageProblem[] = [];
    const ids = await projectIds({ projects: file }, problems);
    expect(problems).toEqual([]);
    expect(ids).toHaveLength(150_000);
    expect(ids.at(-1)).toBe('p-149999');
  });

  it('reduces the exit codes of 200,000 projects to the worst (before: Math.max(...codes) overflowed the stack)', () => {
    const outcomes: ProjectOutcome[] = Array.from({ length: 200_000 }, (_, i) => ({ projectId: `p-${i}`, outcome: i === 123_456 ? 'timed-out' : 'delivered', fromJournal: false }));
    const run: AutoLabelManyRun = { worklist: [], outcomes, warnings: [], otherRuns: [], dryRun: false, interrupted: false };
    expect(manyExitCode(run)).toBe(6);
    outcomes[7] = { projectId: 'p-7', outcome: 'not-found', fromJournal: false };
    expect(manyExitCode(run)).toBe(7);
  });
});

describe('Ctrl-C while a worker joins a large run', () => {
  let service: CountingService;
  beforeAll(async () => {
    service = await startCountingService({ demoProject: false });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('is honoured while 40,000 earlier jobs are being registered for waiting (before: the registration held the process for minutes)', async () => {
    const dir = tempDir('labelkit-many-join-');
    const journal = join(dir, 'run.ndjson');
    const projects = join(dir, 'projects.txt');
    const ids = Array.from({ length: 40_000 }, (_, i) => `p-${i}`);
    const config = { endpoint: 'http://127.0.0.1:9/', numberOfFilesPerRequest: 0, labelerEmail: 'join@example.com', role: null };
    const at = new Date().toISOString();
    const lines = [JSON.stringify({ type: 'run', at, url: service.url })];
    for (const projectId of ids) {
      lines.push(JSON.stringify({ type: 'intent', at, projectId, attempt: 1, config }));
      lines.push(JSON.stringify({ type: 'started', at, projectId, jobId: `job-of-${projectId}` }));
    }
    writeFileSync(journal, lines.join('\n') + '\n');
    writeFileSync(projects, ids.join('\n') + '\n');
    const io = fakeIo({ LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token, LABELKIT_MODEL_SECRET: 'join-secret' });
    const done = main(argv('auto-label', '--projects', projects, '--journal', journal, '--labeler-email', 'join@example.com', '--endpoint', 'http://127.0.0.1:9/', '--files-per-request', '0', '--wait', '--interval', '1s'), io);
    // Interrupted as soon as the first poll of the earlier jobs went out (the waits are registered by then).
    await vi.waitFor(() => expect(service.requests.some((r) => r.operationName === 'GetJobs')).toBe(true), { timeout: 20_000, interval: 20 });
    io.interrupt();
    expect(await done).toBe(130);
    expect(io.err()).toContain('40000 started jobs not waited for to the end');
    // A bound for a loaded machine (the set-up reads 80,000 journal records), not a timing assertion: before, it never got this far.
  }, 90_000);
});
