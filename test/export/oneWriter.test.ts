// One writer per `--out`, and a resume only from state that proves itself (issue 40 items 1, 2, 6):
// `labelkit export` of the demo project over real HTTP (the emulator), in process. An unfinished
// export is made the way a user gets one (Ctrl-C after the second of four documents), then its
// checkpoint or partial file is damaged or edited as the issue found them: each is refused with
// the RESUME message (exit 2), never resumed, never "unexpected error". Planted symbolic links
// are never written through; a held lock refuses the second run naming its process.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import { main } from '../../src/cli/main.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ExportInterrupted, writeExport } from '../../src/export/index.js';
import type { ExportSummary } from '../../src/export/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { useTempDirs } from '../support/tempDirs.js';
import { within } from '../support/testEnvironment.js';

const tempDir = useTempDirs();
let emu: RunningEmulator;
let dir: string;
let env: Record<string, string>;
/** The sha256 and bytes of a whole export of the demo project as JSON lines. */
let whole: { sha256: string; text: string };

beforeAll(async () => {
  emu = await startEmulator();
  dir = tempDir('labelkit-export-writer-');
  env = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token };
  const out = join(dir, 'whole.jsonl');
  const { code, stdout } = await run(out);
  expect(code).toBe(0);
  whole = { sha256: (JSON.parse(stdout) as ExportSummary).sha256, text: readFileSync(out, 'utf8') };
}, within(30_000));

afterAll(async () => {
  await emu?.close();
});

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Runs `labelkit export --project demo-project --format jsonl --out OUT --json` in process. */
async function run(out: string) {
  const io = fakeIo(env);
  const code = await main(argv('export', '--project', DEMO_PROJECT_ID, '--format', 'jsonl', '--out', out, '--json'), io);
  return { code, stdout: io.out(), stderr: io.err() };
}

/**
 * An unfinished export of `name` as Ctrl-C leaves it: two of the four documents written and
 * checkpointed (with the CLI's identity, so that the same command goes on from it).
 */
async function unfinished(name: string): Promise<{ out: string; partial: string; checkpoint: string }> {
  const out = join(dir, name);
  const client = createLabelingClient({ url: emu.url, token: emu.token });
  const controller = new AbortController();
  try {
    await expect(
      writeExport(client, [DEMO_PROJECT_ID], {
        format: 'jsonl',
        out,
        signal: controller.signal,
        identity: { service: sha256(emu.url).slice(0, 16) },
        onProgress: (done) => done === 2 && controller.abort(),
      }),
    ).rejects.toThrow(ExportInterrupted);
  } finally {
    client.close();
  }
  const checkpoint = `${out}.checkpoint`;
  expect((JSON.parse(readFileSync(checkpoint, 'utf8')) as { progress: { documents: number } }).progress.documents).toBe(2);
  return { out, partial: `${out}.partial`, checkpoint };
}

/** Reads, changes and writes back the checkpoint's JSON. */
function editCheckpoint(path: string, edit: (c: { progress: Record<string, unknown> } & Record<string, unknown>) => void) {
  const c = JSON.parse(readFileSync(path, 'utf8')) as { progress: Record<string, unknown> } & Record<string, unknown>;
  edit(c);
  writeFileSync(path, JSON.stringify(c));
}

/** The run is refused with the RESUME message naming `why`, exit 2, and nothing is resumed or removed. */
async function expectRefused(files: { out: string; partial: string; checkpoint: string }, why: RegExp) {
  const before = { partial: readFileSync(files.partial), checkpoint: readFileSync(files.checkpoint) };
  const { code, stdout, stderr } = await run(files.out);
  expect(stderr).toMatch(why);
  expect(stderr).toContain(`--out: cannot go on from the unfinished export of ${files.out}: `);
  expect(stderr).toMatch(new RegExp(`; delete ${files.partial.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} and .*\\.checkpoint to start over\\n$`));
  expect(stderr).not.toMatch(/unexpected error/);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect({ code, stdout }).toEqual({ code: EXIT.usage, stdout: '' });
  expect(existsSync(files.out)).toBe(false);
  expect(readFileSync(files.partial)).toEqual(before.partial);
  expect(readFileSync(files.checkpoint)).toEqual(before.checkpoint);
}

