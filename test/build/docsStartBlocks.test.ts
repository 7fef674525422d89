// Every page's lines that start an emulator (and the sample model) work while another one runs, as
// a reader meets them: the README's quick start is still up in the same shell when they paste a
// docs page's block. Read from the pages when the test runs: the README's start lines run first,
// once, and stay up while each page's run in turn (each page in a subshell of its own, which sees
// the README's variables as the reader's shell would and whose own end there: one page's lines
// assume nothing another's did), then the page's own connection is checked: it is another
// emulator than the README's, it answers, and so does the page's model; the page's servers stop
// before the next page starts, the README's at the end. Fixed ports of the pages (4000, 5000)
// would become one free port for both starts here, as they collide for a reader; the pages'
// blocks use --port 0 and read the URLs from the --json line instead.
// (test/build/readmeShellBlocks.test.ts runs every block of every page, one page at a time.)
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docBlocks } from '../support/docs.js';
import { freePort, runBlocks, stopBlockGroups } from '../support/shellBlocks.js';
import { within } from '../support/testEnvironment.js';

const repo = join(import.meta.dirname, '..', '..');

/**
 * The lines of a block that start the servers: up to the first line that runs another `labelkit`
 * command (or `npm`), the servers' start, wait and connection lines.
 */
function startLines(text: string): string {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => /^\s*(?:[A-Z_]+=\$\()?(?:labelkit (?!emulator\b|model --)|npm )/.test(line) && !/^\s*npm run build\b/.test(line));
  return lines.slice(0, end === -1 ? lines.length : end).join('\n');
}

/** Every sh block that starts an emulator, page by page. */
const starts = docBlocks('sh').filter((b) => /^\s*labelkit emulator /m.test(b.text));

const PRELUDE = `set -e
trap 'echo "start-blocks test: failed (exit $?): $BASH_COMMAND" >&2' ERR
npm() { echo "start-blocks test: not run here: npm $*"; }
`;

describe("the docs' emulator start lines", () => {
  const work = mkdtempSync(join(tmpdir(), 'labelkit-start-blocks-'));
  symlinkSync(join(repo, 'node_modules'), join(work, 'node_modules'), 'dir');
  afterAll(() => {
    stopBlockGroups();
    rmSync(work, { recursive: true, force: true });
  });

  const readme = starts.find((b) => b.page === 'README.md');
  const pages = starts.filter((b) => b.page !== 'README.md');

  it('are found: the README\'s and those of the pages', () => {
    expect(readme).toBeDefined();
    expect(pages.map((b) => b.page)).toEqual(expect.arrayContaining(['docs/cli.md', 'docs/emulator.md', 'docs/label-sets.md', 'docs/many-projects.md']));
  });

  /** The one shell's run: its status, output by page, and what it left behind. */
  let run: { byPage: Map<string, { status: number | undefined; output: string }>; output: string; status: number | null; leftover: string[] };
  beforeAll(async () => {
    // A fixed port would be the same for both, as for a reader: one free port stands for each.
    const ports = { 4000: await freePort(), 5000: await freePort() };
    const fixed = (text: string) => text.replace(/(--port |127\.0\.0\.1:)(4000|5000)\b/g, (__, before: string, port: '4000' | '5000') => `${before}${ports[port]}`);
    const first = [fixed(startLines(readme!.text)), 'FIRST_URL=$LABELKIT_URL; FIRST_PIDS="$EMULATOR_PID ${MODEL_PID:-}"'].join('\n');
    const page = (block: (typeof pages)[number]) =>
      [
        // The page's lines in a subshell, with set -e as they run for a reader, its status kept.
        'set +e',
        '(',
        'set -e',
        `trap 'echo "start-blocks test: failed (exit $?): $BASH_COMMAND" >&2' ERR`,
        // A page whose lines fail still stops the servers it started (they would hold the shell's output open).
        "trap 'left=$(jobs -p); if [ -n \"$left\" ]; then kill -INT $left 2>/dev/null || true; wait || true; fi' EXIT",
        'unset MODEL_URL MODEL_PID',
        fixed(startLines(block.text)),
        // The page's own emulator, not the README's, and it answers (a wait loop that ran out would leave the first one's URL).
        '[ -n "$LABELKIT_URL" ] && [ "$LABELKIT_URL" != "$FIRST_URL" ] || { echo "start-blocks test: the page uses the first emulator ($LABELKIT_URL)" >&2; false; }',
        'labelkit cabinet --project demo-project --role LABELER',
        // The page's model, when it starts one, answers too.
        'if [ -n "${MODEL_URL:-}" ]; then labelkit model check "$MODEL_URL" --sizes 1 > /dev/null && echo "start-blocks test: model answered"; fi',
        'kill -INT $EMULATOR_PID ${MODEL_PID:-}; wait',
        ')',
        'echo "@@page status $?"',
        'set -e',
      ].join('\n');
    const blocks = [{ line: readme!.line, text: first }, ...pages.map((b) => ({ line: b.line, text: page(b) })), { line: readme!.line, text: 'kill -INT $FIRST_PIDS; wait' }];
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LABELKIT_')));
    const outcome = await runBlocks(blocks, work, within(100_000), { ...env, DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused', TMPDIR: work, NO_COLOR: '1' }, PRELUDE);
    // The output of block i (the README's start is block 0, the pages follow) lies between its marker and the next.
    const parts = outcome.output.split(/^@@block (?:\d+|end)$/m);
    const byPage = new Map(
      pages.map((b, i) => {
        const output = parts[i + 2] ?? '';
        const status = /^@@page status (\d+)$/m.exec(output)?.[1];
        return [`${b.page}:${b.line}`, { status: status === undefined ? undefined : Number(status), output }] as const;
      }),
    );
    run = { byPage, output: outcome.output, status: outcome.status, leftover: outcome.leftover };
  }, within(120_000) * (pages.length + 1));

  it.each(pages.map((b) => [`${b.page}:${b.line}`, b] as const))('%s starts its own emulator while the README\'s runs, and its commands reach it', (where, block) => {
    const mine = run.byPage.get(where)!;
    expect({ status: mine.status, shell: run.status, leftover: run.leftover }, run.output).toEqual({ status: 0, shell: 0, leftover: [] });
    expect(mine.output).toContain('demo-project:labeler');
    if (/labelkit model /.test(startLines(block.text))) expect(mine.output).toContain('start-blocks test: model answered');
  });
});
