import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { VERSION } from '../../src/client/index.js';
import { demoProject } from '../../src/emulator/demoProject.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { startStubModel } from '../support/stubModel.js';
import type { StubModel } from '../support/stubModel.js';
import { captureStrayOutput } from '../support/strayOutput.js';
import { spawn } from 'node:child_process';
import { BIN, killStarted, runCli, runMain, startCli } from '../support/spawnCli.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// End to end against an emulator and models started in this test process on 127.0.0.1, two ways:
// - runCli/startCli spawn the built binary (node packages/labelkit-tools/bin/labelkit.js), for what only a real process
//   shows: the exit status it ends with, signals (Ctrl-C), stdin and stdout as pipes that are not
//   terminals (progress comes as plain lines), and the bundle in packages/labelkit-tools/dist loading at all;
// - runMain runs the same command in this process (main(argv, io), test/support/fakeIo.ts) with the
//   same arguments, environment and stdin, and returns the same { code, stdout, stderr }: for
//   what a command prints, which needs no process start of about half a second each.
const SENTINEL = 'SENTINEL-e2e-secret-91c7d3';
let emu: RunningEmulator;
let sample: RunningModelServer;
let hanging: StubModel;
let broken: StubModel;
const log: string[] = [];
const lines = (text: string) => text.split('\n').filter(Boolean);

beforeAll(async () => {
  // Jobs on the hanging model hold model-call slots until the end; leave room for the others.
  emu = await startEmulator({ log: (l) => log.push(l), model: { retries: 0, concurrency: 64 } });
  sample = await startModelServer({ secretKey: SENTINEL });
  hanging = await startStubModel(() => ({ kind: 'hang', ms: 20_000 }));
  // Answers 200 with offsets outside the line and a document id it was not asked about.
  broken = await startStubModel((req) => ({
    kind: 'json',
    body: { id: req.id, documents: [{ id: 'other-doc', labels: [] }, ...req.documents.map((d) => ({ id: d.id, labels: [{ id: 0, entities: [{ label: 'PERSON', start_char: 0, end_char: 9999 }] }] }))] },
  }));
});
afterAll(async () => {
  killStarted();
  await emu?.close();
  await sample?.close();
  await hanging?.close();
  await broken?.close();
});

const env = (extra: Record<string, string> = {}) => ({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SENTINEL, ...extra });
const autoLabelArgs = (endpoint: string, ...more: string[]) => [
  'auto-label', '--project', 'demo-project', '--labeler-email', 'labeler@example.com', '--endpoint', endpoint, '--files-per-request', '3', '--interval', '50ms', ...more,
];

