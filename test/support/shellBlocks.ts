// Runs the sh blocks of a Markdown file in one bash, as a user pastes them one after another, and
// tells what the blocks left behind: used by the documentation's tests (test/build/readmeShellBlocks.test.ts,
// test/codegen/renameSteps.test.ts).
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export interface Block {
  /** The page it comes from (README.md when not said). */
  page?: string;
  /** 1-based line of the opening fence in its page. */
  line: number;
  text: string;
}

/** The `sh` fenced blocks of a Markdown text, indentation of an indented (list item) fence removed. */
export function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```sh\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j]!.trim() !== '```'; j++) body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    if (j === lines.length) throw new Error(`README.md:${i + 1}: a sh block without its closing fence`);
    blocks.push({ line: i + 1, text: body.join('\n') });
    i = j;
  }
  return blocks;
}

interface Outcome {
  status: number | null;
  output: string;
  /** The block that was running when the limit ran out, if one did. */
  timedOut?: Block;
  /** `ps` lines of the processes left in the shell's process group after it exited. */
  leftover: string[];
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process groups of shells still running (a test that timed out leaves its shell here). */
const running = new Set<number>();

/**
 * Kills every process group {@link runBlocks} started that is still running: for `afterAll`, so
 * that a test that timed out (or whose shell waits on a background process holding its output
 * open) leaves no server behind.
 */
export function stopBlockGroups(): void {
  for (const group of running) {
    try { process.kill(-group, 'SIGKILL'); } catch { /* gone already */ }
  }
  running.clear();
}

/**
 * Runs blocks one after another in one bash (`prelude` first), in `cwd`, in a process group of its
 * own; kills the group when a block passes `limitMs`, and reports what the group still holds after
 * bash exited.
 */
export async function runBlocks(blocks: Block[], cwd: string, limitMs: number, env: NodeJS.ProcessEnv, prelude: string): Promise<Outcome> {
  const script = prelude + blocks.map((b, i) => `printf '\\n@@block ${i}\\n'\n${b.text}\n`).join('') + `printf '\\n@@block end\\n'\n`;
  const shell = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const group = shell.pid!;
  running.add(group);
  let output = '';
  let current: Block | undefined;
  let timedOut: Block | undefined;
  let timer: NodeJS.Timeout | undefined;
  const arm = (block: Block | undefined) => {
    clearTimeout(timer);
    current = block;
    if (block) timer = setTimeout(() => {
      timedOut = current;
      try { process.kill(-group, 'SIGKILL'); } catch { /* gone already */ }
    }, limitMs);
  };
  let stdout = '';
  let seen = 0; // the block markers already acted on
  shell.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    stdout += chunk;
    const markers = [...stdout.matchAll(/^@@block (\d+|end)$/gm)];
    for (const match of markers.slice(seen)) arm(match[1] === 'end' ? undefined : blocks[Number(match[1])]);
    seen = markers.length;
  });
  shell.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const status = await new Promise<number | null>((resolve) => shell.once('close', (code) => resolve(code)));
  arm(undefined);
  running.delete(group);
  let leftover: string[] = [];
  try {
    process.kill(-group, 0); // throws ESRCH when no process of the group is left
    // A process that has exited but is not yet reaped (state Z, `<defunct>`: a child of the shell
    // killed by the time limit, waiting for init to reap it) runs nothing and holds no port: it is
    // not left behind. Give the reaper a moment, then list only live processes.
    const live = () =>
      spawnSync('ps', ['-o', 'pid=,stat=,args=', '-g', String(group)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((l) => l.trim() !== '' && !/^\s*\d+\s+Z/.test(l));
    leftover = live();
    for (let i = 0; i < 20 && leftover.length === 0 && groupAlive(group); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      leftover = live();
    }
    process.kill(-group, 'SIGKILL');
    for (let i = 0; i < 100 && groupAlive(group); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  } catch {
    // nothing left
  }
  return { status, output, ...(timedOut ? { timedOut } : {}), leftover };
}

/**
 * A port nothing listens on now (the OS's choice), standing for a fixed port (4000, 5000) of a
 * docs block, so that blocks run beside a reader's own servers and beside each other.
 *
 * @returns the port
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
