import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { resolveConnection } from '../../src/cli/connection.js';
import { fakeIo } from '../support/fakeIo.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

const URL = 'http://127.0.0.1:4000/graphql';
const SENTINEL = 'SENTINEL-secret-7f3a9c';
const dir = tempDir('labelkit-cli-');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('resolveConnection', () => {
  it('uses LABELKIT_URL and LABELKIT_TOKEN when no flag is given', async () => {
    const r = await resolveConnection({}, fakeIo({ LABELKIT_URL: URL, LABELKIT_TOKEN: SENTINEL }));
    expect(r.problems).toEqual([]);
    expect(r.connection).toEqual({ url: URL, auth: { token: SENTINEL }, source: 'LABELKIT_TOKEN', secrets: [SENTINEL] });
  });

  it('prefers --url over LABELKIT_URL when both are given', async () => {
    const r = await resolveConnection({ url: 'https://api.example.com/graphql' }, fakeIo({ LABELKIT_URL: URL, LABELKIT_TOKEN: 't0ken' }));
    expect(r.connection?.url).toBe('https://api.example.com/graphql');
  });

  it('reads the token from a file, without the trailing newline, when --token-file is given', async () => {
    const r = await resolveConnection({ tokenFile: file('token', `${SENTINEL}\n`) }, fakeIo({ LABELKIT_URL: URL, LABELKIT_TOKEN: 'other' }));
    expect(r.connection?.auth).toEqual({ token: SENTINEL });
    expect(r.connection?.source).toBe('--token-file');
  });

  it('reads the token from stdin when --token-stdin is given and something is piped', async () => {
    const r = await resolveConnection({ tokenStdin: true }, fakeIo({ LABELKIT_URL: URL }, { stdin: `${SENTINEL}\n` }));
    expect(r.connection?.auth).toEqual({ token: SENTINEL });
  });

  it('refuses --token-stdin when stdin is a terminal', async () => {
    const r = await resolveConnection({ tokenStdin: true }, fakeIo({ LABELKIT_URL: URL }));
    expect(r.connection).toBeUndefined();
    expect(r.problems.map((p) => p.field)).toEqual(['--token-stdin']);
  });

  it('accepts --token with a warning about the process list when it is given', async () => {
    const r = await resolveConnection({ token: SENTINEL }, fakeIo({ LABELKIT_URL: URL }));
    expect(r.connection?.auth).toEqual({ token: SENTINEL });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/process list/);
    expect(r.warnings[0]).not.toContain(SENTINEL);
  });

  it('uses client credentials from the environment when no token is set', async () => {
    const r = await resolveConnection({}, fakeIo({ LABELKIT_URL: URL, LABELKIT_CLIENT_ID: 'cid', LABELKIT_CLIENT_SECRET: SENTINEL }));
    expect(r.connection?.auth).toEqual({ clientCredentials: { clientId: 'cid', clientSecret: SENTINEL } });
    expect(r.connection?.secrets).toEqual([SENTINEL]);
  });

  it('reads the client secret from a file and prefers it over LABELKIT_TOKEN when --client-secret-file is given', async () => {
    const r = await resolveConnection(
      { clientId: 'cid', clientSecretFile: file('secret', `${SENTINEL}\n`) },
      fakeIo({ LABELKIT_URL: URL, LABELKIT_TOKEN: 'env-token' }),
    );
    expect(r.connection?.auth).toEqual({ clientCredentials: { clientId: 'cid', clientSecret: SENTINEL } });
  });

  it('lists every problem at once, naming flags and variables, when nothing usable is given', async () => {
    const r = await resolveConnection({ token: 'a', tokenFile: join(dir, 'missing') }, fakeIo({}));
    expect(r.connection).toBeUndefined();
    expect(r.problems.map((p) => p.field)).toEqual(['--url', '--token, --token-file']);
    const none = await resolveConnection({}, fakeIo({ LABELKIT_URL: 'ftp://x' }));
    expect(none.problems.map((p) => p.field)).toEqual(['LABELKIT_URL', 'credentials']);
    expect(none.problems[1]!.message).toMatch(/LABELKIT_TOKEN/);
  });

  it('names the missing half when only one of the client credentials is set', async () => {
    const r = await resolveConnection({}, fakeIo({ LABELKIT_URL: URL, LABELKIT_CLIENT_ID: 'cid' }));
    expect(r.problems).toEqual([{ field: 'LABELKIT_CLIENT_SECRET', message: expect.stringMatching(/required/) }]);
    const s = await resolveConnection({}, fakeIo({ LABELKIT_URL: URL, LABELKIT_CLIENT_SECRET: SENTINEL }));
    expect(s.problems.map((p) => p.field)).toEqual(['LABELKIT_CLIENT_ID']);
    expect(JSON.stringify(s)).not.toContain(SENTINEL);
  });

  it('reports an unreadable or empty secret file by path, never by content', async () => {
    const r = await resolveConnection({ tokenFile: file('empty', '\n') }, fakeIo({ LABELKIT_URL: URL }));
    expect(r.problems).toEqual([{ field: '--token-file', message: expect.stringMatching(/is empty/) }]);
    const m = await resolveConnection({ tokenFile: join(dir, 'nope') }, fakeIo({ LABELKIT_URL: URL }));
    expect(m.problems[0]!.message).toMatch(/cannot read the file .*nope \(ENOENT\)/);
  });

  it('refuses both a token and client credentials when both are given as flags', async () => {
    const r = await resolveConnection({ tokenFile: file('t2', 'tok'), clientSecretFile: file('s2', 'sec') }, fakeIo({ LABELKIT_URL: URL }));
    expect(r.problems.map((p) => p.field)).toEqual(['--token-file, --client-secret-file']);
  });

  it('turns --retries N into N + 1 attempts in all, whatever the credential, when --retries is given', async () => {
    const token = await resolveConnection({ retries: '0' }, fakeIo({ LABELKIT_URL: URL, LABELKIT_TOKEN: SENTINEL }));
    expect(token.connection?.retry).toEqual({ maxAttempts: 1 });
    const login = await resolveConnection({ retries: '5' }, fakeIo({ LABELKIT_URL: URL, LABELKIT_CLIENT_ID: 'cid', LABELKIT_CLIENT_SECRET: SENTINEL }));
    expect(login.connection?.retry).toEqual({ maxAttempts: 6 });
    const none = await resolveConnection({}, fakeIo({ LABELKIT_URL: URL, LABELKIT_TOKEN: SENTINEL }));
    expect(none.connection).not.toHaveProperty('retry');
  });

  it.each(['-1', '1.5', 'three', '21', ''])('refuses --retries %j with the rule when it is not a whole number from 0 to 20', async (value) => {
    const r = await resolveConnection({ retries: value }, fakeIo({ LABELKIT_URL: URL, LABELKIT_TOKEN: SENTINEL }));
    expect(r.connection).toBeUndefined();
    expect(r.problems).toEqual([{ field: '--retries', message: 'must be a whole number from 0 to 20 (0 turns retries off)' }]);
  });
});
