import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { connectionSources } from '../../src/cli/connection.js';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// Every hint names the flag or variable of the command that ran, and the source the value came
// from (flag, variable, file). The commands run in process through main(argv, io); the failures
// that are HTTP happen over real HTTP on 127.0.0.1.
const SENTINEL = 'SENTINEL-hint-token-5c1e';
const dir = tempDir('labelkit-cli-hints-');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const lines = (text: string) => text.split('\n').filter(Boolean);

/** A port on 127.0.0.1 that nothing listens on any more (listened on, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let emu: RunningEmulator;
let deadUrl: string;
beforeAll(async () => {
  emu = await startEmulator();
  deadUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(async () => {
  await emu?.close();
});

describe('a refused credential', () => {
  it('names the token file, not LABELKIT_TOKEN, when the wrong token came from --token-file', async () => {
    // LABELKIT_TOKEN holds the right token: the run used the file, so the file is what to check.
    const tokenFile = file('wrong-token', `${SENTINEL}\n`);
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token });
    expect(await main(argv('cabinet', '--project', 'demo-project', '--role', 'LABELER', '--token-file', tokenFile), io)).toBe(3);
    expect(lines(io.err())).toHaveLength(1);
    expect(io.err()).toMatch(/^labelkit: \[Auth\] .*\(hint: check the access token in .*wrong-token \(--token-file\)\)\n$/);
    expect(io.err()).not.toContain('LABELKIT_TOKEN');
    expect(io.out() + io.err()).not.toContain(SENTINEL);
  });

  it('names where a token that cannot go into a header came from, and sends nothing (exit 2)', async () => {
    const tokenFile = file('bell-token', `${SENTINEL}\u0007x\n`);
    const io = fakeIo({ LABELKIT_URL: deadUrl });
    expect(await main(argv('cabinet', '--project', 'demo-project', '--role', 'LABELER', '--token-file', tokenFile), io)).toBe(2);
    expect(io.err()).toMatch(/the access token in .*bell-token \(--token-file\): cannot go into the Authorization header/);
    expect(io.out() + io.err()).not.toContain(SENTINEL);
  });

  it('names --token-stdin when the wrong token was piped', async () => {
    const io = fakeIo({ LABELKIT_URL: emu.url }, { stdin: SENTINEL });
    expect(await main(argv('jobs', 'job-1', '--token-stdin'), io)).toBe(3);
    expect(io.err()).toMatch(/\(hint: check the access token piped to --token-stdin\)\n$/);
    expect(io.out() + io.err()).not.toContain(SENTINEL);
  });

  it('names the client id variable and the secret file when the token endpoint refuses the client credentials', async () => {
    const secretFile = file('wrong-client-secret', SENTINEL);
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_CLIENT_ID: emu.clientId, LABELKIT_TOKEN: emu.token });
    expect(await main(argv('cabinet', '--project', 'demo-project', '--role', 'LABELER', '--client-secret-file', secretFile), io)).toBe(3);
    expect(io.err()).toMatch(/\(hint: check LABELKIT_CLIENT_ID and the client secret in .*wrong-client-secret \(--client-secret-file\)\)\n$/);
    expect(io.err()).not.toContain('LABELKIT_TOKEN');
    expect(io.out() + io.err()).not.toContain(SENTINEL);
  });

  it('names the variables when both client credentials came from the environment', async () => {
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_CLIENT_ID: emu.clientId, LABELKIT_CLIENT_SECRET: SENTINEL });
    expect(await main(argv('cabinet', '--project', 'demo-project', '--role', 'LABELER'), io)).toBe(3);
    expect(io.err()).toMatch(/\(hint: check LABELKIT_CLIENT_ID and LABELKIT_CLIENT_SECRET\)\n$/);
    expect(io.out() + io.err()).not.toContain(SENTINEL);
  });
});

describe('connectionSources', () => {
  it('names the source resolveConnection takes the credential from, in its order', () => {
    const env = { LABELKIT_TOKEN: 't', LABELKIT_URL: 'http://127.0.0.1:4000/graphql' };
    expect(connectionSources({}, env)).toEqual({ url: 'LABELKIT_URL', credential: 'LABELKIT_TOKEN (the access token)' });
    expect(connectionSources({ url: 'http://x/graphql', token: 't' }, env)).toEqual({ url: '--url', credential: 'the access token given with --token' });
    expect(connectionSources({ clientId: 'c', clientSecretFile: 's.txt' }, env)).toEqual({
      url: 'LABELKIT_URL',
      credential: 'the client id given with --client-id and the client secret in s.txt (--client-secret-file)',
    });
    expect(connectionSources({}, { LABELKIT_TOKEN: '  ' }).credential).toBe('LABELKIT_CLIENT_ID and LABELKIT_CLIENT_SECRET');
  });
});

describe('an unreachable service or model', () => {
  it('names --url, not LABELKIT_URL, when the URL came from the flag', async () => {
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token });
    expect(await main(argv('cabinet', '--project', 'p', '--role', 'LABELER', '--retries', '0', '--url', `${deadUrl}/graphql`), io)).toBe(4);
    expect(io.err()).toMatch(/^labelkit: \[Network\] .*\(hint: check the URL \(--url\) and that the service is up; --verbose shows details\)\n$/);
    expect(io.err()).not.toContain('LABELKIT_URL');
  });

  it('names LABELKIT_URL when the URL came from the environment', async () => {
    const io = fakeIo({ LABELKIT_URL: `${deadUrl}/graphql`, LABELKIT_TOKEN: emu.token });
    expect(await main(argv('jobs', 'job-1', '--retries', '0'), io)).toBe(4);
    expect(io.err()).toMatch(/\(hint: check the URL \(LABELKIT_URL\) and that the service is up; --verbose shows details\)\n$/);
  });

  it('points model check at its <url> argument and the model, not at --url or LABELKIT_URL', async () => {
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token, LABELKIT_MODEL_SECRET: SENTINEL });
    expect(await main(argv('model', 'check', `${deadUrl}/`), io)).toBe(4);
    expect(lines(io.err())).toHaveLength(1);
    expect(io.err()).toMatch(/^labelkit: \[Network\] cannot reach the model at .*\(hint: check the URL \(the <url> argument\).*model is up.*\)\n$/);
    expect(io.err()).not.toMatch(/--url|LABELKIT_URL/);
    expect(io.out() + io.err()).not.toContain(SENTINEL);
  });
});

describe('labelkit model', () => {
  it('does not hint at the secret variable when only --port is wrong', async () => {
    const io = fakeIo({ LABELKIT_MODEL_SECRET: SENTINEL });
    expect(await main(argv('model', '--port', 'abc'), io)).toBe(2);
    expect(lines(io.err())).toHaveLength(1);
    expect(io.err()).toMatch(/^labelkit: --port: .*\(hint: labelkit model --help lists every flag and variable\)\n$/);
    expect(io.err()).not.toContain('LABELKIT_MODEL_SECRET');
  });

  it('names the variable it read, with its remedy on its own line, when the secret is missing too', async () => {
    const io = fakeIo({});
    expect(await main(argv('model', '--port', 'abc', '--secret-key-env', 'MY_MODEL_SECRET'), io)).toBe(2);
    const err = lines(io.err());
    expect(err[0]).toBe('labelkit: invalid input, 2 problems (nothing was sent):');
    expect(err[1]).toMatch(/^ {2}--port: /);
    expect(err[1]).not.toContain('MY_MODEL_SECRET');
    expect(err[2]).toMatch(/^ {2}MY_MODEL_SECRET: not set: export MY_MODEL_SECRET=… .*--secret-key-env/);
    expect(err[3]).toBe('hint: labelkit model --help lists every flag and variable');
  });
});

describe('labelkit auto-label', () => {
  const env = () => ({ LABELKIT_URL: `${deadUrl}/graphql`, LABELKIT_TOKEN: 't0ken', LABELKIT_MODEL_SECRET: SENTINEL });
  const base = ['--labeler-email', 'labeler@example.com', '--files-per-request', '1'];

  it('names --allow-insecure-endpoint, not the library option, for a plain-http endpoint on another host', async () => {
    const io = fakeIo(env());
    expect(await main(argv('auto-label', '--project', 'p1', ...base, '--endpoint', 'http://model.example.com/'), io)).toBe(2);
    expect(lines(io.err())).toEqual([expect.stringMatching(/^labelkit: --endpoint: .*plain http.*secret key would travel in clear.*\(--allow-insecure-endpoint\) \(hint: labelkit auto-label --help/)]);
    expect(io.err()).not.toContain('allowInsecureEndpoint');
    expect(io.out() + io.err()).not.toContain(SENTINEL);
  });

  it('names --allow-insecure-endpoint over many projects as well', async () => {
    const io = fakeIo(env());
    expect(await main(argv('auto-label', '--project', 'p1', '--project', 'p2', ...base, '--endpoint', 'http://model.example.com/'), io)).toBe(2);
    expect(io.err()).toContain('(--allow-insecure-endpoint)');
    expect(io.err()).not.toContain('allowInsecureEndpoint');
  });

  it('names --journal and --force when the journal was written for another configuration, and sends nothing', async () => {
    // The service URL is a closed port: had anything been sent, the exit would be 4, not 2.
    const journal = file(
      'other-config.ndjson',
      [
        { type: 'run', at: '2025-01-01T00:00:00.000Z', url: 'http://other.example/graphql' },
        { type: 'intent', at: '2025-01-01T00:00:01.000Z', projectId: 'force', config: { endpoint: 'http://127.0.0.1:5000/', numberOfFilesPerRequest: 9, labelerEmail: 'labeler@example.com', role: null } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const io = fakeIo(env());
    expect(await main(argv('auto-label', '--project', 'force', '--journal', journal, ...base, '--endpoint', 'http://127.0.0.1:5000/'), io)).toBe(2);
    const err = lines(io.err());
    expect(err[0]).toBe('labelkit: invalid input, 3 problems (nothing was sent):');
    expect(err[1]).toBe(`  --journal: was written for the service at http://other.example/graphql; this run uses ${deadUrl}/graphql`);
    // A project id that happens to be "force" stays a project id.
    expect(err[2]).toMatch(/^ {2}--files-per-request: 1 project of the journal \(force\) was run with files per request 9; this run uses \d+$/);
    expect(err[3]).toBe('  --journal: use another journal file, or --force to use this one anyway');
    expect(err[4]).toBe('hint: labelkit auto-label --help lists every flag and variable');
  });

  it('names --retry-failed in the plan of a dry run', async () => {
    const config = { endpoint: 'http://127.0.0.1:5000/', numberOfFilesPerRequest: 1, labelerEmail: 'labeler@example.com', role: null };
    const journal = file(
      'failed.ndjson',
      [
        { type: 'run', at: '2025-01-01T00:00:00.000Z', url: `${deadUrl}/graphql` },
        { type: 'intent', at: '2025-01-01T00:00:01.000Z', projectId: 'p1', config },
        { type: 'outcome', at: '2025-01-01T00:00:02.000Z', projectId: 'p1', outcome: 'failed', jobId: 'job-1', errors: ['boom'] },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const io = fakeIo(env());
    expect(await main(argv('auto-label', '--project', 'p1', '--journal', journal, ...base, '--endpoint', 'http://127.0.0.1:5000/', '--dry-run'), io)).toBe(0);
    expect(io.out()).toMatch(/^p1\s+skip\s+job-1\s+failed in an earlier run; --retry-failed to start it again$/m);
    const json = fakeIo(env());
    expect(await main(argv('auto-label', '--project', 'p1', '--journal', journal, ...base, '--endpoint', 'http://127.0.0.1:5000/', '--dry-run', '--json'), json)).toBe(0);
    expect(JSON.parse(lines(json.out())[0]!)).toMatchObject({ event: 'plan', projectId: 'p1', reason: 'failed in an earlier run; --retry-failed to start it again' });
  });

  it("says in --force's help that labeler and role count as the configuration too", async () => {
    const io = fakeIo();
    expect(await main(argv('auto-label', '--help'), io)).toBe(0);
    // The help wraps long descriptions: read --force's up to the next flag.
    const force = /\s--force\s+(.*?)\s+--[a-z]/.exec(io.out().replace(/\s+/g, ' '))?.[1];
    expect(force).toMatch(/\blabeler\b/);
    expect(force).toMatch(/\brole\b/);
  });
});
