import { accessSync, constants } from 'node:fs';

/** Where the browser tests look for Chromium, in order (the first that can run wins). */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The line printed when the browser tests are skipped. */
export const SKIP_LINE =
  'browser tests skipped: no Chromium found. Enable them with `sudo apt-get install -y chromium` (Debian/Ubuntu) or LABELKIT_CHROMIUM=/path/to/chromium; they never download a browser.';

/**
 * Finds a Chromium binary to drive with playwright-core: `LABELKIT_CHROMIUM`, else the system's.
 *
 * @returns the path, or undefined when none is installed (the browser tests then skip)
 * @remarks When `LABELKIT_CHROMIUM` is set, only that path is tried.
 */
export function findChromium(): string | undefined {
  const candidates = process.env.LABELKIT_CHROMIUM ? [process.env.LABELKIT_CHROMIUM] : CHROMIUM_CANDIDATES;
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here: try the next one
    }
  }
  return undefined;
}
