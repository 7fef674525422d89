import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isCi } from '../support/testEnvironment.js';

/** The names a Chromium binary goes by on `PATH`, in the order they are tried (the first that can run wins). */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];

/** The line printed when the browser tests are skipped. */
export const SKIP_LINE =
  'browser tests skipped: no Chromium found on PATH (chromium, chromium-browser, google-chrome…). Enable them with `sudo apt-get install -y chromium` (Debian/Ubuntu) or LABELKIT_CHROMIUM=/path/to/chromium; they never download a browser.';

/** Whether `path` is a file this process may run. */
function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds a Chromium binary to drive with playwright-core: `LABELKIT_CHROMIUM`, else the first of
 * {@link CHROMIUM_NAMES} in a folder of `PATH`.
 *
 * @param env - the environment (`LABELKIT_CHROMIUM`, `PATH`, `CI`, `LABELKIT_REQUIRE_CHROMIUM`)
 * @returns the path, or undefined when none is found (the browser tests then skip with {@link SKIP_LINE})
 * @throws when none is found, or `LABELKIT_CHROMIUM` names no runnable file, and CI (`CI=true`, `CI=1`) or
 * `LABELKIT_REQUIRE_CHROMIUM=1`: CI must run these tests (as PostgreSQL's, test/support/postgres.ts),
 * so a missing or misnamed browser fails the run instead of skipping all of them
 * @remarks When `LABELKIT_CHROMIUM` is set, only that path is tried; outside CI a wrong one skips
 * with a line naming it.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const required = isCi(env) || env.LABELKIT_REQUIRE_CHROMIUM === '1';
  const given = env.LABELKIT_CHROMIUM;
  if (given) {
    if (runnable(given)) return given;
    const why = `LABELKIT_CHROMIUM=${given} is not a file this process can run`;
    if (required) throw new Error(`browser tests cannot run: ${why}; CI (CI=true, CI=1) or LABELKIT_REQUIRE_CHROMIUM=1 requires them`);
    console.warn(`browser tests skipped: ${why} (point it at a Chromium binary, or unset it to look on PATH)`);
    return undefined;
  }
  const folders = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of CHROMIUM_NAMES) {
    for (const folder of folders) {
      const path = join(folder, name);
      if (runnable(path)) return path;
    }
  }
  if (required) throw new Error(`${SKIP_LINE.replace('browser tests skipped', 'browser tests cannot run')} CI (CI=true, CI=1) or LABELKIT_REQUIRE_CHROMIUM=1 requires them.`);
  console.warn(SKIP_LINE);
  return undefined;
}