describe('labelkit export goes on only from a checkpoint and a partial file that prove themselves', () => {
  it('goes on from an untouched one, to the bytes of an export never interrupted', async () => {
    const files = await unfinished('untouched.jsonl');
    const { code, stdout } = await run(files.out);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ resumedAt: 2, sha256: whole.sha256, documents: 4 });
    expect(readFileSync(files.out, 'utf8')).toBe(whole.text);
    expect(readdirSync(dir).filter((f) => f.startsWith('untouched'))).toEqual(['untouched.jsonl', 'untouched.jsonl.labels.json']);
  });

  const edits: [string, (c: { progress: Record<string, unknown> } & Record<string, unknown>) => void, RegExp][] = [
    ['progress.documents one more', (c) => (c.progress.documents = (c.progress.documents as number) + 1), /its seal does not match/],
    ['progress.documents fewer', (c) => (c.progress.documents = 1), /its seal does not match/],
    ['progress.bytes − 100 (a document spliced into another)', (c) => (c.progress.bytes = (c.progress.bytes as number) - 100), /its seal does not match/],
    ['progress.bytes −5', (c) => (c.progress.bytes = -5), /progress\.bytes must be a whole number from 0, got -5/],
    ['progress.lines edited (printed as real before)', (c) => (c.progress.lines = (c.progress.lines as number) + 3), /its seal does not match/],
    ['a span count edited', (c) => ((c.progress.spans as Record<string, number>).PERSON! += 1), /its seal does not match/],
    ['a null field', (c) => (c.progress.documents = null), /progress\.documents must be a whole number from 0, got null/],
    ['progress null', (c) => (c.progress = null as never), /progress must be an object, got null/],
    ['more documents than planned', (c) => (c.progress.documents = 99), /progress\.documents is 99, more than the 4 planned/],
    ['a count that is not a number', (c) => (c.progress.tokens = '12'), /progress\.tokens must be a whole number from 0, got "12"/],
    ['the prefix digest edited', (c) => (c.prefix = '0'.repeat(64)), /its seal does not match/],
    ['a checkpoint of labelkit before the digests', (c) => (c.checkpoint = 1), /is of version 1, not 2/],
  ];
  it.each(edits)('refuses a checkpoint with %s', async (_, edit, why) => {
    const files = await unfinished(`edited-${Math.random().toString(36).slice(2)}.jsonl`);
    editCheckpoint(files.checkpoint, edit);
    await expectRefused(files, why);
  });

  it('refuses a checkpoint cut short (a truncated file), not "unexpected error"', async () => {
    const files = await unfinished('truncated.jsonl');
    const text = readFileSync(files.checkpoint, 'utf8');
    writeFileSync(files.checkpoint, text.slice(0, Math.floor(text.length / 2)));
    await expectRefused(files, /its checkpoint .*truncated\.jsonl\.checkpoint is not valid JSON \(cut short or edited\)/);
  });

  it('refuses a partial file edited inside, at the same length', async () => {
    const files = await unfinished('same-length.jsonl');
    const bytes = readFileSync(files.partial);
    const at = bytes.indexOf('Ada');
    expect(at).toBeGreaterThan(0);
    bytes.write('Eve', at);
    writeFileSync(files.partial, bytes);
    await expectRefused(files, /the first \d+ bytes of .*same-length\.jsonl\.partial are not those its checkpoint describes \(changed since\)/);
  });

  it('refuses a partial file that is a symbolic link to another file, whose bytes stay as they were', async () => {
    const files = await unfinished('linked.jsonl');
    const other = join(dir, 'someone-elses.jsonl');
    // The other file even starts with the very bytes the checkpoint describes.
    writeFileSync(other, Buffer.concat([readFileSync(files.partial), Buffer.from('{"more":"of someone else"}\n')]));
    const otherBytes = readFileSync(other);
    rmSync(files.partial);
    symlinkSync(other, files.partial);
    await expectRefused(files, /linked\.jsonl\.partial is a symbolic link/);
    expect(readFileSync(other)).toEqual(otherBytes);
    expect(lstatSync(files.partial).isSymbolicLink()).toBe(true);
  });

  it('refuses a partial file shorter than its checkpoint says', async () => {
    const files = await unfinished('short.jsonl');
    writeFileSync(files.partial, readFileSync(files.partial).subarray(0, 20));
    await expectRefused(files, /short\.jsonl\.partial is shorter \(20 bytes\) than its checkpoint says/);
  });

  it("a finished export's checkpoint proves the file too: the summary is given back for the same bytes, refused for others", async () => {
    // An export whose tag list cannot be written (a folder of that name) stops after its last
    // checkpoint (with the summary), before the rename: the rename done by hand, the state is
    // that of a run killed between the rename and the removal of its checkpoint.
    const finished = async (name: string) => {
      const out = join(dir, name);
      mkdirSync(`${out}.labels.json`);
      const failed = await run(out);
      expect(failed.code).toBe(EXIT.network);
      expect(failed.stderr).toMatch(/labelkit: cannot write .*\.labels\.json: /);
      rmSync(`${out}.labels.json`, { recursive: true });
      writeFileSync(`${out}.labels.json`, readFileSync(join(dir, 'whole.jsonl.labels.json')));
      renameSync(`${out}.partial`, out);
      return out;
    };
    const kept = await finished('finished.jsonl');
    const again = await run(kept);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ sha256: whole.sha256, documents: 4 });
    expect(existsSync(`${kept}.checkpoint`)).toBe(false);

    const replaced = await finished('replaced.jsonl');
    const other = whole.text.replace('Ada', 'Eve');
    writeFileSync(replaced, other);
    const refused = await run(replaced);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).not.toContain(whole.sha256);
    expect(refused.stderr).toMatch(/--out: cannot go on from the unfinished export of .*replaced\.jsonl: .*replaced\.jsonl is not the file its checkpoint describes \(its sha256 differs\); delete .* to start over/);
    expect(readFileSync(replaced, 'utf8')).toBe(other);
  });
});

