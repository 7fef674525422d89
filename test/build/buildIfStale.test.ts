import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const script = readFileSync(join(repo, 'scripts/buildIfStale.mjs'), 'utf8');

interface Script {
  buildIfStale(options?: { log?: (line: string) => void }): Promise<{ built: boolean; reason?: string; status: number }>;
  staleReason(): Promise<string | undefined>;
  BUILD_COMMAND: string;
  INPUTS: string[];
  STAMP: string;
}

// Fixed file times, set with utimes: nothing here depends on the clock or on how long anything takes.
const OLD = new Date('2020-01-01T00:00:00Z');
const NEWER = new Date('2021-01-01T00:00:00Z');
const DURING_BUILD = new Date('2022-01-01T00:00:00Z');
const LATER = new Date('2023-01-01T00:00:00Z');

/** One file of each kind of input the real script lists, plus files that are not inputs. */
const INPUT_FILES = ['src/a/b.ts', 'generated/graphql.ts', 'schema.graphql', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'package.json', 'packages/labelkit/package.json', 'packages/labelkit-tools/package.json'];
/** Folders the fixture has; those walked as inputs themselves are the first three. */
const FOLDERS = ['src', 'src/a', 'generated', 'scripts', 'packages', 'packages/labelkit', 'packages/labelkit-tools'];
const INPUT_FOLDERS = FOLDERS.slice(0, 3);

// The build of the fixture: counts its runs, fails on request, and can save an input while it runs.
const FAKE_BUILD = `
import { appendFileSync, existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
appendFileSync('builds.log', 'built\\n');
if (existsSync('fail-next')) process.exit(3);
if (existsSync('touch-during-build')) utimesSync('src/a/b.ts', new Date('${DURING_BUILD.toISOString()}'), new Date('${DURING_BUILD.toISOString()}'));
mkdirSync('packages/labelkit/dist', { recursive: true });
mkdirSync('packages/labelkit-tools/dist', { recursive: true });
writeFileSync('packages/labelkit/dist/index.js', '');
writeFileSync('packages/labelkit-tools/dist/cli.js', '');
`;

