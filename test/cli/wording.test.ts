import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createLabelingClient, getCabinet } from '../../src/client/index.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { docSection } from '../support/docs.js';

// Issue 23 item 11: the CLI's words say what is true (flags given, numbers, which flag).
let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ demoProjects: 3 });
  dir = await mkdtemp(join(tmpdir(), 'labelkit-wording-'));
});
afterAll(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});

const run = async (args: string[], env: Record<string, string> = { LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token }) => {
  const io = fakeIo(env);
  const code = await main(argv(...args), io);
  return { code, out: io.out(), err: io.err() };
};

describe('label-sets apply wording', () => {
  it('says a destructive step is allowed when --allow-destructive is given, and "1 step removes"', async () => {
    const project = demoProjectId(1);
    const documentId = emu.emulator.store.projects.get(project)!.documents[0]!.id;
    const span = { label: 'DATE', start_char: 0, end_char: 2, layer: 0 };
    emu.emulator.store.setLineLabels(project, { labelerEmail: 'ann@example.com', role: 'LABELER' }, documentId, 0, [span]);
    const pulled = await run(['label-sets', '--project', project, '--role', 'LABELER', '--json']);
    const file = join(dir, 'destructive.json');
    const edited = JSON.parse(pulled.out) as { labelSets: { labelItems: { labelName: string }[] }[] };
    edited.labelSets[0]!.labelItems = edited.labelSets[0]!.labelItems.filter((i) => i.labelName !== 'DATE');
    await writeFile(file, JSON.stringify(edited));

    const plan = await run(['label-sets', 'plan', file]);
    expect(plan.out).toContain('Destructive: 1 step removes 1 applied label (apply needs --allow-destructive).');
    const applied = await run(['label-sets', 'apply', file, '--yes', '--allow-destructive']);
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toContain('Destructive: 1 step removes 1 applied label (allowed by --allow-destructive).');
    expect(applied.out).not.toContain('apply needs --allow-destructive');
    const again = await run(['label-sets', 'plan', file]);
    expect(again.out).toMatch(/^No changes: the 1 label set of .* is as the file says\.$/m);
  });
});

describe('label-set files that cannot be read or parsed', () => {
  it('names a missing file and a folder without a line number', async () => {
    const missing = await run(['label-sets', 'plan', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`labelkit: ${join(dir, 'nope.json')}: cannot read: no such file`);
    const folder = await run(['label-sets', 'plan', dir]);
    expect(folder.err).toContain(`labelkit: ${dir}: cannot read: is a folder`);
  });

  it('reports a one-line file "x" once, at line 1, in plan and apply --plan', async () => {
    const file = join(dir, 'f.txt');
    await writeFile(file, 'x\n');
    for (const args of [['plan', file], ['apply', '--plan', file, '--yes']]) {
      const { code, err } = await run(['label-sets', ...args]);
      expect(code).toBe(2);
      const found = err.split('\n').filter((l) => l.includes(file));
      expect(found).toHaveLength(1);
      expect(found[0]).toContain(`labelkit: ${file}:1: not JSON: unexpected "x"`);
      expect(found[0]).toContain(`(hint: labelkit label-sets ${args[0]} --help`);
    }
  });
});

describe('the URL named as the command line has it', () => {
  it('names --url, or LABELKIT_URL, for a URL on a port fetch refuses, never options.url', async () => {
    const bad = 'http://127.0.0.1:1/graphql';
    const byFlag = await run(['cabinet', '--project', 'p', '--role', 'LABELER', '--url', bad], { LABELKIT_TOKEN: 't' });
    expect(byFlag.code).toBe(2);
    expect(byFlag.err).toMatch(/^labelkit: --url: uses port 1, /);
    const byVariable = await run(['label-sets', '--cabinet', 'c'], { LABELKIT_URL: bad, LABELKIT_TOKEN: 't' });
    expect(byVariable.err).toMatch(/^labelkit: LABELKIT_URL: uses port 1, /);
    expect(byFlag.err + byVariable.err).not.toContain('options.url');
  });
});

describe('a refused static token', () => {
  it('is not said to have been refused "even after a refresh" (no refresh happens for a static token)', async () => {
    const client = createLabelingClient({ url: emu.url, token: 'not-the-token' });
    const error = (await getCabinet(client, 'demo-project', 'LABELER').catch((e: unknown) => e)) as Error;
    client.close();
    expect(error.message).toMatch(/^\[Auth\] the service refused the access token \(Unauthorized\); check the token \(operation GetCabinet/);
    const cli = await run(['cabinet', '--project', 'demo-project', '--role', 'LABELER'], { LABELKIT_URL: emu.url, LABELKIT_TOKEN: 'not-the-token' });
    expect(cli.code).toBe(3);
    expect(cli.err).toContain('the service refused the access token (Unauthorized); check the token');
    expect(cli.err).not.toContain('refresh');
  });
});

describe('the command table of docs/cli.md', () => {
  it('lists every key that label-sets --json prints, with --project/--role and with --cabinet', async () => {
    const row = docSection('Commands').text.split('\n').find((l) => l.startsWith('| `label-sets (--project P'))!;
    const json = row.split(' | ').at(-1)!;
    const documented = [...json.matchAll(/"(\w+)"/g)].map((m) => m[1]);
    const byProject = JSON.parse((await run(['label-sets', '--project', 'demo-project', '--role', 'LABELER', '--json'])).out) as object;
    expect(documented).toEqual(Object.keys(byProject));
    const byCabinet = JSON.parse((await run(['label-sets', '--cabinet', 'demo-project:labeler', '--json'])).out) as object;
    expect(Object.keys(byCabinet).every((k) => documented.includes(k))).toBe(true);
    expect(json).toContain('`projectId` and `role` with `--project`/`--role`');
  });
});