describe('labelkit --help, --version and usage errors', () => {
  it('prints the version of the client when --version is given', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('shows an example and the exit codes for every command when --help is given', async () => {
    const commands = [['cabinet'], ['label-sets'], ['auto-label'], ['jobs'], ['emulator'], ['model'], ['model', 'check'], ['demo']];
    // Each command in process, and one through the built binary (the bundle's help is the same code).
    const runs = [...(await Promise.all(commands.map((c) => runMain([...c, '--help'])))), await runCli(['auto-label', '--help'])];
    const names = [...commands, ['auto-label']];
    runs.forEach((r, i) => {
      expect(r.code, names[i]!.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/Examples?:\n {2}\$ /);
      expect(r.stdout).toMatch(new RegExp(`\\$ labelkit ${names[i]!.join(' ')}`));
      expect(r.stdout).toContain('130  interrupted (Ctrl-C)');
    });
  });

  it('ends quietly, without an EPIPE stack, when the reader of its output has gone (labelkit export --help | head)', async () => {
    const child = spawn(process.execPath, [BIN, 'export', '--help'], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the help is written
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('exits 2 naming the command on stderr when the command is unknown', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
  });
});

describe('labelkit demo', () => {
  it('exits 0 and prints DELIVERED, the labels each document got and marked lines when the demo runs', async () => {
    const r = await runCli(['demo']);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out).toContain('status    DELIVERED');
    const counts = out.filter((l) => l.startsWith('labels    ')).map((l) => Number(l.split(': ')[1]));
    expect(counts).toHaveLength(demoProject().documents.length);
    for (const n of counts) expect(n).toBeGreaterThan(0);
    expect(out.some((l) => /\[[^\]]+\]\{PERSON\}/.test(l))).toBe(true);
  });
});

describe('the service commands, end to end', () => {
  it('prints the cabinet id and the label sets as JSON when the environment points at the emulator', async () => {
    const cabinet = await runCli(['cabinet', '--project', 'demo-project', '--role', 'LABELER'], env());
    expect(cabinet).toEqual({ code: 0, stdout: 'demo-project:labeler\n', stderr: '' });
    const sets = await runMain(['label-sets', '--cabinet', 'demo-project:labeler', '--json'], env());
    expect(sets.code).toBe(0);
    expect(JSON.parse(sets.stdout)).toMatchObject({ cabinetId: 'demo-project:labeler', labelSets: [{ id: '1', index: 0, name: 'Entities' }] });
  });

  it('reads the token from stdin and from a file when --token-stdin or --token-file is given', async () => {
    const bare = { LABELKIT_URL: emu.url };
    // Through the binary: the token comes from the real stdin, a pipe.
    const viaStdin = await runCli(['cabinet', '--project', 'demo-project', '--role', 'LABELER', '--token-stdin'], bare, `${emu.token}\n`);
    expect(viaStdin).toEqual({ code: 0, stdout: 'demo-project:labeler\n', stderr: '' });
    const file = join(tempDir('labelkit-bin-'), 'token');
    writeFileSync(file, emu.token);
    expect((await runMain(['cabinet', '--project', 'demo-project', '--role', 'LABELER', '--token-file', file], bare)).code).toBe(0);
  });

  it('logs in with client credentials when LABELKIT_CLIENT_ID and LABELKIT_CLIENT_SECRET are set', async () => {
    const r = await runMain(['cabinet', '--project', 'demo-project', '--role', 'LABELER'], {
      LABELKIT_URL: emu.url,
      LABELKIT_CLIENT_ID: emu.clientId,
      LABELKIT_CLIENT_SECRET: emu.clientSecret,
    });
    expect(r).toEqual({ code: 0, stdout: 'demo-project:labeler\n', stderr: '' });
  });

  it('runs a job to DELIVERED with plain progress lines on stderr when --wait runs off a terminal', async () => {
    // Through the binary: its stderr is a pipe, not a terminal.
    const r = await runCli(autoLabelArgs(sample.url, '--wait'), env());
    expect(r.code).toBe(0);
    const jobId = r.stdout.trim();
    expect(jobId).toMatch(/^job-\d+$/);
    const progress = lines(r.stderr);
    expect(progress.at(-1)).toBe(`${jobId} DELIVERED 100%`);
    for (const line of progress.slice(0, -1)) expect(line).toMatch(new RegExp(`^job ${jobId} (QUEUED|IN_PROGRESS|DELIVERED) \\d+%$`));
    expect(r.stderr).not.toContain('\u001b['); // no bar, no colour off a terminal

    const jobs = await runMain(['jobs', jobId, '--wait', '--json'], env());
    expect(jobs.code).toBe(0);
    expect(lines(jobs.stdout).map((l) => JSON.parse(l) as unknown).at(-1)).toMatchObject({ event: 'outcome', outcome: 'delivered', jobId, status: 'DELIVERED' });
  });

  it('sends nothing and prints the request with *** for the secret when --dry-run is given', async () => {
    const before = log.length;
    const r = await runMain(autoLabelArgs(sample.url, '--dry-run'), env());
    expect(r.code).toBe(0);
    expect(log.length).toBe(before);
    expect(r.stderr).toMatch(/^labelkit: dry run, nothing was sent/);
    const body = JSON.parse(r.stdout) as { operationName: string; variables: { input: { targetAPI: { secretKey: string } } } };
    expect(body.operationName).toBe('AutoLabelTokenBasedProjectMutation');
    expect(body.variables.input.targetAPI.secretKey).toBe('***');
  });

  it('exits 2 listing several problems at once, and sends nothing, when the input is bad', async () => {
    const before = log.length;
    const r = await runCli(['auto-label', '--labeler-email', 'x@', '--endpoint', 'https://model.example.com/p', '--files-per-request', '-3'], env());
    expect(r.code).toBe(2);
    expect(log.length).toBe(before);
    expect(r.stderr).toBe(
      [
        'labelkit: invalid input, 3 problems (nothing was sent):',
        '  --project: required',
        '  --labeler-email: must be an e-mail address such as name@example.com',
        '  --files-per-request: must be an integer >= 0 (0 sends all lines of a document in one request)',
        'hint: labelkit auto-label --help lists every flag and variable',
        '',
      ].join('\n'),
    );
    expect(r.stdout).toBe('');
  });

  it('exits 4 with a hint when the service cannot be reached', async () => {
    // --retries 0: the retries themselves are the client's (test/client/retry.test.ts); here only the exit matters.
    const r = await runCli(['cabinet', '--project', 'p', '--role', 'LABELER', '--retries', '0'], env({ LABELKIT_URL: 'http://127.0.0.1:2/graphql' }));
    expect(r.code).toBe(4);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^labelkit: \[Network\] .*\(hint: check the URL/);
  });

  it('exits 130 naming the running job when SIGINT arrives while waiting', async () => {
    const started = await runMain(autoLabelArgs(hanging.url), env());
    const jobId = started.stdout.trim();
    const waiting = startCli(['jobs', jobId, '--wait', '--interval', '50ms'], env());
    await waiting.waitFor(/IN_PROGRESS/);
    waiting.child.kill('SIGINT');
    const r = await waiting.exited;
    expect(r.code).toBe(130);
    expect(lines(r.stderr).at(-1)).toBe(`labelkit: interrupted; still running on the service: ${jobId} (hint: labelkit jobs ${jobId} --wait waits again)`);
  });
});

describe('labelkit model check', () => {
  it('prints a latency table and exits 0 when the sample model answers every size validly', async () => {
    const r = await runMain(['model', 'check', sample.url, '--sizes', '1,5,20'], env());
    expect(r.code).toBe(0);
    const rows = lines(r.stdout);
    expect(rows[1]).toMatch(/lines\s+HTTP\s+latency\s+entities\s+result/);
    expect(rows.slice(2, 5).map((l) => l.trim().split(/\s+/)[0])).toEqual(['1', '5', '20']);
    for (const row of rows.slice(2, 5)) expect(row).toMatch(/^\s+\d+\s+200\s+\d+\.\d ms\s+\d+\s+valid$/);
    expect(r.stdout).toContain('wrong secret: refused with 401 (good)');
  });

  it('exits 1 listing the problems of each answer when the model breaks the contract', async () => {
    const r = await runMain(['model', 'check', broken.url, '--sizes', '1,4', '--json'], env());
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout) as { valid: boolean; wrongSecretStatus: number; rows: { size: number; problems: { path: string; message: string }[] }[] };
    expect(result.valid).toBe(false);
    expect(result.wrongSecretStatus).toBe(200); // this stub does not check the secret
    expect(result.rows.map((row) => row.size)).toEqual([1, 4]);
    for (const row of result.rows) {
      expect(row.problems).toContainEqual({ path: '$.documents[0].id', message: 'must be a document id of the request, got "other-doc"' });
      expect(row.problems.some((p) => /start_char\/end_char/.test(p.message))).toBe(true);
    }
  });

  it('exits 4 when nothing listens at the URL', async () => {
    const r = await runMain(['model', 'check', 'http://127.0.0.1:9/'], env());
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^labelkit: \[Network\] cannot reach the model at http:\/\/127\.0\.0\.1:9\//);
  });
});

