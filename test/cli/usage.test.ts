import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { BIN } from '../support/spawnCli.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// Usage errors: one line, `labelkit:` first, a `--help` hint naming the command, exit 2; also
// for the argument parser's own errors. And the shim before a build.
const SENTINEL = 'SENTINEL-usage-secret-2b9d';

// A stand-in service that counts what reaches it (nothing should).
let requests = 0;
const server = createServer((_req, res) => {
  requests++;
  res.writeHead(500).end();
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
const env = () => ({ LABELKIT_URL: url, LABELKIT_TOKEN: 't0ken' });

describe('labelkit jobs without --wait', () => {
  it('refuses --timeout, saying it needs --wait, exits 2 and sends nothing', async () => {
    const before = requests;
    const io = fakeIo(env());
    expect(await main(argv('jobs', 'job-1', '--timeout', '5s'), io)).toBe(2);
    expect(io.err().split('\n')).toEqual([expect.stringMatching(/^labelkit: --timeout: only applies with --wait .*\(hint: labelkit jobs --help/), '']);
    expect(io.err()).not.toContain('t0ken');
    expect(io.out()).toBe('');
    expect(requests).toBe(before);
  });

  it('refuses --interval too, listing both problems at once', async () => {
    const before = requests;
    const io = fakeIo(env());
    expect(await main(argv('jobs', 'job-1', '--timeout', '5s', '--interval', '1s'), io)).toBe(2);
    expect(io.err().split('\n').slice(1, 3)).toEqual([
      '  --timeout: only applies with --wait (add --wait to wait for the jobs, or drop --timeout)',
      '  --interval: only applies with --wait (add --wait to wait for the jobs, or drop --interval)',
    ]);
    expect(requests).toBe(before);
  });
});

describe('errors of the argument parser', () => {
  const run = async (...args: string[]) => {
    const io = fakeIo(env());
    const code = await main(argv(...args), io);
    return { code, stdout: io.out(), stderr: io.err() };
  };

  it('prints an unknown option as one labelkit: line with the command’s --help, exit 2', async () => {
    expect(await run('cabinet', '--bogus')).toEqual({ code: 2, stdout: '', stderr: "labelkit: unknown option '--bogus' (hint: labelkit cabinet --help)\n" });
  });

  it('prints a missing argument the same way', async () => {
    expect(await run('jobs')).toEqual({ code: 2, stdout: '', stderr: "labelkit: missing required argument 'id' (hint: labelkit jobs --help)\n" });
  });

  it('names the whole command path for a subcommand', async () => {
    expect(await run('model', 'check')).toEqual({ code: 2, stdout: '', stderr: "labelkit: missing required argument 'url' (hint: labelkit model check --help)\n" });
  });

  it('points at labelkit --help for an unknown command', async () => {
    expect(await run('bogus')).toEqual({ code: 2, stdout: '', stderr: "labelkit: unknown command 'bogus' (hint: labelkit --help)\n" });
  });

  it('keeps a suggestion on the same line', async () => {
    const r = await run('cabinet', '--projct', 'p');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("labelkit: unknown option '--projct' (Did you mean --project?) (hint: labelkit cabinet --help)\n");
  });

  it('leaves out the value of a misspelt --flag=value, which may be a secret', async () => {
    const r = await run('cabinet', `--tokn=${SENTINEL}`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^labelkit: unknown option '--tokn=…'.* \(hint: labelkit cabinet --help\)\n$/);
    expect(r.stderr).not.toContain(SENTINEL);
  });

  it('prints a missing option value the same way', async () => {
    expect(await run('cabinet', '--project')).toEqual({
      code: 2,
      stdout: '',
      stderr: "labelkit: option '--project <id>' argument missing (hint: labelkit cabinet --help)\n",
    });
  });
});

describe('bin/labelkit.js', () => {
  // A copy of the shim in a folder of its own: the real dist/ is never touched.
  const copyShim = () => {
    const root = tempDir('labelkit-shim-');
    mkdirSync(join(root, 'bin'));
    copyFileSync(BIN, join(root, 'bin', 'labelkit.js'));
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    return root;
  };
  const runShim = (root: string) => spawnSync(process.execPath, [join(root, 'bin', 'labelkit.js'), '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });

  it('says to run npm ci first, without a stack, and exits 1 when neither dist nor the dependencies are there (a fresh clone)', () => {
    const r = runShim(copyShim());
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: 'labelkit: the CLI is not built and the dependencies are not installed; run npm ci first, then npm run build\n',
    });
  });

  it('says to run npm run build, without a stack, and exits 1 when dist is missing after npm ci', () => {
    const root = copyShim();
    // What the build needs, installed (a stand-in esbuild: only its presence is looked at).
    mkdirSync(join(root, 'node_modules', 'esbuild'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'esbuild', 'package.json'), '{ "name": "esbuild", "main": "main.js" }\n');
    writeFileSync(join(root, 'node_modules', 'esbuild', 'main.js'), '');
    const r = runShim(root);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: 'labelkit: the CLI is not built; run npm run build first\n',
    });
  });

  it('runs the built CLI for --help too: commander prints the help, nothing captured at build time is read', () => {
    const root = copyShim();
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', 'cli.js'), "export async function main(argv) { process.stdout.write(`cli ${argv.slice(2).join(' ')}\\n`); return 0; }\n");
    // A leftover of the former build step (issue 25 removed it): the shim must not print it.
    writeFileSync(join(root, 'dist', 'help.js'), "export const STORED_HELP = {}; export const helpWidthOf = () => 80; export const storedHelp = () => 'stored help\\n';\n");
    const r = runShim(root);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: 'cli --help\n', stderr: '' });
  });

  it('lets any other failure of the built CLI through as it is', () => {
    const root = copyShim();
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', 'cli.js'), "import 'labelkit-no-such-package';\nexport async function main() { return 0; }\n");
    const r = runShim(root);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('labelkit-no-such-package');
    expect(r.stderr).not.toContain('not built');
  });
});
