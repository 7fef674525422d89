// Every ```sh block of the documentation (README.md, CONTRIBUTING.md and the pages of docs/), read
// from the pages when the test runs (never copied), runs as a user pastes them: the blocks of one
// page in one bash of their own, one block after another, in a folder of their own (a page assumes
// nothing another page's blocks did), page after page; `set -e`, so a command that fails fails the
// test. Afterwards no process the blocks started may be left (they all stay in the
// shell's process group, which the test owns) and no port they used may still be bound.
//
// What the test changes, and why (the blocks are otherwise run as printed):
// - The README's fixed ports 4000 and 5000 (`--port 4000`, `127.0.0.1:4000`, …) become two free
//   ports, so that parallel test runs do not collide; `mktemp` writes into the test's folder.
// - Each page's blocks run in an empty temporary folder whose `node_modules` is this checkout's (a
//   symlink), so the files they write (labels.json, plan.json, projects.txt, run.ndjson) land
//   there and not in the repository.
// - `npm` is a shell function: `npm run demo` runs what follows the build in package.json's demo
//   script (the bin's `demo`), and every other npm command (ci, install, pack, test, run build,
//   typecheck, lint, codegen) is skipped with a line that says so: they would rewrite the
//   checkout's node_modules/, dist/ or generated/ under the other test files, and npm test has
//   just run the build they assume. `npx` runs for real. The fork's rename steps (sed on
//   schema.graphql, npm run codegen) run for real in test/codegen/renameSteps.test.ts, which says
//   what stands for their npm test.
// - `DATABASE_URL` (which the "Many workers" blocks ask the reader to set) names a PostgreSQL
//   server of the test's own (test/support/postgres.ts); where none can start (and CI does not
//   require one), the blocks that use it are replaced by a line that says so.
// Each block has a time limit; past it the whole process group is killed and the test fails, so
// a block that hangs (a wait loop that never ends) stops the test instead of holding it forever.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres } from '../support/postgres.js';
import type { TestPostgres } from '../support/postgres.js';
import { DOC_PAGES, docBlocks } from '../support/docs.js';
import { freePort, runBlocks, stopBlockGroups } from '../support/shellBlocks.js';
import type { Block } from '../support/shellBlocks.js';

const repo = join(import.meta.dirname, '..', '..');
const BIN = join(repo, 'packages', 'labelkit-tools', 'bin', 'labelkit.js');
/** How long one block may take on a loaded 2-core machine (the many-projects and many-workers runs are the longest). */
const BLOCK_LIMIT_MS = 150_000;

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

/** A folder for one page's blocks: empty but for the checkout's node_modules and a copy of schema.graphql. */
function pageFolder(work: string, page: string): string {
  const dir = join(work, page.replace(/\W+/g, '-'));
  mkdirSync(dir);
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // The fork's rename steps edit schema.graphql at the root of the checkout: a copy of it is here
  // (test/codegen/renameSteps.test.ts runs those steps on a whole copy, codegen and tests included).
  copyFileSync(join(repo, 'schema.graphql'), join(dir, 'schema.graphql'));
  return dir;
}

