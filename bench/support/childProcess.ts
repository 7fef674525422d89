import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A benchmark script running in a node process of its own, talking JSON lines over stdin/stdout. */
export interface BenchChild {
  /** Resolves with the next line of the child's stdout, parsed as JSON. */
  next<T>(): Promise<T>;
  /** Writes one line to the child's stdin. */
  send(line: string): void;
  /** Closes the child's stdin (the scripts end on it) and waits for it to exit; rejects on a non-zero exit. */
  close(): Promise<void>;
}

/**
 * Starts a benchmark script in a fresh node process, so that it shares no heap, no JIT state and
 * no leftover garbage with whatever ran here before.
 *
 * @param script - the script's path
 * @param args - its arguments
 * @param nodeArgs - node's own flags; by default this process's (`tsx`'s loader, `--expose-gc`),
 * which a TypeScript script needs
 * @returns the child; its stderr goes to this process's stderr
 */
export function startBenchChild(script: string, args: string[], nodeArgs: string[] = process.execArgv): BenchChild {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let ended: Error | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(line);
    else lines.push(line);
  });
  void exited.then((code) => {
    ended = new Error(`${script} ${args.join(' ')} exited (${code}) before answering`);
    for (const w of waiting.splice(0)) w.reject(ended);
  });
  child.once('error', (error) => {
    ended = error;
    for (const w of waiting.splice(0)) w.reject(error);
  });
  return {
    next: <T>() =>
      new Promise<string>((resolve, reject) => {
        const line = lines.shift();
        if (line !== undefined) resolve(line);
        else if (ended) reject(ended);
        else waiting.push({ resolve, reject });
      }).then((line) => JSON.parse(line) as T),
    send: (line) => void child.stdin.write(`${line}\n`),
    close: async () => {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited with code ${code}`);
    },
  };
}

/**
 * Runs a node process to its end with stdout to /dev/null (a pipe read slowly would add its
 * backlog to the process's RSS), keeping the end of its stderr (where bench/support/reportRss.mjs
 * and cpuAtExit.mjs write their figures).
 *
 * @param args - node's arguments (its flags, the script, the script's arguments)
 * @param options - the child's `env` and `cwd`
 * @returns its exit code, the last 2,000 characters of its stderr, and its wall time (ms)
 */
export function runToEnd(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): Promise<{ code: number | null; stderr: string; ms: number }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.on('close', (code) => resolve({ code, stderr: err, ms: performance.now() - t }));
  });
}
