// `labelkit eval --errors FILE` writes whole or not at all (issue 40 items 6, 7): a temporary file
// beside FILE, created exclusively, renamed onto it. A full disk is injected at the file system's
// door (a file of the test's folder takes its first bytes, then the write fails with ENOSPC, as a
// full disk does mid-write; no real disk is filled): the old file stays, the error names FILE, exit 4, and
// the report is still printed. A symbolic link at FILE is replaced, its target untouched.
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../src/cli/exitCodes.js';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { within } from '../support/testEnvironment.js';
import { MODEL, PROJECT, startEvalFixture } from '../support/evalFixture.js';

/** The folder whose temporary files meet a full disk (none while undefined). */
const disk = vi.hoisted(() => ({ fullIn: undefined as string | undefined }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const open = (async (path: Parameters<typeof real.open>[0], ...rest: unknown[]) => {
    const handle = await (real.open as (...args: unknown[]) => ReturnType<typeof real.open>)(path, ...rest);
    if (disk.fullIn === undefined || !String(path).startsWith(disk.fullIn) || !String(path).endsWith('.tmp')) return handle;
    const full = Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'writeFile') {
          return async (data: string | Uint8Array) => {
            const bytes = Buffer.from(data);
            await target.write(bytes, 0, Math.min(4096, Math.floor(bytes.length / 2)));
            throw full;
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }) as typeof real.open;
  // A write straight to a file of that folder (how --errors wrote before) meets the full disk too:
  // the file is cut to its first bytes, then ENOSPC.
  const writeFile = (async (path: Parameters<typeof real.writeFile>[0], data: string | Uint8Array, ...rest: unknown[]) => {
    if (disk.fullIn === undefined || !String(path).startsWith(disk.fullIn)) return (real.writeFile as (...args: unknown[]) => Promise<void>)(path, data, ...rest);
    const bytes = Buffer.from(data);
    await real.writeFile(path, bytes.subarray(0, Math.min(4096, Math.floor(bytes.length / 2))));
    throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  }) as typeof real.writeFile;
  return { ...real, open, writeFile, default: { ...real, open, writeFile } };
});

let fixture: Awaited<ReturnType<typeof startEvalFixture>>;
let tmp: string;
let env: Record<string, string>;

beforeAll(async () => {
  fixture = await startEvalFixture();
  tmp = await mkdtemp(join(tmpdir(), 'labelkit-eval-errors-write-'));
  env = { LABELKIT_URL: fixture.emu.url, LABELKIT_TOKEN: fixture.emu.token };
}, within(30_000));

afterAll(async () => {
  await fixture?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function evalErrors(path: string, ...more: string[]) {
  const io = fakeIo(env);
  const code = await main(argv('eval', '--project', PROJECT, '--labeler', MODEL, '--errors', path, ...more), io);
  return { code, out: io.out(), err: io.err() };
}

describe('labelkit eval --errors on a full disk', () => {
  it('keeps the old file, names the file in one clear line, exits 4, leaves no temporary file, and still prints the report', async () => {
    const path = join(tmp, 'errs.csv');
    const old = 'document,file\nlast-week,kept.txt\n';
    writeFileSync(path, old);
    disk.fullIn = tmp;
    let run: Awaited<ReturnType<typeof evalErrors>>;
    try {
      run = await evalErrors(path, '--json');
    } finally {
      disk.fullIn = undefined;
    }
    expect(run.code).toBe(EXIT.network);
    expect(run.err).toBe(`labelkit: cannot write ${path}: no space left on the device (ENOSPC); the old file, if any, is kept\n`);
    expect(run.err).not.toMatch(/unexpected error/);
    expect(readFileSync(path, 'utf8')).toBe(old);
    expect(readdirSync(tmp).filter((f) => f.includes('errs.csv'))).toEqual(['errs.csv']);
    expect(JSON.parse(run.out)).toMatchObject({ projectId: PROJECT, micro: { tp: 2 } });
  });

  it('with room on the disk, replaces the old file whole', async () => {
    const path = join(tmp, 'again.csv');
    writeFileSync(path, 'old\n');
    const run = await evalErrors(path);
    expect(run.code).toBe(0);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(6);
    expect(readdirSync(tmp).filter((f) => f.includes('again.csv'))).toEqual(['again.csv']);
  });
});

describe('labelkit eval --errors through a symbolic link', () => {
  it('replaces the link with the file; the link\'s target is untouched', async () => {
    const target = join(tmp, 'precious.csv');
    writeFileSync(target, 'precious\n');
    const link = join(tmp, 'link.csv');
    symlinkSync(target, link);
    const run = await evalErrors(link);
    expect(run.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(lstatSync(link).isFile()).toBe(true);
    expect(readFileSync(link, 'utf8')).toMatch(/^document,file,line,kind/);
    expect(existsSync(join(tmp, 'link.csv.tmp'))).toBe(false);
  });
});

describe('labelkit eval --json-out on a full disk', () => {
  it('keeps the old report, names the file, exits 4, leaves no temporary file, and still prints the markdown', async () => {
    const path = join(tmp, 'report.json');
    const old = '{"version":1,"last":"week"}\n';
    writeFileSync(path, old);
    disk.fullIn = tmp;
    const io = fakeIo(env);
    let code: number;
    try {
      code = await main(argv('eval', '--project', PROJECT, '--labeler', MODEL, '--format', 'markdown', '--json-out', path), io);
    } finally {
      disk.fullIn = undefined;
    }
    expect(code).toBe(EXIT.network);
    expect(io.err()).toBe(`labelkit: cannot write ${path}: no space left on the device (ENOSPC); the old file, if any, is kept\n`);
    expect(readFileSync(path, 'utf8')).toBe(old);
    expect(readdirSync(tmp).filter((f) => f.includes('report.json'))).toEqual(['report.json']);
    expect(io.out()).toMatch(/^#### labelkit eval · /);
  });
});