describe('the documentation\'s shell blocks', () => {
  const work = mkdtempSync(join(tmpdir(), 'labelkit-readme-sh-'));
  let pg: TestPostgres | undefined;
  beforeAll(async () => {
    pg = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    stopBlockGroups();
    await pg?.close();
    rmSync(work, { recursive: true, force: true });
  });
  const env = (): NodeJS.ProcessEnv => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LABELKIT_') && k !== 'DATABASE_URL' && !k.startsWith('PG')));
    return { ...clean, ...(pg?.url ? { DATABASE_URL: pg.url } : {}), TMPDIR: work, README_TEST_BIN: BIN, NO_COLOR: '1', npm_config_update_notifier: 'false' };
  };

  it('run as printed, each page\'s one after another in one shell, and leave no process and no bound port behind', { timeout: 20 * BLOCK_LIMIT_MS }, async () => {
    const blocks: Block[] = docBlocks('sh');
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(blocks.filter((b) => b.page === 'README.md').length).toBeGreaterThanOrEqual(6);
    const ports = { 4000: await freePort(), 5000: await freePort() };
    const withDatabase = blocks.map((b) => (pg?.url || !b.text.includes('DATABASE_URL') ? b : { ...b, text: `echo ${JSON.stringify(`readme test: not run here: ${pg?.skip ?? 'no PostgreSQL'}`)}` }));
    const substituted = withDatabase.map((b) => ({ ...b, text: b.text.replace(/(--port |127\.0\.0\.1:)(4000|5000)\b/g, (_, before: string, port: '4000' | '5000') => `${before}${ports[port]}`) }));
    // Every fixed port of the blocks is one the test substitutes: no block may reach a real 4000.
    for (const b of substituted) expect(b.text, `${b.page}:${b.line}`).not.toMatch(/\b[45]000\b(?!\d)(?=[/ \n]|$)/);

    // Page after page, each in a shell and a folder of its own.
    let output = '';
    const outputs = new Map<string, string>();
    const folders = new Map<string, string>();
    for (const page of DOC_PAGES) {
      const ofPage = substituted.filter((b) => b.page === page);
      if (ofPage.length === 0) continue;
      const folder = pageFolder(work, page);
      folders.set(page, folder);
      const outcome = await runBlocks(ofPage, folder, BLOCK_LIMIT_MS, env(), PRELUDE);
      if (process.env.README_TEST_SHOW) console.log(outcome.output);
      const where = outcome.timedOut ? `${page}:${outcome.timedOut.line}: the block did not finish within ${BLOCK_LIMIT_MS / 1000} s\n` : '';
      expect({ page, status: outcome.status, leftover: outcome.leftover }, `${where}${outcome.output}`).toEqual({ page, status: 0, leftover: [] });
      expect(outcome.output, page).toContain('@@block end');
      output += outcome.output;
      outputs.set(page, outcome.output);
    }
    for (const port of Object.values(ports)) expect(await portIsFree(port), `port ${port} is still bound`).toBe(true);

    // What the blocks are there to show did happen.
    const outcome = { output };
    expect(outcome.output).toContain('DELIVERED'); // the demo and the CLI walk-through's job
    expect(outcome.output).toMatch(/"access_token":"/); // the token route, with the credentials the block chose
    expect(outcome.output).toContain('"projectId":"demo-project"'); // the labels route
    expect(outcome.output).toContain('exit 0'); // the label-set drift check after the apply
    // How good is my model?: the demo's model scored, and the CI gate's exit code.
    expect(outcome.output).toMatch(/^micro avg /m);
    expect(outcome.output).toContain('exit 11');
    // Many workers: the two workers' started lines add up to the 200 projects, each once.
    if (pg?.url) {
      const counts = [...outcome.output.matchAll(/^worker-[12]\.txt:(\d+)$/gm)].map((m) => Number(m[1]));
      expect(counts).toHaveLength(2);
      expect(counts[0]! + counts[1]!).toBe(200);
    }
    // The README's quick starts: the job, the label-set pull and drift check, the score, many
    // projects, the rename check, the export.
    const readme = outputs.get('README.md') ?? '';
    expect(readme).toContain('DELIVERED');
    expect(readme).toContain('demo-project matches labels.json');
    expect(readme).toMatch(/^micro avg /m);
    expect(readme).toMatch(/^rename: not yet/m);
    expect(readFileSync(join(folders.get('README.md')!, 'labels.csv'), 'utf8').split('\n').length).toBeGreaterThan(10);
    expect(readFileSync(join(folders.get('README.md')!, 'labels.conll'), 'utf8')).toMatch(/ B-PERSON$/m);
    expect(readFileSync(join(folders.get('docs/rename.md')!, 'schema.graphql'), 'utf8')).toMatch(/^\s+labelItems: \[TagItem!\]!$/m); // the fork's rename
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
    const outcome = await runBlocks([old], work, 30_000, env(), PRELUDE);
    expect(outcome.status).toBe(0);
    expect(outcome.leftover.join('\n')).toContain('emulator --port');
    expect(await portIsFree(port)).toBe(true); // the test killed it
  });

  it('stops a block that hangs, by its time limit', { timeout: 30_000 }, async () => {
    const outcome = await runBlocks([{ line: 1, text: 'echo before' }, { line: 2, text: 'until false; do sleep 0.1; done' }], work, 1_000, env(), PRELUDE);
    expect(outcome.timedOut?.line).toBe(2);
    expect(outcome.status).not.toBe(0);
    expect(outcome.leftover).toEqual([]);
  });
});