describe('scripts/buildIfStale.mjs', () => {
  let root: string;
  let mod: Script;
  const builds = () => (existsSync(join(root, 'builds.log')) ? readFileSync(join(root, 'builds.log'), 'utf8').split('\n').filter(Boolean).length : 0);
  const setTime = (path: string, time: Date) => utimesSync(join(root, path), time, time);
  const lines: string[] = [];
  const build = () => mod.buildIfStale({ log: (line) => lines.push(line) });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'labelkit-build-if-stale-'));
    for (const file of [...INPUT_FILES, 'README.md', 'build.mjs']) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), file === 'build.mjs' ? FAKE_BUILD : '{}\n');
    }
    // The real script, in the fixture's scripts/ (so its ROOT is the fixture), with a build command
    // that skips npm's start-up; the command is one of the constants meant to be re-pointed.
    expect(script).toContain("export const BUILD_COMMAND = 'npm run -s build';");
    writeFileSync(join(root, 'scripts/buildIfStale.mjs'), script.replace("'npm run -s build'", "'node build.mjs'"));
    for (const path of [...INPUT_FILES, ...FOLDERS]) setTime(path, OLD);
    mod = (await import(pathToFileURL(join(root, 'scripts/buildIfStale.mjs')).href)) as Script;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('builds when no build has been stamped, then skips while no input changes (a change outside the inputs included)', async () => {
    expect(await build()).toEqual({ built: true, reason: `no stamp of a successful build (${mod.STAMP})`, status: 0 });
    expect(lines).toEqual([`building: no stamp of a successful build (${mod.STAMP})`]);
    expect(existsSync(join(root, mod.STAMP))).toBe(true);
    expect(await build()).toEqual({ built: false, reason: undefined, status: 0 });
    setTime('README.md', NEWER);
    setTime('build.mjs', NEWER);
    expect(await build()).toEqual({ built: false, reason: undefined, status: 0 });
    expect(builds()).toBe(1);
  });

  it('names each input that is newer than the last build: files deep in src/ and generated/, the tsconfig*.json pattern, single files', async () => {
    expect(mod.INPUTS).toEqual(['src', 'generated', 'schema.graphql', 'tsconfig*.json', 'scripts/build.mjs', 'package.json', 'packages/labelkit/package.json', 'packages/labelkit-tools/package.json']);
    for (const path of [...INPUT_FILES, ...INPUT_FOLDERS]) {
      setTime(path, NEWER);
      expect(await mod.staleReason(), path).toBe(`${path} changed since the last build`);
      setTime(path, OLD);
      expect(await mod.staleReason(), path).toBeUndefined();
    }
    expect(builds()).toBe(1);
  });

  it('is stale when an input is removed or added with an old time (a copy that kept its mtime)', async () => {
    rmSync(join(root, 'src/a/b.ts'));
    setTime('src/a', OLD); // the folder's own time would tell too; the count must tell alone
    expect(await mod.staleReason()).toBe('inputs were added or removed since the last build (12 then, 11 now)');
    writeFileSync(join(root, 'src/a/b.ts'), '{}\n');
    setTime('src/a/b.ts', OLD);
    writeFileSync(join(root, 'src/a/c.ts'), '{}\n');
    setTime('src/a/c.ts', OLD);
    setTime('src/a', OLD);
    expect(await mod.staleReason()).toBe('inputs were added or removed since the last build (12 then, 13 now)');
    rmSync(join(root, 'src/a/c.ts'));
    setTime('src/a', OLD);
    expect(await mod.staleReason()).toBeUndefined();
  });

  it('rebuilds when an output is missing or the stamp names another build command', async () => {
    rmSync(join(root, 'packages/labelkit-tools/dist/cli.js'));
    expect(await build()).toEqual({ built: true, reason: 'packages/labelkit-tools/dist/cli.js is missing', status: 0 });
    expect(existsSync(join(root, 'packages/labelkit-tools/dist/cli.js'))).toBe(true);
    expect(builds()).toBe(2);
    const stamp = JSON.parse(readFileSync(join(root, mod.STAMP), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(root, mod.STAMP), JSON.stringify({ ...stamp, command: 'make' }));
    expect(await mod.staleReason()).toBe('the build command changed (was "make")');
    writeFileSync(join(root, mod.STAMP), JSON.stringify(stamp));
    expect(await mod.staleReason()).toBeUndefined();
  });

  it('rebuilds next time when an input is saved while the build runs', async () => {
    setTime('schema.graphql', NEWER);
    writeFileSync(join(root, 'touch-during-build'), '');
    expect(await build()).toEqual({ built: true, reason: 'schema.graphql changed since the last build', status: 0 });
    rmSync(join(root, 'touch-during-build'));
    // The build ended after src/a/b.ts was saved, but the stamp holds what the build started from.
    expect(await mod.staleReason()).toBe('src/a/b.ts changed since the last build');
    expect(await build()).toEqual({ built: true, reason: 'src/a/b.ts changed since the last build', status: 0 });
    expect(await mod.staleReason()).toBeUndefined();
    expect(builds()).toBe(4);
  });

  it('exits with the build status and leaves no stamp when the build fails, so the next run builds again', async () => {
    setTime('schema.graphql', LATER);
    writeFileSync(join(root, 'fail-next'), '');
    // As `npm run demo` runs it: the exit code is what stops `&& node bin/labelkit.js demo`.
    const run = spawnSync(process.execPath, [join(root, 'scripts/buildIfStale.mjs')], { cwd: tmpdir(), encoding: 'utf8' });
    expect(run.status).toBe(3);
    expect(run.stderr).toBe('building: schema.graphql changed since the last build\n');
    expect(existsSync(join(root, mod.STAMP))).toBe(false);
    rmSync(join(root, 'fail-next'));
    setTime('schema.graphql', OLD); // even with nothing newer, a failed build is not trusted
    expect(await build()).toEqual({ built: true, reason: `no stamp of a successful build (${mod.STAMP})`, status: 0 });
    expect(builds()).toBe(6);
  });

  it('says "run npm ci first" and builds nothing when the dependencies are not installed', async () => {
    setTime('schema.graphql', LATER);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ devDependencies: { esbuild: '*', typescript: '*' } }));
    setTime('package.json', OLD);
    const before = builds();
    lines.length = 0;
    expect(await build()).toEqual({ built: false, reason: 'schema.graphql changed since the last build', status: 1 });
    expect(lines).toEqual([expect.stringMatching(/^labelkit: cannot build: 2 of .*dependencies are not installed \(esbuild, typescript\); run npm ci first/)]);
    mkdirSync(join(root, 'node_modules', 'esbuild'), { recursive: true });
    mkdirSync(join(root, 'node_modules', 'typescript'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'esbuild', 'package.json'), '{}');
    writeFileSync(join(root, 'node_modules', 'typescript', 'package.json'), '{}');
    expect(await build()).toMatchObject({ built: true, status: 0 });
    expect(builds()).toBe(before + 1);
    writeFileSync(join(root, 'package.json'), '{}\n');
    setTime('package.json', OLD);
  });

  it('npm run demo before npm ci says "run npm ci first" in one line, without a module-not-found stack', () => {
    // A checkout as cloned: the root manifest, scripts/ and the bin shim, no node_modules.
    const clone = mkdtempSync(join(tmpdir(), 'labelkit-fresh-clone-'));
    try {
      for (const file of ['package.json', 'scripts/buildIfStale.mjs', 'scripts/build.mjs', 'packages/labelkit/package.json', 'packages/labelkit-tools/package.json', 'packages/labelkit-tools/bin/labelkit.js']) {
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        writeFileSync(join(clone, file), readFileSync(join(repo, file)));
      }
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const demo = spawnSync(npm, ['run', '-s', 'demo'], { cwd: clone, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: clone }, timeout: 60_000 });
      expect(demo.status).toBe(1);
      expect(demo.stdout).toBe('');
      expect(demo.stderr).toMatch(/^labelkit: cannot build: \d+ of the repository's dependencies are not installed \(.*\); run npm ci first\n$/);
      // The shim alone (`npx labelkit`, or the bin run directly) says the same before npm ci.
      const shim = spawnSync(process.execPath, [join(clone, 'packages/labelkit-tools/bin/labelkit.js'), 'demo'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect({ status: shim.status, stderr: shim.stderr }).toEqual({ status: 1, stderr: 'labelkit: the CLI is not built and the dependencies are not installed; run npm ci first, then npm run build\n' });
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('is what npm run demo, npm run bench and npm run test:quick start with', () => {
    const { scripts } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.demo).toMatch(/^node scripts\/buildIfStale\.mjs && /);
    expect(scripts.bench).toMatch(/^node scripts\/buildIfStale\.mjs && /);
    // test/cli/doctor.test.ts (quick tier) type-checks its fixture apps against the built labelkit
    // package: in a fresh clone, without a build, it failed all but one of its cases.
    expect(scripts['test:quick']).toMatch(/^node scripts\/buildIfStale\.mjs && vitest run /);
  });
});
