// The steps for a fork after the service's tag→label rename (docs/rename.md, "In your fork, to make
// the renamed schema the default"), read from the page when the test runs, run in bash on a copy of
// the repository: the `sed` line and `npm run codegen` as printed, then `npm test`.
//
// Then twice over: once on a copy of this checkout, and once more on a copy of that renamed copy, as
// this very test runs in a fork that followed the steps (its `npm test`): the steps must work on a
// checkout renamed already and change nothing there (issue 44: this test failed in such a fork,
// expecting the `sed` to change a schema that was renamed already).
//
// `npm test` in the copy: not a vitest of its own there (it re-ran the codegen tests for about
// 15 CPU-s). What those tests would find in the copy is proved here and in this run instead:
// - the steps change schema.graphql alone, to exactly renameSchema(the checkout's) (checked below),
//   and generated/ comes out byte for byte as before (checked below);
// - test/codegen/schema.test.ts checks the operations, the emulator's queries and the schema against
//   production on the committed schema.graphql and on renameSchema() of it;
// - test/codegen/rename.test.ts renames a copy with renameSchema() and regenerates; in a renamed
//   fork its input is the same (renameSchema changes a renamed schema no more: the second run below);
// - no TypeScript file differs from the checkout's (below), so the run's own type check
//   (test/types/typecheck.test.ts) covers the copy's.
// The page's `npm test` is still a step of the block: the bash function below records that the block
// reached it, after the others succeeded.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDoc } from '../support/docs.js';
import { runBlocks, shellBlocks, stopBlockGroups } from '../support/shellBlocks.js';
import type { Block } from '../support/shellBlocks.js';
import { renameSchema } from '../support/codegenConfig.js';

const repo = join(import.meta.dirname, '..', '..');
/** The page of rename day, and the words that open the fork's steps on it. */
const PAGE = 'docs/rename.md';
const HEADING = '**In your fork, to make the renamed schema the default**';

/** What a checkout (at `root`) holds that the copy leaves out: installs, builds, reports, other forks. */
const copiedFrom = (root: string) => (source: string): boolean => {
  const path = relative(root, source).split(sep);
  const name = basename(source);
  if (path.length === 1 && ['node_modules', '.git', 'dist-types', '.vitest-report.json'].includes(name)) return false;
  if (name.startsWith('.rename-fork-')) return false;
  if (path[0] === 'packages' && name === 'dist') return false;
  return !(path[0] === 'test' && path[1] === 'browser' && name === 'output');
};

const PRELUDE = `set -e
trap 'echo "rename steps: failed (exit $?): $BASH_COMMAND" >&2' ERR
npm() {
  case "$*" in
    "run codegen") command npm run -s codegen ;;
    test) echo "rename steps: npm test reached" ;;
    *) echo "rename steps: npm $* is not one of the page's steps" >&2; return 1 ;;
  esac
}
`;

/** The files under `dir` (paths from it, `/`-separated), leaving out what the copy leaves out and the node_modules link. */
function filesOf(dir: string): string[] {
  const copied = copiedFrom(dir);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.startsWith('node_modules/') && path.split('/').every((_, i, all) => copied(join(dir, ...all.slice(0, i + 1)))));
}

/** The files of `fork` that differ from `source`'s or that `source` does not have, as paths from its root. */
function changedFiles(source: string, fork: string): string[] {
  return filesOf(fork).filter((path) => !existsSync(join(source, path)) || !readFileSync(join(source, path)).equals(readFileSync(join(fork, path))));
}

describe('the rename steps for a fork (docs/rename.md)', () => {
  const forks: string[] = [];
  afterAll(() => {
    stopBlockGroups();
    for (const fork of forks) rmSync(fork, { recursive: true, force: true });
  });

  /** The page's block of the fork's steps. */
  function stepsBlock(): Block {
    const page = readDoc(PAGE);
    expect(page).toContain(HEADING);
    const headingLine = page.slice(0, page.indexOf(HEADING)).split('\n').length;
    const block = shellBlocks(page).find((b) => b.line > headingLine);
    if (!block) throw new Error(`${PAGE}: no sh block after ${HEADING}`);
    expect(block.text).toMatch(/schema\.graphql[\s\S]*npm run codegen[\s\S]*npm test/);
    return block;
  }

  /** Runs the steps on a copy of the checkout at `source`, checks what they did, and returns the copy. */
  async function stepsOn(source: string, block: Block): Promise<string> {
    const fork = mkdtempSync(join(tmpdir(), 'labelkit-rename-steps-'));
    forks.push(fork);
    cpSync(source, fork, { recursive: true, filter: copiedFrom(source) });
    symlinkSync(join(repo, 'node_modules'), join(fork, 'node_modules'), 'dir');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('LABELKIT_')));
    const outcome = await runBlocks([block], fork, 240_000, { ...env, NO_COLOR: '1' }, PRELUDE);
    expect({ status: outcome.status, leftover: outcome.leftover }, outcome.output).toEqual({ status: 0, leftover: [] });
    expect(outcome.output).toContain('rename steps: npm test reached');

    // The steps did what they say: the schema is renamed (exactly as renameSchema, which the codegen
    // tests apply, renames it), both generations regenerated from it byte for byte as before.
    const before = readFileSync(join(source, 'schema.graphql'), 'utf8');
    const schema = readFileSync(join(fork, 'schema.graphql'), 'utf8');
    expect(schema).toBe(renameSchema(before));
    expect(schema).not.toMatch(/\btag(Items|Name):/);
    expect(schema).toContain('appendLabelSetTagItems'); // the page: it may stay
    expect(readFileSync(join(fork, 'generated', 'labels', 'graphql.ts'), 'utf8')).toMatch(/"value":"labelItems"/);
    // As the page says, the steps change schema.graphql alone (and nothing when it is renamed
    // already): generated/ and every TypeScript file come out byte for byte as the checkout's.
    expect(changedFiles(source, fork).sort()).toEqual(schema === before ? [] : ['schema.graphql']);
    return fork;
  }

  it('rename schema.graphql and regenerate on a copy of the repository, changing schema.graphql alone', { timeout: 300_000 }, async () => {
    const block = stepsBlock();
    const renamed = await stepsOn(repo, block);
    // Unless this checkout is a fork that followed the steps already, they renamed something.
    if (!/\btag(Items|Name):/.test(readFileSync(join(repo, 'schema.graphql'), 'utf8'))) return;
    expect(readFileSync(join(renamed, 'schema.graphql'), 'utf8')).not.toBe(readFileSync(join(repo, 'schema.graphql'), 'utf8'));
  });

  it('work again on a checkout renamed already (this test in a fork that followed them), changing nothing', { timeout: 300_000 }, async () => {
    const block = stepsBlock();
    const renamed = forks[0] ?? (await stepsOn(repo, block));
    await stepsOn(renamed, block);
  });
});
