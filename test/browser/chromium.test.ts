import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { findChromium, SKIP_LINE } from './chromium.js';

// A fake Chromium: an executable file of that name in a folder of its own (never run here).
const root = mkdtempSync(join(tmpdir(), 'labelkit-chromium-'));
const empty = join(root, 'empty');
const bin = join(root, 'bin');
mkdirSync(empty);
mkdirSync(bin);
const fake = (name: string, mode = 0o755) => {
  const path = join(bin, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, mode);
  return path;
};

describe('findChromium', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  afterEach(() => {
    warn.mockClear();
    rmSync(bin, { recursive: true, force: true });
    mkdirSync(bin);
  });
  afterAll(() => {
    warn.mockRestore();
    rmSync(root, { recursive: true, force: true });
  });

  it('finds chromium-browser in a folder of PATH, not only in /usr/bin', () => {
    const path = fake('chromium-browser');
    expect(findChromium({ PATH: [empty, bin].join(delimiter) })).toBe(path);
  });

  it('prefers chromium to chromium-browser, and passes over a file it cannot run', () => {
    fake('chromium', 0o644);
    const browser = fake('chromium-browser');
    expect(findChromium({ PATH: bin })).toBe(browser);
    const chromium = fake('chromium');
    expect(findChromium({ PATH: bin })).toBe(chromium);
  });

  it('skips with a line saying how to enable the tests when there is none and CI is not set', () => {
    expect(findChromium({ PATH: empty })).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(SKIP_LINE);
  });

  it('fails instead of skipping under CI=true, CI=1 or LABELKIT_REQUIRE_CHROMIUM=1 when there is none', () => {
    expect(() => findChromium({ PATH: empty, CI: 'true' })).toThrow(/browser tests cannot run: no Chromium found on PATH.*CI=true/);
    expect(() => findChromium({ PATH: empty, LABELKIT_REQUIRE_CHROMIUM: '1' })).toThrow(/LABELKIT_REQUIRE_CHROMIUM=1 requires them/);
    // CI=1 as much as CI=true (GitLab and others set 1); CI=false or 0 is not CI.
    expect(() => findChromium({ PATH: empty, CI: '1' })).toThrow(/browser tests cannot run: no Chromium found on PATH/);
    for (const off of ['false', '0', '']) expect(findChromium({ PATH: empty, CI: off })).toBeUndefined();
  });

  it('uses LABELKIT_CHROMIUM alone when set, and fails under CI when it names nothing runnable', () => {
    fake('chromium');
    const own = fake('my-chromium');
    expect(findChromium({ PATH: bin, LABELKIT_CHROMIUM: own })).toBe(own);
    const wrong = join(empty, 'no-such-chromium');
    expect(() => findChromium({ PATH: bin, CI: 'true', LABELKIT_CHROMIUM: wrong })).toThrow(`LABELKIT_CHROMIUM=${wrong} is not a file this process can run`);
    expect(() => findChromium({ PATH: bin, CI: 'true', LABELKIT_CHROMIUM: empty })).toThrow('is not a file this process can run');
    // Off CI it skips, naming the variable (a chromium on PATH is not used behind its back).
    expect(findChromium({ PATH: bin, LABELKIT_CHROMIUM: wrong })).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`LABELKIT_CHROMIUM=${wrong}`));
  });
});