describe('labelkit export holds FILE.lock: one writer per file', () => {
  /** A process of this host that runs (a sleeping node), and its end. */
  function sleeper() {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    return { pid: child.pid!, stop: () => child.kill('SIGKILL') };
  }

  it('refuses a second export while another process holds the lock, in one line naming its pid and the file (exit 2); nothing touched', async () => {
    const out = join(dir, 'held.jsonl');
    const other = sleeper();
    try {
      writeFileSync(`${out}.lock`, `${other.pid} ${hostname()}\n`);
      const { code, stdout, stderr } = await run(out);
      expect({ code, stdout }).toEqual({ code: EXIT.usage, stdout: '' });
      expect(stderr).toBe(`labelkit: --out: ${out} is being written by another export, process ${other.pid} (lock ${out}.lock): wait for it to end\n`);
      expect(readdirSync(dir).filter((f) => f.startsWith('held'))).toEqual(['held.jsonl.lock']);
      expect(readFileSync(`${out}.lock`, 'utf8')).toBe(`${other.pid} ${hostname()}\n`);
    } finally {
      other.stop();
      rmSync(`${out}.lock`, { force: true });
    }
  });

  it('refuses a lock of another host (a shared disk), naming the host', async () => {
    const out = join(dir, 'shared-disk.jsonl');
    writeFileSync(`${out}.lock`, `4242 build-box-7\n`);
    const { code, stderr } = await run(out);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(/--out: .*shared-disk\.jsonl is being written by another export, process 4242 on the host build-box-7 .*cannot be told from .*: wait for it to end, or delete .*shared-disk\.jsonl\.lock once you know it does not run\n$/);
    rmSync(`${out}.lock`);
  });

  it('takes over the lock of a process that no longer runs (a kill), writes the file, and removes the lock', async () => {
    const out = join(dir, 'stale.jsonl');
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const pid = gone.pid!;
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(`${out}.lock`, `${pid} ${hostname()}\n`);
    const { code, stdout } = await run(out);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as ExportSummary).sha256).toBe(sha256(readFileSync(out)));
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it('two exports started together in one process: one writes, the other is refused; the printed sha256 is the file\'s', async () => {
    const out = join(dir, 'together.jsonl');
    const [a, b] = await Promise.all([run(out), run(out)]);
    const [won, lost] = a.code === 0 ? [a, b] : [b, a];
    expect(won.code).toBe(0);
    expect(lost.code).toBe(EXIT.usage);
    expect(lost.stderr).toBe(`labelkit: --out: ${out} is being written by another export, process ${process.pid} (lock ${out}.lock): wait for it to end\n`);
    expect((JSON.parse(won.stdout) as ExportSummary).sha256).toBe(sha256(readFileSync(out)));
    expect(readFileSync(out, 'utf8')).toBe(whole.text);
  });
});

describe('labelkit export never writes through a symbolic link planted beside its output', () => {
  it('checkpoint.tmp, partial and labels.json.tmp links: their targets stay untouched, the export is whole', async () => {
    const out = join(dir, 'planted.jsonl');
    const victims = ['checkpoint.tmp', 'partial', 'labels.json.tmp'].map((suffix) => {
      const target = join(dir, `victim-${suffix}`);
      writeFileSync(target, `precious ${suffix}\n`);
      symlinkSync(target, `${out}.${suffix}`);
      return { suffix, target };
    });
    const { code, stdout } = await run(out);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as ExportSummary).sha256).toBe(whole.sha256);
    expect(readFileSync(out, 'utf8')).toBe(whole.text);
    for (const v of victims) {
      expect(readFileSync(v.target, 'utf8'), v.suffix).toBe(`precious ${v.suffix}\n`);
      expect(existsSync(`${out}.${v.suffix}`), v.suffix).toBe(false);
    }
    expect(lstatSync(out).isFile()).toBe(true);
  });
});
