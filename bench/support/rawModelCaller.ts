import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The sample model running in a child process. */
export interface ModelProcess {
  url: string;
  /**
   * CPU time (user + system) the model's process has used so far, in ms, read from
   * `/proc/<pid>/stat` (10 ms steps); undefined where there is no `/proc`.
   */
  cpuMs(): number | undefined;
  close(): Promise<void>;
}

/** Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/** Starts bench/support/modelProcess.mjs and waits for its URL. */
export async function startModelProcess(secret: string): Promise<ModelProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'modelProcess.mjs'), secret], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the model process exited (${code}) before listening`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return {
    url,
    cpuMs: () => {
      try {
        // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // utime and stime: fields 14 and 15
      } catch {
        return undefined;
      }
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/** One project's documents, as the emulator stores them. */
export interface RawProject {
  id: string;
  name: string;
  documents: ReadonlyArray<{ id: string; lines: readonly string[] }>;
}

/**
 * The floor the emulator is compared with: the same span-contract requests (the same batches of
 * `linesPerRequest` lines, the same body) POSTed to the same model with the same concurrency,
 * over node:http keep-alive like the emulator's runner, each answer read and `JSON.parse`d, and
 * nothing else (no checking, no storing, no job).
 *
 * @returns wall time in ms and the number of requests
 */
export async function rawModelCaller(project: RawProject, linesPerRequest: number, endpoint: string, secret: string, concurrency: number): Promise<{ ms: number; requests: number }> {
  const batches: Array<{ doc: number; first: number }> = [];
  project.documents.forEach((doc, d) => {
    const size = linesPerRequest === 0 ? doc.lines.length : linesPerRequest;
    for (let first = 0; first < doc.lines.length; first += size) batches.push({ doc: d, first });
  });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, scheduling: 'lifo' });
  const url = new URL(endpoint);
  const post = (body: string) =>
    new Promise<unknown>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'application/json', authorization: `Bearer ${secret}` },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`model answered HTTP ${res.statusCode}`));
          else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < batches.length) {
      const { doc, first } = batches[next++]!;
      const document = project.documents[doc]!;
      const size = linesPerRequest === 0 ? document.lines.length : linesPerRequest;
      const sentences = document.lines.slice(first, first + size).map((text, i) => ({ id: first + i, text }));
      await post(JSON.stringify({ id: project.id, name: project.name, documents: [{ id: document.id, sentences }] }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  const ms = performance.now() - start;
  agent.destroy();
  return { ms, requests: batches.length };
}
