import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from './fakeIo.js';

/** The built binary of labelkit-tools (npm test builds before vitest runs; run `npm run build` first by hand). */
export const BIN = join(import.meta.dirname, '..', '..', 'packages', 'labelkit-tools', 'bin', 'labelkit.js');

/** How a run of the binary ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running binary: its output so far, and a way to wait for a text and to stop it. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout or stderr matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the process has exited. */
  exited: Promise<CliRun>;
}

const running = new Set<ChildProcess>();

/**
 * Kills every binary started by {@link startCli} that is still running (for afterAll, so that
 * a failed assertion never leaves a server behind).
 */
export function killStarted(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/**
 * Starts `node packages/labelkit-tools/bin/labelkit.js …` with only the given environment (plus PATH): nothing of the
 * test runner's own environment reaches it.
 *
 * @param args - the arguments
 * @param env - the environment
 * @param stdin - piped to stdin, then closed (default: stdin closed at once)
 * @returns the running process
 */
export function startCli(args: string[], env: Record<string, string> = {}, stdin = ''): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    listeners.forEach((l) => l());
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    listeners.forEach((l) => l());
  });
  child.stdin!.end(stdin);
  const exited = new Promise<CliRun>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor: (pattern, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(stdout) || pattern.test(stderr)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} within ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        check();
        void exited.then(() => {
          if (listeners.has(check)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`exited before ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
          }
        });
      }),
  };
}

/**
 * Runs the binary to its end.
 *
 * @param args - the arguments
 * @param env - the environment (plus PATH)
 * @param stdin - piped to stdin
 * @returns exit code, stdout and stderr
 */
export function runCli(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<CliRun> {
  return startCli(args, env, stdin).exited;
}

/**
 * Runs the CLI in this process: `main(argv, io)` with an in-memory Io, the same arguments,
 * environment and stdin as {@link runCli} would give the binary, and the same result shape.
 *
 * @param args - the arguments
 * @param env - the whole environment the command sees (nothing of the test runner's leaks in)
 * @param stdin - what stdin holds (piped, not a terminal)
 * @returns exit code, stdout and stderr
 * @remarks No process start: for what the command prints and returns. What only a real process
 * shows (the exit status, signals, pipes that are not terminals, the bundle loading) stays with
 * {@link runCli}. Anything written past the Io (console, process.stdout) is not in the result:
 * see `captureStrayOutput` in test/support/strayOutput.ts.
 */
export async function runMain(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<CliRun> {
  const io = fakeIo(env, { stdin });
  const code = await main(argv(...args), io);
  return { code, stdout: io.out(), stderr: io.err() };
}
