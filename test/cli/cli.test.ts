import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/client/index.js';
import { runDemo } from '../../src/demo/index.js';
import { demoProject } from '../../src/emulator/index.js';

const run = promisify(execFile);
const bin = join(import.meta.dirname, '..', '..', 'bin', 'labelkit.js');
// The built binary (npm test builds before vitest runs).
const labelkit = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('runDemo', () => {
  it('returns 0 and prints DELIVERED and the labels each document got', async () => {
    const lines: string[] = [];
    expect(await runDemo({ out: (l) => lines.push(l) })).toBe(0);
    expect(lines).toContain('status    DELIVERED');
    const counts = lines.filter((l) => l.startsWith('labels    ')).map((l) => Number(l.split(': ')[1]));
    expect(counts).toHaveLength(demoProject().documents.length);
    for (const n of counts) expect(n).toBeGreaterThan(0);
    expect(lines.some((l) => /\[[^\]]+\]\{PERSON\}/.test(l))).toBe(true);
  });
});

describe('the labelkit binary', () => {
  it('prints its version', async () => {
    expect(await labelkit(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('runs the demo to DELIVERED with exit 0', async () => {
    const r = await labelkit(['demo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('status    DELIVERED');
  });

  it('exits 2 with a hint when the model has no secret', async () => {
    const r = await labelkit(['model', '--secret-key-env', 'LABELKIT_TEST_UNSET_VAR']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('labelkit: no secret key (hint: export LABELKIT_TEST_UNSET_VAR=…)\n');
  });

  it('exits 2 on an unknown command', async () => {
    expect((await labelkit(['frobnicate'])).code).toBe(2);
  });
});
