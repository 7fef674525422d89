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
