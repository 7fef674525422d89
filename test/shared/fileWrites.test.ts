// The one home of writing a file labelkit owns (src/shared/fileWrites.ts): a lock that one process
// at a time holds, also when several find the same lock of a dead process at once (separate
// processes, started together); a write error's words for a real ENOSPC (/dev/full); a temporary
// file never written through a planted link.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileLockHeld, FileWriteError, takeFileLock, writeFileAtomically } from '../../src/shared/fileWrites.js';
import { useTempDirs } from '../support/tempDirs.js';
import { within } from '../support/testEnvironment.js';

const tempDir = useTempDirs();
const ROOT = join(import.meta.dirname, '..', '..');
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** The pid of a process of this host that has ended. */
async function deadPid(): Promise<number> {
  const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => gone.once('exit', resolve));
  return gone.pid!;
}

/**
 * A node process that loads fileWrites.ts (through tsx), says `ready`, takes the lock on `go`
 * (a line on stdin), says `won` or `held PID`, and keeps a won lock until stdin ends.
 */
function contender(lockPath: string) {
  const script = `
    import { takeFileLock, FileLockHeld } from ${JSON.stringify(join(ROOT, 'src/shared/fileWrites.ts'))};
    import { createInterface } from 'node:readline';
    const lines = createInterface({ input: process.stdin });
    console.log('ready');
    for await (const line of lines) {
      if (line !== 'go') continue;
      try {
        const lock = await takeFileLock(${JSON.stringify(lockPath)});
        console.log('won');
        process.stdin.once('end', () => lock.release().then(() => process.exit(0)));
      } catch (error) {
        console.log(error instanceof FileLockHeld ? 'held ' + error.holder.pid : 'error ' + error);
        process.exit(0);
      }
      break;
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const said = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const m = pattern.exec(out);
        if (m) return resolve(m[0]);
        if (child.exitCode !== null) return reject(new Error(`contender ended without ${pattern}: ${out} ${err}`));
        setTimeout(look, 20);
      };
      look();
    });
  return { child, said };
}

describe('takeFileLock', () => {
  it('several processes finding the same dead lock at once: exactly one takes it, the others are told its pid', async () => {
    const dir = tempDir('labelkit-lock-race-');
    const lockPath = join(dir, 'out.conll.lock');
    writeFileSync(lockPath, `${await deadPid()} ${hostname()}\n`);
    const racers = Array.from({ length: 4 }, () => contender(lockPath));
    await Promise.all(racers.map((r) => r.said(/ready/)));
    for (const r of racers) r.child.stdin!.write('go\n');
    const outcomes = await Promise.all(racers.map((r) => r.said(/won|held \d+|error .*/)));
    const winners = racers.filter((_, i) => outcomes[i] === 'won');
    expect(winners, outcomes.join(', ')).toHaveLength(1);
    const winner = winners[0]!.child.pid!;
    expect(outcomes.filter((o) => o !== 'won').sort()).toEqual(Array.from({ length: 3 }, () => `held ${winner}`));
    expect(readFileSync(lockPath, 'utf8')).toBe(`${winner} ${hostname()}\n`);
    winners[0]!.child.stdin!.end();
    await new Promise((resolve) => winners[0]!.child.once('exit', resolve));
    expect(existsSync(lockPath)).toBe(false);
    expect(existsSync(`${lockPath}.break`)).toBe(false);
  }, within(60_000));

  it('refuses a lock this process holds already, and a lock naming no process; release leaves a lock that is not its own', async () => {
    const dir = tempDir('labelkit-lock-');
    const lockPath = join(dir, 'x.lock');
    const lock = await takeFileLock(lockPath);
    await expect(takeFileLock(lockPath)).rejects.toMatchObject({ name: 'FileLockHeld', holder: { pid: process.pid, host: hostname() }, otherHost: false });
    await lock.release();
    writeFileSync(lockPath, 'edited by hand\n');
    const error = await takeFileLock(lockPath).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLockHeld);
    expect(Number.isNaN((error as FileLockHeld).holder.pid)).toBe(true);
    await lock.release();
    expect(readFileSync(lockPath, 'utf8')).toBe('edited by hand\n');
  });
});

describe('FileWriteError', () => {
  it.skipIf(!existsSync('/dev/full'))('says what a real full disk (/dev/full) said, naming the file', () => {
    let real: unknown;
    try {
      writeFileSync('/dev/full', 'x'.repeat(10_000));
    } catch (error) {
      real = error;
    }
    expect(real).toMatchObject({ code: 'ENOSPC' });
    const error = new FileWriteError('/data/errs.csv', real, 'the old file, if any, is kept');
    expect(error.message).toBe('cannot write /data/errs.csv: no space left on the device (ENOSPC); the old file, if any, is kept');
    expect(error.code).toBe('ENOSPC');
  });
});

describe('writeFileAtomically', () => {
  it('with a fixed temporary name, removes a link planted there (never writing through it) and renames onto the file', async () => {
    const dir = tempDir('labelkit-atomic-');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    const path = join(dir, 'state.json');
    symlinkSync(victim, `${path}.tmp`);
    await writeFileAtomically(path, '{"ok":true}\n', { temporary: `${path}.tmp` });
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(path, 'utf8')).toBe('{"ok":true}\n');
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });
});