describe('labelkit emulator and labelkit model', () => {
  it('exits 2 with a hint, and serves nothing, when the model has no secret', async () => {
    const r = await runMain(['model', '--secret-key-env', 'LABELKIT_TEST_UNSET_VAR']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^labelkit: LABELKIT_TEST_UNSET_VAR: not set: export LABELKIT_TEST_UNSET_VAR=… .*--secret-key-env \(hint: labelkit model --help.*\)\n$/),
    });
  });

  it('serves until SIGINT, prints how to connect, and never prints a given client secret', async () => {
    const server = startCli(['emulator', '--port', '0', '--client-id', 'my-client', '--client-secret-env', 'MY_SECRET'], { MY_SECRET: SENTINEL });
    await server.waitFor(/Ctrl-C stops/);
    const url = /export LABELKIT_URL=(\S+)/.exec(server.stdout())![1]!;
    const token = /export LABELKIT_TOKEN=(\S+)/.exec(server.stdout())![1]!;
    expect(server.stdout()).toContain('LABELKIT_CLIENT_ID=my-client and LABELKIT_CLIENT_SECRET="$MY_SECRET"');
    expect(await runMain(['cabinet', '--project', 'demo-project', '--role', 'LABELER'], { LABELKIT_URL: url, LABELKIT_TOKEN: token })).toMatchObject({ code: 0 });
    const login = await runMain(['cabinet', '--project', 'demo-project', '--role', 'LABELER'], { LABELKIT_URL: url, LABELKIT_CLIENT_ID: 'my-client', LABELKIT_CLIENT_SECRET: SENTINEL });
    expect(login.code).toBe(0);
    server.child.kill('SIGINT');
    const r = await server.exited;
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SENTINEL);
  });

  it('serves the sample model until SIGINT, and model check accepts it', async () => {
    const server = startCli(['model', '--port', '0', '--json'], { LABELKIT_MODEL_SECRET: SENTINEL });
    await server.waitFor(/"url"/);
    const { url } = JSON.parse(server.stdout()) as { url: string };
    const check = await runMain(['model', 'check', url, '--sizes', '3', '--json'], { LABELKIT_MODEL_SECRET: SENTINEL });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ valid: true, wrongSecretStatus: 401, rows: [{ size: 3, status: 200, problems: [] }] });
    server.child.kill('SIGINT');
    expect((await server.exited).code).toBe(0);
  });
});

