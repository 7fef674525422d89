// The CI recipe of docs/evaluation.md ("Compare with the last model (a gate for CI)"), read from the
// page when the test runs: its GitHub Actions steps run in order, as Actions would run them, against
// the emulator (test/eval/evalFixture.ts: a project with gold and a model's copy). Each `run:` step
// is a bash of its own (`bash -eo pipefail`, Actions' default) in a fresh folder per run, with the
// built CLI as `npx labelkit`; `${{ … }}` expressions are filled in from a small context; the two
// `uses:` steps (actions/cache/restore and save) are played by a cache held here; `gh pr comment`
// is a shell function that keeps the comment. Three runs, as a project meets them: the first pull
// request (no baseline yet), a run on main (it saves the baseline), a second pull request.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { docSection } from '../support/docs.js';
import { runBlocks, stopBlockGroups } from '../support/shellBlocks.js';
import { useTempDirs } from '../support/tempDirs.js';
import { within } from '../support/testEnvironment.js';
import { MODEL, PROJECT, startEvalFixture } from '../support/evalFixture.js';

const repo = join(import.meta.dirname, '..', '..');
const tempDir = useTempDirs();

interface Step {
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

const section = docSection('Compare with the last model (a gate for CI)');
const recipe = [...section.text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((text) => text.includes('--json-out'));

/** One run of the workflow: which event, which ref, which commit. */
interface Run {
  event: 'pull_request' | 'push';
  ref: string;
  sha: string;
  number?: number;
}

/** What a run did: each step's outcome, the comments it posted, its folder. */
interface RunOutcome {
  steps: { step: string; outcome: 'success' | 'failure' | 'skipped'; output: string }[];
  comments: string[];
  folder: string;
}

describe('docs/evaluation.md: the CI recipe', () => {
  let fixture: Awaited<ReturnType<typeof startEvalFixture>>;
  beforeAll(async () => {
    fixture = await startEvalFixture();
  }, within(60_000));
  afterAll(async () => {
    stopBlockGroups();
    await fixture?.close();
  });

  /** The Actions cache: key → the file's content, newest last. */
  const cache: { key: string; content: string }[] = [];

  /** `${{ expr }}` of the recipe, from this context; an expression it does not know fails the test. */
  const fill = (text: string, run: Run): string =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      const values: Record<string, string> = {
        'vars.LABELKIT_URL': fixture.emu.url,
        'secrets.LABELKIT_TOKEN': fixture.emu.token,
        'github.sha': run.sha,
        'github.event.number': String(run.number ?? ''),
        'github.token': 'gh-test-token',
      };
      if (!(expr in values)) throw new Error(`the recipe uses \${{ ${expr} }}, which this test does not know`);
      return values[expr]!;
    });

  /** An `if:` of the recipe: `always()`, `github.event_name == '…'`, `github.ref == '…'`, joined by `&&`; without one, `success()`. */
  const condition = (expr: string | undefined, run: Run, failed: boolean): boolean => {
    if (expr === undefined) return !failed;
    const parts = expr.split('&&').map((p) => p.trim());
    const always = parts.includes('always()');
    return (always || !failed) && parts.filter((p) => p !== 'always()').every((p) => {
      const m = /^github\.(event_name|ref) == '([^']*)'$/.exec(p);
      if (!m) throw new Error(`the recipe's if: "${expr}" has a term this test does not know: ${p}`);
      return (m[1] === 'event_name' ? run.event : run.ref) === m[2];
    });
  };

  async function runWorkflow(steps: Step[], run: Run): Promise<RunOutcome> {
    const folder = tempDir('labelkit-ci-recipe-');
    symlinkSync(join(repo, 'node_modules'), join(folder, 'node_modules'), 'dir');
    const commentsFile = join(folder, '.posted-comments');
    const outcome: RunOutcome = { steps: [], comments: [], folder };
    let failed = false;
    for (const [i, step] of steps.entries()) {
      const name = step.run?.split('\n')[0] ?? step.uses ?? `step ${i}`;
      if (!condition(step.if, run, failed)) {
        outcome.steps.push({ step: name, outcome: 'skipped', output: '' });
        continue;
      }
      if (step.uses !== undefined) {
        const path = join(folder, step.with!.path!);
        const key = fill(step.with!.key!, run);
        if (step.uses.startsWith('actions/cache/restore@')) {
          const prefix = step.with!['restore-keys'];
          const hit = cache.findLast((c) => c.key === key) ?? (prefix === undefined ? undefined : cache.findLast((c) => c.key.startsWith(prefix)));
          if (hit) writeFileSync(path, hit.content);
        } else if (step.uses.startsWith('actions/cache/save@')) {
          cache.push({ key, content: readFileSync(path, 'utf8') });
        } else throw new Error(`the recipe uses ${step.uses}, which this test does not play`);
        outcome.steps.push({ step: name, outcome: 'success', output: '' });
        continue;
      }
      const env = {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LABELKIT_'))),
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v, run)])),
        PROJECT,
        MODEL_LABELER: MODEL,
        NO_COLOR: '1',
        npm_config_update_notifier: 'false',
        RECIPE_COMMENTS: commentsFile,
      };
      // Actions runs a step as `bash --noprofile --norc -eo pipefail {0}`; gh posts the comment here.
      const prelude = `set -eo pipefail
gh() { [ "$1 $2" = "pr comment" ] || return 64; local body=""; while [ $# -gt 0 ]; do [ "$1" = --body-file ] && body=$2; shift; done; { cat "$body"; printf '\\n@@comment end\\n'; } >> "$RECIPE_COMMENTS"; }
`;
      const result = await runBlocks([{ line: i, text: fill(step.run!, run) }], folder, within(120_000), env, prelude);
      expect(result.leftover, name).toEqual([]);
      const ok = result.status === 0;
      failed ||= !ok;
      outcome.steps.push({ step: name, outcome: ok ? 'success' : 'failure', output: result.output });
    }
    if (existsSync(commentsFile)) outcome.comments = readFileSync(commentsFile, 'utf8').split('\n@@comment end\n').filter((c) => c.trim() !== '');
    return outcome;
  }

  it('works from the first run: no baseline (a note, exit 0), then main saves one, then a pull request compares with it', { timeout: within(300_000) }, async () => {
    expect(recipe, 'a yaml block with --json-out in the section').toBeDefined();
    const steps = parse(recipe!) as Step[];
    expect(steps.some((s) => s.run?.includes('--json-out'))).toBe(true);

    // 1. The first pull request: nothing in the cache.
    const first = await runWorkflow(steps, { event: 'pull_request', ref: 'refs/pull/1/merge', sha: 'a1', number: 1 });
    expect(first.steps.filter((s) => s.outcome === 'failure'), first.steps.map((s) => s.output).join('\n')).toEqual([]);
    expect(first.comments).toHaveLength(1);
    expect(first.comments[0]).toContain(`#### labelkit eval · ${PROJECT} · `); // then the labeler, escaped for markdown
    expect(first.comments[0]).toMatch(/^\| \*\*micro\*\* \|/m);
    expect(first.comments[0]).toMatch(/No baseline yet/);
    const firstReport = JSON.parse(readFileSync(join(first.folder, 'report.json'), 'utf8')) as { version: number; projectId: string; intervals?: unknown };
    expect(firstReport).toMatchObject({ version: 1, projectId: PROJECT });
    expect(firstReport.intervals).toBeDefined();
    expect(cache).toEqual([]); // a pull request saves nothing

    // 2. The merge, on main: the report becomes the baseline.
    const main = await runWorkflow(steps, { event: 'push', ref: 'refs/heads/main', sha: 'b2' });
    expect(main.steps.filter((s) => s.outcome === 'failure'), main.steps.map((s) => s.output).join('\n')).toEqual([]);
    expect(main.comments).toEqual([]);
    expect(cache.map((c) => c.key)).toEqual(['eval-baseline-b2']);
    expect(cache[0]!.content).toBe(readFileSync(join(main.folder, 'report.json'), 'utf8'));

    // 3. The next pull request compares with it, and says so in its comment.
    const second = await runWorkflow(steps, { event: 'pull_request', ref: 'refs/pull/2/merge', sha: 'c3', number: 2 });
    expect(second.steps.filter((s) => s.outcome === 'failure'), second.steps.map((s) => s.output).join('\n')).toEqual([]);
    expect(second.comments).toHaveLength(1);
    expect(second.comments[0]).not.toMatch(/No baseline yet/);
    expect(second.comments[0]).toContain('Baseline: baseline\\.json'); // the name escaped for markdown
    expect(second.comments[0]).toContain('No F1 dropped more than 0.02 beyond noise.');
    const secondReport = JSON.parse(readFileSync(join(second.folder, 'report.json'), 'utf8')) as { comparison?: { regressions: number } };
    expect(secondReport.comparison?.regressions).toBe(0);
  });
});
