// The steps for a fork after the service's tag→label rename (docs/rename.md, "In your fork, to make
// the renamed schema the default"), read from the page when the test runs, run in bash on a copy of
// the repository: the `sed` line and `npm run codegen` as printed. `npm test` there runs the suites
// that read schema.graphql and generated/ — test/codegen/ (schema.test.ts and rename.test.ts are
// the two that failed after these steps; this file itself is left out, or it would run again in
// the copy) — not the full suite, which would take minutes more. (By hand, the full suite on such a
// copy without a build passes but for the files that need the built packages.)
//
// Then the type check of what the steps changed: the test compares the copy with the checkout,
// finds every file the steps changed and every TypeScript file of the copy that imports one of them
// (directly or through others, by relative path or by the published names that tsconfig.json's
// `paths` give), and runs tsc over exactly those in the copy (their imports are checked with them;
// a type test, *.test-d.ts, that fails is a tsc error there). Every changed file must be in that set
// but schema.graphql, which the codegen tests read. The whole project's type check
// (test/types/typecheck.test.ts) ran here before; it checked the same files and some 300 others
// that the steps do not touch, for about 10 s of CPU. Since generated/graphql.ts was retired the
// steps change schema.graphql alone (generated/ comes out byte for byte as before), so the set is
// empty and there is nothing for tsc to check in the copy that the run's own type check does not.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
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
    test) npx vitest run test/codegen/schema.test.ts test/codegen/rename.test.ts test/codegen/schemaGeneration.test.ts ;;
    *) echo "rename steps: npm $* is not one of the page's steps" >&2; return 1 ;;
  esac
}
`;

/** The files under `dir` (paths from it, `/`-separated), leaving out what {@link copied} leaves out and the node_modules link. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.startsWith('node_modules/') && copied(join(repo, path)) && path.split('/').every((_, i, all) => copied(join(repo, ...all.slice(0, i + 1)))));
}

/** The files of the copy that the steps changed or made, as paths from its root. */
function changedFiles(fork: string): string[] {
  return filesOf(fork).filter((path) => !existsSync(join(repo, path)) || !readFileSync(join(repo, path)).equals(readFileSync(join(fork, path))));
}

/**
 * The TypeScript files of the copy that import one of `changed`, directly or through each other:
 * by a relative specifier (`../../generated/graphql.js`) or a published name that tsconfig.json's
 * `paths` maps to a file (`labelkit/documents`).
 */
function importersOf(fork: string, changed: Set<string>): Set<string> {
  const paths = new Map(
    Object.entries((JSON.parse(readFileSync(join(fork, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths).map(
      ([name, [target]]) => [name, target!.replace(/^\.\//, '')],
    ),
  );
  const imports = new Map(
    filesOf(fork)
      .filter((path) => /\.m?ts$/.test(path))
      .map((path) => {
        const text = readFileSync(join(fork, path), 'utf8');
        const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
        const resolved = specifiers.map((s) => (s.startsWith('.') ? join(dirname(path), s).split(sep).join('/').replace(/\.(m?)js$/, '.$1ts') : paths.get(s)));
        return [path, resolved.filter((r): r is string => r !== undefined)] as const;
      }),
  );
  const found = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [path, targets] of imports) {
      if (!found.has(path) && targets.some((target) => changed.has(target) || found.has(target))) {
        found.add(path);
        grew = true;
      }
    }
  }
  return found;
}

describe("the rename steps for a fork (docs/rename.md)", () => {
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
    expect(schema).toContain('appendLabelSetTagItems'); // the page: it may stay
    expect(readFileSync(join(fork, 'generated', 'labels', 'graphql.ts'), 'utf8')).toMatch(/"value":"labelItems"/);
    for (const file of ['generated/tags/graphql.ts', 'generated/labels/graphql.ts']) {
      expect(readFileSync(join(fork, file), 'utf8'), file).toBe(readFileSync(join(repo, file), 'utf8'));
    }
    // …and the suites ran there, none failed or was skipped as a whole.
    expect(outcome.output).toMatch(/Test Files\s+\d+ passed \(\d+\)/);
    expect(outcome.output).toMatch(/rename\.test\.ts/);
    expect(outcome.output).toMatch(/schema\.test\.ts/);

    // The type check of what the steps changed and of every file that imports it, in the copy.
    const changed = changedFiles(fork);
    // As the page says, the steps change schema.graphql alone: both generations of generated/ come
    // out byte for byte as before (above), so no TypeScript file of the copy differs from the
    // checkout's, whose whole type check is test/types/typecheck.test.ts of this run.
    expect(changed.sort()).toEqual(['schema.graphql']);
    const checked = new Set([...changed.filter((path) => /\.m?ts$/.test(path)), ...importersOf(fork, new Set(changed))]);
    for (const path of changed) expect(checked.has(path) || path === 'schema.graphql', `${path} changed but is not type-checked`).toBe(true);
    if (checked.size === 0) return; // nothing the steps changed is TypeScript or imported by it
    writeFileSync(join(fork, 'tsconfig.rename-check.json'), JSON.stringify({ extends: './tsconfig.json', include: [], files: [...checked].sort() }));
    const tsc = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(join(repo, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--pretty', 'false', '-p', 'tsconfig.rename-check.json'], { cwd: fork, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
      ),
    );
    expect(tsc, [...checked].join('\n')).toEqual({ code: 0, output: '' });
  });
});