describe('secrets in the output', () => {
  it('never prints the sentinel secret, with or without --verbose, whatever the command does with it', async () => {
    const wrong = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: SENTINEL, LABELKIT_MODEL_SECRET: SENTINEL };
    const file = join(tempDir('labelkit-secret-'), 'secret');
    writeFileSync(file, SENTINEL);
    const cases: { args: string[]; env: Record<string, string>; stdin?: string; code: number }[] = [
      { args: ['cabinet', '--project', 'demo-project', '--role', 'LABELER'], env: wrong, code: 3 },
      { args: ['cabinet', '--project', 'demo-project', '--role', 'LABELER', '--token', SENTINEL], env: { LABELKIT_URL: emu.url }, code: 3 },
      { args: ['cabinet', '--project', 'demo-project', '--role', 'LABELER', '--token-stdin'], env: { LABELKIT_URL: emu.url }, stdin: SENTINEL, code: 3 },
      { args: ['label-sets', '--cabinet', 'demo-project:labeler'], env: { LABELKIT_URL: emu.url, LABELKIT_CLIENT_ID: emu.clientId, LABELKIT_CLIENT_SECRET: SENTINEL }, code: 3 },
      { args: ['jobs', 'job-1', '--client-secret-file', file, '--client-id', emu.clientId], env: { LABELKIT_URL: emu.url }, code: 3 },
      { args: autoLabelArgs(sample.url, '--dry-run'), env: env(), code: 0 },
      { args: autoLabelArgs(sample.url, '--dry-run', '--json'), env: env(), code: 0 },
      { args: autoLabelArgs('http://10.1.2.3/model', '--secret-key-file', file, '--secret-key-env', 'X'), env: env(), code: 2 },
      { args: autoLabelArgs(sample.url, '--wait', '--json'), env: env(), code: 0 },
      { args: autoLabelArgs(hanging.url.replace(/:\d+\//, ':9/'), '--wait'), env: env(), code: 5 },
      { args: ['model', 'check', sample.url, '--sizes', '2'], env: env(), code: 0 },
      { args: ['model', 'check', broken.url, '--sizes', '2'], env: env(), code: 1 },
    ];
    // In process (runMain): everything a command prints goes through its Io, and anything printed
    // past it (console, process.stdout/stderr) is recorded too, so nothing goes unseen that the
    // spawned binary's stdout and stderr would have held.
    const stray = captureStrayOutput();
    let strayText: string;
    let runs: { c: (typeof cases)[number]; r: Awaited<ReturnType<typeof runMain>> }[];
    try {
      runs = await Promise.all(
        cases.flatMap((c) => [runMain(c.args, c.env, c.stdin), runMain([...c.args, '--verbose'], c.env, c.stdin)].map(async (p) => ({ c, r: await p }))),
      );
      strayText = stray.text();
    } finally {
      stray.restore();
    }
    let verboseStacks = 0;
    for (const { c, r } of runs) {
      expect(r.code, `${c.args.join(' ')}\n${r.stderr}\n${r.stdout.slice(-2000)}`).toBe(c.code);
      expect(r.stdout + r.stderr, c.args.join(' ')).not.toContain(SENTINEL);
      if (/\n\s+at /.test(r.stderr)) verboseStacks++;
    }
    expect(verboseStacks).toBeGreaterThan(0); // --verbose did print details (stacks) and they were clean too
    expect(strayText).not.toContain(SENTINEL);
  });
});
