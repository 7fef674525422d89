// Every ```sh block of README.md, read from the README when the test runs (never copied), runs in
// one bash, one block after another, as a user pastes them: `set -e`, so a command that fails
// fails the test. Afterwards no process the blocks started may be left (they all stay in the
// shell's process group, which the test owns) and no port they used may still be bound.
//
// What the test changes, and why (the blocks are otherwise run as printed):
// - The README's fixed ports 4000 and 5000 (`--port 4000`, `127.0.0.1:4000`, …) become two free
//   ports, so that parallel test runs do not collide; `mktemp` writes into the test's folder.
// - The blocks run in an empty temporary folder whose `node_modules` is this checkout's (a
//   symlink), so the files they write (labels.json, plan.json, projects.txt, run.ndjson) land
//   there and not in the repository.
// - `npm` is a shell function: `npm run demo` runs what follows the build in package.json's demo
//   script (the bin's `demo`), and every other npm command (ci, install, pack, test, run build,
//   typecheck, lint, codegen) is skipped with a line that says so: they would rewrite the
//   checkout's node_modules/, dist/ or generated/ under the other test files, and npm test has
//   just run the build they assume. `npx` runs for real.
// Each block has a time limit; past it the whole process group is killed and the test fails, so
// a block that hangs (a wait loop that never ends) stops the test instead of holding it forever.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
const BIN = join(repo, 'packages', 'labelkit-tools', 'bin', 'labelkit.js');
/** How long one block may take on a loaded 2-core machine (the 1,000-project run is the longest). */
const BLOCK_LIMIT_MS = 150_000;

interface Block {
  /** 1-based line of the opening fence in README.md. */
  line: number;
  text: string;
}

/** The `sh` fenced blocks of a Markdown text, indentation of an indented (list item) fence removed. */
function shellBlocks(markdown: string): Block[] {
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

/** A port nothing listens on now (the OS's choice), for the README's fixed ones. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const PRELUDE = `set -e
trap 'echo "readme test: failed (exit $?): $BASH_COMMAND" >&2' ERR
npm() {
  case "$*" in
    "run demo") node "$README_TEST_BIN" demo ;;
    *) echo "readme test: not run here: npm $*" ;;
  esac
}
`;

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

/**
 * Runs blocks one after another in one bash, in `cwd`, in a process group of its own; kills the
 * group when a block passes `limitMs`, and reports what the group still holds after bash exited.
 */
async function runBlocks(blocks: Block[], cwd: string, limitMs: number, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const script = PRELUDE + blocks.map((b, i) => `printf '\\n@@block ${i}\\n'\n${b.text}\n`).join('') + `printf '\\n@@block end\\n'\n`;
  const shell = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const group = shell.pid!;
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
  let leftover: string[] = [];
  try {
    process.kill(-group, 0); // throws ESRCH when no process of the group is left
    const ps = spawnSync('ps', ['-o', 'pid=,args=', '-g', String(group)], { encoding: 'utf8' });
    leftover = ps.stdout.split('\n').filter((l) => l.trim() !== '');
    if (leftover.length === 0) leftover = [`(a process of group ${group})`];
    process.kill(-group, 'SIGKILL');
    for (let i = 0; i < 100 && groupAlive(group); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  } catch {
    // nothing left
  }
  return { status, output, ...(timedOut ? { timedOut } : {}), leftover };
}

describe('README.md shell blocks', () => {
  const work = mkdtempSync(join(tmpdir(), 'labelkit-readme-sh-'));
  symlinkSync(join(repo, 'node_modules'), join(work, 'node_modules'), 'dir');
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const env = (): NodeJS.ProcessEnv => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LABELKIT_')));
    return { ...clean, TMPDIR: work, README_TEST_BIN: BIN, NO_COLOR: '1', npm_config_update_notifier: 'false' };
  };

  it('run as printed, one after another in one shell, and leave no process and no bound port behind', { timeout: 20 * BLOCK_LIMIT_MS }, async () => {
    const blocks = shellBlocks(readFileSync(join(repo, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const ports = { 4000: await freePort(), 5000: await freePort() };
    const substituted = blocks.map((b) => ({ ...b, text: b.text.replace(/(--port |127\.0\.0\.1:)(4000|5000)\b/g, (_, before: string, port: '4000' | '5000') => `${before}${ports[port]}`) }));
    // Every fixed port of the blocks is one the test substitutes: no block may reach a real 4000.
    for (const b of substituted) expect(b.text, `README.md:${b.line}`).not.toMatch(/\b[45]000\b(?!\d)(?=[/ \n]|$)/);

    const outcome = await runBlocks(substituted, work, BLOCK_LIMIT_MS, env());
    if (process.env.README_TEST_SHOW) console.log(outcome.output);
    const where = outcome.timedOut ? `README.md:${outcome.timedOut.line}: the block did not finish within ${BLOCK_LIMIT_MS / 1000} s\n` : '';
    expect({ status: outcome.status, leftover: outcome.leftover }, `${where}${outcome.output}`).toEqual({ status: 0, leftover: [] });
    for (const port of Object.values(ports)) expect(await portIsFree(port), `port ${port} is still bound`).toBe(true);

    // What the blocks are there to show did happen.
    expect(outcome.output).toContain('@@block end');
    expect(outcome.output).toContain('DELIVERED'); // the demo and the CLI walk-through's job
    expect(outcome.output).toMatch(/"access_token":"/); // the token route, with the credentials the block chose
    expect(outcome.output).toContain('"projectId":"demo-project"'); // the labels route
    expect(outcome.output).toContain('"emulatorAppliedLabelCounts"');
    expect(outcome.output).toContain('exit 0'); // the label-set drift check after the apply
  });

  it('fails when a block leaves a process behind, as `labelkit() { node …; }; labelkit emulator … &` did', { timeout: 60_000 }, async () => {
    // The README's former pattern: `$!` is the subshell that runs the function, and node survives it.
    const port = await freePort();
    const old: Block = {
      line: 0,
      text: [
        `labelkit() { node "$README_TEST_BIN" "$@"; }`,
        `EMULATOR_LOG=$(mktemp); labelkit emulator --port ${port} > "$EMULATOR_LOG" 2>&1 & EMULATOR_PID=$!`,
        `for i in $(seq 300); do grep -q '^  export ' "$EMULATOR_LOG" && break; sleep 0.1; done`,
        'kill -INT $EMULATOR_PID',
      ].join('\n'),
    };
    const outcome = await runBlocks([old], work, 30_000, env());
    expect(outcome.status).toBe(0);
    expect(outcome.leftover.join('\n')).toContain('emulator --port');
    expect(await portIsFree(port)).toBe(true); // the test killed it
  });

  it('stops a block that hangs, by its time limit', { timeout: 30_000 }, async () => {
    const outcome = await runBlocks([{ line: 1, text: 'echo before' }, { line: 2, text: 'until false; do sleep 0.1; done' }], work, 1_000, env());
    expect(outcome.timedOut?.line).toBe(2);
    expect(outcome.status).not.toBe(0);
    expect(outcome.leftover).toEqual([]);
  });
});
