import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startStubModel } from '../support/stubModel.js';
import type { StubModel } from '../support/stubModel.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';

// The commands run in process through main(argv, io) with an in-memory Io, against a real
// emulator and stub model on 127.0.0.1.
const SENTINEL = 'SENTINEL-model-secret-4d2e8b';
let emu: RunningEmulator;
let model: StubModel;
let hanging: StubModel;
const log: string[] = [];
const graphqlPosts = () => log.filter((l) => l.startsWith('POST /graphql')).length;

describe.each(SCHEMA_GENERATIONS)('against the emulator speaking the %s schema', (schemaGeneration) => {
  beforeAll(async () => {
    // Jobs on the hanging model hold model-call slots until the end; leave room for the others.
    emu = await startEmulator({ schemaGeneration, log: (l) => log.push(l), model: { retries: 0, timeoutMs: 20_000, concurrency: 64 } });
    model = await startStubModel(() => ({ kind: 'predict' }), 20);
    hanging = await startStubModel(() => ({ kind: 'hang', ms: 15_000 }));
  });
  afterAll(async () => {
    await emu?.close();
    await model?.close();
    await hanging?.close();
  });

  const env = (extra: Record<string, string> = {}) => ({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SENTINEL, ...extra });
  const autoLabel = (endpoint: string, ...more: string[]) =>
    argv('auto-label', '--project', 'demo-project', '--labeler-email', 'labeler@example.com', '--endpoint', endpoint, '--files-per-request', '1', '--interval', '50ms', ...more);
  const lines = (text: string) => text.split('\n').filter(Boolean);

  describe('labelkit cabinet', () => {
    it('prints the bare cabinet id when the project exists', async () => {
      const io = fakeIo(env());
      expect(await main(argv('cabinet', '--project', 'demo-project', '--role', 'labeler'), io)).toBe(0);
      expect(io.out()).toBe('demo-project:labeler\n');
      expect(io.err()).toBe('');
    });

    it('prints one JSON object when --json is given', async () => {
      const io = fakeIo(env());
      expect(await main(argv('cabinet', '--project', 'demo-project', '--role', 'REVIEWER', '--json'), io)).toBe(0);
      expect(JSON.parse(io.out())).toEqual({ projectId: 'demo-project', role: 'REVIEWER', cabinetId: 'demo-project:reviewer' });
    });

    it('exits 3 without printing the token when the token is wrong', async () => {
      const io = fakeIo(env({ LABELKIT_TOKEN: SENTINEL }));
      expect(await main(argv('cabinet', '--project', 'demo-project', '--role', 'LABELER', '--verbose'), io)).toBe(3);
      expect(io.err()).toMatch(/^labelkit: \[Auth\] .*\(hint: check LABELKIT_TOKEN/);
      expect(io.out() + io.err()).not.toContain(SENTINEL);
    });

    it('exits 1 with the service’s message when the project is unknown', async () => {
      const io = fakeIo(env());
      expect(await main(argv('cabinet', '--project', 'no-such-project', '--role', 'LABELER'), io)).toBe(1);
      expect(io.err()).toMatch(/^labelkit: \[GraphQL\] .*no-such-project/);
      expect(io.err()).not.toMatch(/\n\s+at /); // no stack without --verbose
    });
  });

  describe('labelkit label-sets', () => {
    it('draws each set as a tree without colour when stdout is not a terminal', async () => {
      const io = fakeIo(env());
      expect(await main(argv('label-sets', '--project', 'demo-project', '--role', 'LABELER'), io)).toBe(0);
      expect(lines(io.out())).toEqual([
        'Entities (label set 0, id 1, 5 labels)',
        '├─ ENTITY #6b7280 (id 10)',
        '│  ├─ PERSON #ef4444 (id 11)',
        '│  ├─ ORGANIZATION #3b82f6 (id 12)',
        '│  └─ LOCATION #10b981 (id 13)',
        '└─ DATE #f59e0b (id 14)',
      ]);
    });

    it('says once on stderr with --verbose whether the service renamed tag to label, and prints the same trees', async () => {
      const io = fakeIo(env());
      expect(await main(argv('label-sets', '--cabinet', 'demo-project:labeler', '--verbose'), io)).toBe(0);
      expect(lines(io.out())[1]).toBe('├─ ENTITY #6b7280 (id 10)');
      if (schemaGeneration === 'labels') {
        expect(lines(io.err())).toEqual([
          expect.stringMatching(/^labelkit: the service has renamed tagItems\/tagName to labelItems\/labelName; getCabinetLabelSetsById was sent again .*Cannot query field "tagItems"/),
        ]);
        expect(io.err()).not.toContain(emu.token);
      } else expect(io.err()).toBe('');
      const quiet = fakeIo(env());
      expect(await main(argv('label-sets', '--cabinet', 'demo-project:labeler'), quiet)).toBe(0);
      expect(quiet.err()).toBe('');
    });

    it('adds 24-bit colour swatches on a terminal and none when NO_COLOR is set', async () => {
      const tty = fakeIo(env(), { tty: true });
      expect(await main(argv('label-sets', '--cabinet', 'demo-project:labeler'), tty)).toBe(0);
      expect(tty.out()).toContain('\u001b[38;2;239;68;68m■'); // PERSON #ef4444
      const plain = fakeIo(env({ NO_COLOR: '1' }), { tty: true });
      expect(await main(argv('label-sets', '--cabinet', 'demo-project:labeler'), plain)).toBe(0);
      expect(plain.out()).not.toContain('\u001b[');
    });

    it('prints the cabinet and the sets as one JSON object when --json is given', async () => {
      const io = fakeIo(env());
      expect(await main(argv('label-sets', '--cabinet', 'demo-project:labeler', '--json'), io)).toBe(0);
      const body = JSON.parse(io.out()) as { cabinetId: string; labelSets: { name: string; labelItems: { labelName: string }[] }[] };
      expect(body.cabinetId).toBe('demo-project:labeler');
      expect(body.labelSets.map((s) => s.name)).toEqual(['Entities']);
      expect(body.labelSets[0]!.labelItems.map((l) => l.labelName)).toEqual(['ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE']);
      // Pretty-printed, two spaces (a pulled labels.json is reviewed in diffs), one object, one final newline.
      expect(io.out()).toBe(`${JSON.stringify(body, null, 2)}\n`);
    });

    it('exits 2 and sends nothing when both --cabinet and --project are given', async () => {
      const before = graphqlPosts();
      const io = fakeIo(env());
      expect(await main(argv('label-sets', '--cabinet', 'c', '--project', 'p', '--role', 'LABELER'), io)).toBe(2);
      expect(io.err()).toMatch(/--cabinet: give either --cabinet or --project/);
      expect(graphqlPosts()).toBe(before);
    });
  });

  describe('labelkit auto-label', () => {
    it('prints the exact request and sends nothing when --dry-run is given', async () => {
      const before = log.length;
      const io = fakeIo(env());
      expect(await main(autoLabel(model.url, '--dry-run', '--json'), io)).toBe(0);
      expect(log.length).toBe(before); // not even a token request
      const request = JSON.parse(io.out()) as { dryRun: boolean; url: string; operationName: string; query: string; variables: unknown };
      expect(request).toMatchObject({ dryRun: true, url: emu.url, operationName: 'AutoLabelTokenBasedProjectMutation' });
      expect(request.query).toMatch(/^mutation AutoLabelTokenBasedProjectMutation\(\$input: AutoLabelTokenBasedProjectInput!\) \{\n {2}result: autoLabelTokenBasedProject\(input: \$input\)/);
      expect(request.variables).toEqual({
        input: {
          projectId: 'demo-project',
          labelerEmail: 'labeler@example.com',
          options: { numberOfFilesPerRequest: 1, serviceProvider: 'CUSTOM' },
          targetAPI: { endpoint: model.url, secretKey: '***' },
        },
      });
      expect(io.out() + io.err()).not.toContain(SENTINEL);
    });

    it('lists every problem at once and sends nothing when the input is bad, also with --dry-run', async () => {
      const before = log.length;
      const io = fakeIo({ LABELKIT_URL: 'not a url' });
      const code = await main(
        argv('auto-label', '--project', ' ', '--labeler-email', 'nobody', '--endpoint', 'http://10.0.0.1/model', '--files-per-request', 'ten', '--role', 'boss', '--timeout', 'later', '--dry-run'),
        io,
      );
      expect(code).toBe(2);
      expect(log.length).toBe(before);
      const fields = lines(io.err()).filter((l) => l.startsWith('  ')).map((l) => l.trim().split(': ')[0]);
      expect(fields).toEqual(['--role', '--secret-key-env', '--project', '--labeler-email', '--files-per-request', '--endpoint', '--timeout', 'LABELKIT_URL', 'credentials']);
      expect(io.err()).toMatch(/^labelkit: invalid input, 9 problems \(nothing was sent\):/);
      expect(io.err()).toMatch(/--endpoint: uses plain http on a non-loopback host/);
    });

    it('prints the job id, then plain progress lines on stderr, and exits 0 when --wait is given off a terminal', async () => {
      const io = fakeIo(env());
      expect(await main(autoLabel(model.url, '--wait'), io)).toBe(0);
      const [jobId, ...rest] = lines(io.out());
      expect(jobId).toMatch(/^job-\d+$/);
      expect(rest).toEqual([]);
      const progress = lines(io.err());
      expect(progress.at(-1)).toBe(`${jobId} DELIVERED 100%`);
      // The progress lines before it stop short of the end: the outcome line says that once.
      for (const line of progress.slice(0, -1)) expect(line).toMatch(new RegExp(`^job ${jobId} (QUEUED|IN_PROGRESS) \\d+%$`));
      expect(io.out() + io.err()).not.toContain(SENTINEL);
    });

    it('draws a progress bar on stderr when --wait runs on a terminal', async () => {
      const io = fakeIo(env({ TERM: 'xterm' }), { tty: true });
      expect(await main(autoLabel(model.url, '--wait'), io)).toBe(0);
      const jobId = lines(io.out())[0]!;
      expect(io.err()).toContain(`${jobId} ${'█'.repeat(30)} 100% DELIVERED`);
      expect(io.err()).toContain('\u001b[?25l'); // cursor hidden while drawing…
      expect(io.err()).toContain('\u001b[?25h'); // …and shown again at the end
      expect(lines(io.err()).at(-1)).toBe(`${jobId} DELIVERED 100%`);
    });

    it('emits NDJSON events from started to the outcome when --wait --json is given', async () => {
      const io = fakeIo(env());
      expect(await main(autoLabel(model.url, '--wait', '--json'), io)).toBe(0);
      const events = lines(io.out()).map((l) => JSON.parse(l) as { event: string; jobId: string; status?: string; outcome?: string });
      expect(events[0]).toMatchObject({ event: 'started', status: 'QUEUED' });
      expect(events.at(-1)).toMatchObject({ event: 'outcome', outcome: 'delivered', status: 'DELIVERED', found: true, errors: [] });
      expect(events.slice(1, -1).every((e) => e.event === 'progress' && e.jobId === events[0]!.jobId)).toBe(true);
      expect(io.err()).toBe('');
    });

    it('exits 5 and names the failure when the model answers 500', async () => {
      const broken = await startStubModel(() => ({ kind: 'status', status: 500 }));
      try {
        const io = fakeIo(env());
        expect(await main(autoLabel(broken.url, '--wait'), io)).toBe(5);
        expect(lines(io.err()).at(-1)).toMatch(/^job-\d+ FAILED \d+%: .+\(\d+ errors?\)$/);
      } finally {
        await broken.close();
      }
    });
  });

  describe('labelkit jobs', () => {
    it('prints one NDJSON line per job and exits 7 when one job is unknown', async () => {
      const started = fakeIo(env());
      expect(await main(autoLabel(model.url, '--wait'), started)).toBe(0);
      const jobId = lines(started.out())[0]!;
      const io = fakeIo(env());
      expect(await main(argv('jobs', jobId, 'no-such-job', '--json'), io)).toBe(7);
      const rows = lines(io.out()).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ event: 'status', jobId, found: true, status: 'DELIVERED', progress: 100 });
      expect(rows[1]).toEqual({ event: 'status', jobId: 'no-such-job', found: false });
    });

    it('prints the final status of a waited job once, on stdout, not again on stderr', async () => {
      const started = fakeIo(env());
      expect(await main(autoLabel(model.url, '--wait'), started)).toBe(0);
      const jobId = lines(started.out())[0]!;
      // auto-label --wait gives its outcome on stderr (stdout holds the job id): once there too.
      expect(lines(started.err()).filter((l) => l.includes('DELIVERED'))).toEqual([`${jobId} DELIVERED 100%`]);
      const io = fakeIo(env());
      expect(await main(argv('jobs', jobId, '--wait', '--interval', '50'), io)).toBe(0);
      expect(io.out()).toBe(`${jobId} DELIVERED 100%\n`);
      expect(io.err()).not.toContain('DELIVERED');
    });

    it('exits 6 and says the job is still running when --timeout runs out', async () => {
      const start = fakeIo(env());
      expect(await main(autoLabel(hanging.url), start)).toBe(0);
      const jobId = lines(start.out())[0]!;
      const io = fakeIo(env());
      expect(await main(argv('jobs', jobId, '--wait', '--timeout', '300ms', '--interval', '50'), io)).toBe(6);
      expect(io.out()).toMatch(new RegExp(`^${jobId} still running when --timeout ran out \\(last seen (QUEUED|IN_PROGRESS) \\d+%\\)\\n$`));
    });

    it('exits 130 and names the jobs still running when Ctrl-C is pressed while waiting', async () => {
      const start = fakeIo(env());
      expect(await main(autoLabel(hanging.url), start)).toBe(0);
      const jobId = lines(start.out())[0]!;
      const io = fakeIo(env());
      const running = main(argv('jobs', jobId, '--wait', '--interval', '50'), io);
      await expect.poll(() => io.err(), { timeout: 5_000 }).toMatch(/IN_PROGRESS/);
      io.interrupt();
      expect(await running).toBe(130);
      expect(lines(io.err()).at(-1)).toBe(`labelkit: interrupted; still running on the service: ${jobId} (hint: labelkit jobs ${jobId} --wait waits again)`);
    });

    it('exits 2 listing both problems when an id is empty and the timeout is bad', async () => {
      const io = fakeIo(env());
      expect(await main(argv('jobs', '', '--wait', '--timeout', 'x'), io)).toBe(2);
      expect(io.err()).toMatch(/<id> 1: must not be empty/);
      expect(io.err()).toMatch(/--timeout: must be a positive duration/);
    });
  });
});
