// Runs the build only when it is stale: `npm run demo` and `npm run bench` start with it, so a
// second run does not spend 6–7 s rebuilding what has not changed.
//
// Stale means: no stamp of a successful build, a different build command, a missing output, an
// input newer than the newest input the last build saw, or a different number of inputs (a file
// added or removed). The stamp records the newest input mtime measured *before* that build
// started, not the time it ended, so a file saved while the build ran is rebuilt next time.
//
// The paths and the command are constants below, relative to the folder above this script, so the
// script can be re-pointed (another build command, a workspace package's inputs) by editing them.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The command that builds, run through the shell in ROOT. */
export const BUILD_COMMAND = 'npm run -s build';
/** What the build reads, relative to ROOT: folders are walked; `*` matches within the last name. */
export const INPUTS = ['src', 'generated', 'schema.graphql', 'tsconfig*.json', 'scripts/build.mjs', 'package.json', 'packages/labelkit/package.json', 'packages/labelkit-tools/package.json'];
/** Files a successful build leaves; when one is missing the build is stale whatever the stamp says. */
export const OUTPUTS = ['packages/labelkit/dist/index.js', 'packages/labelkit-tools/dist/cli.js'];
/** Written after a successful build (outside the packages' dist/, which npm pack ships). */
export const STAMP = 'node_modules/.cache/labelkit-build-stamp.json';
/** The folder the paths above are relative to: the package that holds `scripts/`. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const toPosix = (path) => path.split(sep).join('/');

/** Adds every file and folder under `path` (itself included) to `seen` as `relativePath -> mtimeMs`. */
async function walk(path, seen) {
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if (error.code === 'ENOENT') return; // an input that does not exist (yet) is not read by the build either
    throw error;
  }
  // A folder's own mtime changes when an entry is added, removed or renamed in it.
  seen.set(toPosix(relative(ROOT, path)), stats.mtimeMs);
  if (!stats.isDirectory()) return;
  for (const entry of await readdir(path)) await walk(join(path, entry), seen);
}

/** Expands INPUTS (`*` in the last name only) and returns every input path with its mtime. */
async function inputMtimes() {
  const seen = new Map();
  for (const input of INPUTS) {
    if (!input.includes('*')) {
      await walk(join(ROOT, input), seen);
      continue;
    }
    const folder = join(ROOT, dirname(input));
    const pattern = new RegExp(`^${input.slice(input.lastIndexOf('/') + 1).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const names = existsSync(folder) ? await readdir(folder) : [];
    for (const name of names.filter((n) => pattern.test(n)).sort()) await walk(join(folder, name), seen);
  }
  return seen;
}

/** The newest input (path and mtime) and how many inputs there are. */
async function measureInputs() {
  let newestPath = '';
  let newestMs = -Infinity;
  const seen = await inputMtimes();
  for (const [path, ms] of seen) {
    if (ms > newestMs) [newestPath, newestMs] = [path, ms];
  }
  return { newestPath, newestMs, count: seen.size };
}

async function readStamp() {
  try {
    return JSON.parse(await readFile(join(ROOT, STAMP), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why the build is stale, or undefined when it is fresh.
 *
 * @param inputs - a measurement of the inputs (measured now when not given)
 * @returns one line naming the reason, e.g. `src/demo/index.ts changed since the last build`
 */
export async function staleReason(inputs) {
  const now = inputs ?? (await measureInputs());
  const stamp = await readStamp();
  if (!stamp || typeof stamp.newestInputMs !== 'number') return `no stamp of a successful build (${STAMP})`;
  if (stamp.command !== BUILD_COMMAND) return `the build command changed (was ${JSON.stringify(stamp.command)})`;
  const missing = OUTPUTS.find((output) => !existsSync(join(ROOT, output)));
  if (missing) return `${missing} is missing`;
  if (now.newestMs > stamp.newestInputMs) return `${now.newestPath} changed since the last build`;
  if (now.count !== stamp.inputCount) return `inputs were added or removed since the last build (${stamp.inputCount} then, ${now.count} now)`;
  return undefined;
}

/**
 * The packages of ROOT's package.json (dependencies and devDependencies) that are not installed.
 *
 * @returns their names; before `npm ci` that is all of them, and the build could only fail with a
 * module-not-found stack (esbuild is the first import of scripts/build.mjs)
 */
export async function missingDependencies() {
  let manifest;
  try {
    manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  } catch {
    return [];
  }
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  return names.filter((name) => !existsSync(join(ROOT, 'node_modules', name, 'package.json')));
}

function run(command) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { cwd: ROOT, shell: true, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Runs BUILD_COMMAND when the build is stale and, when it succeeds, writes STAMP.
 *
 * @param options - `log` receives the one line said before building
 * @returns `{ built, reason, status }`: `status` is the build's exit code (0 when nothing was
 * built, 1 without building when the dependencies are not installed)
 */
export async function buildIfStale({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const inputs = await measureInputs(); // before the build: a file saved while it runs stays newer
  const reason = await staleReason(inputs);
  if (reason === undefined) return { built: false, reason, status: 0 };
  const missing = await missingDependencies();
  if (missing.length > 0) {
    const some = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ', …' : '');
    log(`labelkit: cannot build: ${missing.length} of the repository's dependencies are not installed (${some}); run npm ci first`);
    return { built: false, reason, status: 1 };
  }
  log(`building: ${reason}`);
  await rm(join(ROOT, STAMP), { force: true }); // a build that fails half-way leaves no stamp behind
  const status = await run(BUILD_COMMAND);
  if (status === 0) {
    await mkdir(dirname(join(ROOT, STAMP)), { recursive: true });
    const stamp = { command: BUILD_COMMAND, newestInputMs: inputs.newestMs, newestInput: inputs.newestPath, inputCount: inputs.count };
    await writeFile(join(ROOT, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
  }
  return { built: true, reason, status };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  process.exitCode = (await buildIfStale()).status;
}
