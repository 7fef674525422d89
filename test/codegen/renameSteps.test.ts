// The steps for a fork after the service's tag→label rename (docs/rename.md, "In your fork, to make
// the renamed schema the default"), read from the page when the test runs, run in bash on a copy of
// the repository: the `sed` line and `npm run codegen` as printed. `npm test` there runs the suites
// that read schema.graphql and generated/ — test/codegen/ (schema.test.ts and rename.test.ts are
// the two that failed after these steps; this file itself is left out, or it would run again in
// the copy) and the test files of test/types/, among them typecheck.test.ts, the type check of the
// whole project (src/, test/, bench/), whose tsc also checks the type tests (*.test-d.ts: a type
// test that fails is a tsc error there; they are not named as well, which would run vitest's
// typecheck, a second tsc over them) — not the full suite, which would take minutes more. (By
// hand, the full suite on such a copy without a build passes but for the files that need the built
// packages.)
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDoc } from '../support/docs.js';
import { runBlocks, shellBlocks, stopBlockGroups } from '../support/shellBlocks.js';

const repo = join(import.meta.dirname, '..', '..');
/** The page of rename day, and the words that open the fork's steps on it. */
const PAGE = 'docs/rename.md';
const HEADING = '**In your fork, to make the renamed schema the default**';

/** What a checkout holds that the copy leaves out: installs, builds, reports, other forks. */
function copied(source: string): boolean {
  const path = relative(repo, source).split(sep);
  const name = basename(source);
  if (path.length === 1 && ['node_modules', '.git', 'dist-types', '.vitest-report.json'].includes(name)) return false;
  if (name.startsWith('.rename-fork-')) return false;
  if (path[0] === 'packages' && name === 'dist') return false;
  return !(path[0] === 'test' && path[1] === 'browser' && name === 'output');
}

const PRELUDE = `set -e
trap 'echo "rename steps: failed (exit $?): $BASH_COMMAND" >&2' ERR
npm() {
  case "$*" in
    "run codegen") command npm run -s codegen ;;
    test) npx vitest run test/codegen/schema.test.ts test/codegen/rename.test.ts test/codegen/schemaGeneration.test.ts test/types/*.test.ts ;;
    *) echo "rename steps: npm $* is not one of the README's steps" >&2; return 1 ;;
  esac
}
`;

describe("the README's rename steps for a fork", () => {
  const fork = mkdtempSync(join(tmpdir(), 'labelkit-rename-steps-'));
  afterAll(() => {
    stopBlockGroups();
    rmSync(fork, { recursive: true, force: true });
  });

  it('rename schema.graphql, regenerate and pass the codegen and type tests on a copy of the repository', { timeout: 600_000 }, async () => {
    const page = readDoc(PAGE);
    const headingLine = page.slice(0, page.indexOf(HEADING)).split('\n').length;
    expect(page).toContain(HEADING);
    const block = shellBlocks(page).find((b) => b.line > headingLine);
    if (!block) throw new Error(`${PAGE}: no sh block after ${HEADING}`);
    expect(block.text).toMatch(/schema\.graphql[\s\S]*npm run codegen[\s\S]*npm test/);

    cpSync(repo, fork, { recursive: true, filter: copied });
    symlinkSync(join(repo, 'node_modules'), join(fork, 'node_modules'), 'dir');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('LABELKIT_')));
    const outcome = await runBlocks([block], fork, 540_000, { ...env, NO_COLOR: '1' }, PRELUDE);
    expect({ status: outcome.status, leftover: outcome.leftover }, outcome.output).toEqual({ status: 0, leftover: [] });

    // The steps did what they say: the schema is renamed, both generations regenerated from it
    // byte for byte as before (the renamed schema is the one source of both).
    const schema = readFileSync(join(fork, 'schema.graphql'), 'utf8');
    expect(schema).not.toMatch(/\btag(Items|Name):/);
    expect(schema).toContain('appendLabelSetTagItems'); // the README: it may stay
    expect(readFileSync(join(fork, 'generated', 'labels', 'graphql.ts'), 'utf8')).toMatch(/"value":"labelItems"/);
    for (const file of ['generated/tags/graphql.ts', 'generated/labels/graphql.ts']) {
      expect(readFileSync(join(fork, file), 'utf8'), file).toBe(readFileSync(join(repo, file), 'utf8'));
    }
    // …and the suites ran there, none failed or was skipped as a whole.
    expect(outcome.output).toMatch(/Test Files\s+\d+ passed \(\d+\)/);
    expect(outcome.output).toMatch(/rename\.test\.ts/);
    expect(outcome.output).toMatch(/schema\.test\.ts/);
    expect(outcome.output).toMatch(/typecheck\.test\.ts/); // the whole project type-checked in the copy
  });
});
