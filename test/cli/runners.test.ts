import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { runCabinet } from '../../src/cli/commands/cabinet/runner.js';
import { printEmulatorStarted } from '../../src/cli/commands/emulator/print.js';
import { runEmulator } from '../../src/cli/commands/emulator/runner.js';
import { checkRequest, runModelCheck } from '../../src/cli/checks/modelEndpoint.js';
import { createPrinter } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { runAction } from '../../src/cli/runAction.js';
import type { ActionContext } from '../../src/cli/runAction.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startModelServer, validateSpanRequest } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// The CLI's runners, called directly (each command's runner.ts does the work and returns the output).
const SECRET = 'SENTINEL-runner-secret-0b5e';
let emu: RunningEmulator;
let model: RunningModelServer;
beforeAll(async () => {
  emu = await startEmulator();
  model = await startModelServer({ secretKey: SECRET });
});
afterAll(async () => {
  await emu?.close();
  await model?.close();
});

const context = (env: Record<string, string>): ActionContext => {
  const io = fakeIo(env);
  return { io, printer: createPrinter(io), flags: {}, signal: new AbortController().signal };
};

describe('checkRequest', () => {
  it('builds a request that follows the span contract when asked for any size', () => {
    for (const size of [1, 2, 7, 100]) {
      const request = checkRequest(size);
      expect(validateSpanRequest(request)).toEqual([]);
      expect(request.documents.reduce((n, d) => n + d.sentences.length, 0)).toBe(size);
      for (const doc of request.documents) expect(doc.sentences.map((s) => s.id)).toEqual(doc.sentences.map((_, i) => i));
    }
  });
});

describe('runModelCheck', () => {
  it('returns one valid row per size and the wrong secret’s 401 when the model is the sample model', async () => {
    const result = await runModelCheck(model.url, { secretKeyEnv: 'SECRET', sizes: '1,3' }, context({ SECRET }));
    expect(result.valid).toBe(true);
    expect(result.wrongSecretStatus).toBe(401);
    expect(result.rows.map(({ size, status, problems }) => ({ size, status, problems }))).toEqual([
      { size: 1, status: 200, problems: [] },
      { size: 3, status: 200, problems: [] },
    ]);
    expect(result.rows[0]!.entities).toBeGreaterThan(0);
  });

  it('reports HTTP 401 as a problem when the secret is not the model’s', async () => {
    const result = await runModelCheck(model.url, { secretKeyEnv: 'SECRET', sizes: '1' }, context({ SECRET: 'not-the-secret' }));
    expect(result.valid).toBe(false);
    expect(result.rows[0]!.problems[0]).toMatchObject({ path: 'HTTP', message: expect.stringMatching(/^status 401, expected 200/) });
  });

  it('throws every flag problem at once when the flags are bad', async () => {
    await expect(runModelCheck('ftp://x', { secretKeyEnv: 'UNSET', sizes: '0,abc', timeout: 'never' }, context({}))).rejects.toMatchObject({
      name: 'CliUsageError',
      problems: [
        { field: '<url>', message: expect.any(String) },
        { field: '--sizes', message: expect.any(String) },
        { field: '--secret-key-env', message: expect.stringMatching(/UNSET is not set/) },
        { field: '--timeout', message: expect.any(String) },
      ],
    });
  });
});

describe('runCabinet', () => {
  it('returns the cabinet when the connection comes from the environment', async () => {
    const result = await runCabinet({ project: 'demo-project', role: 'reviewer' }, context({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token }));
    expect(result).toEqual({ projectId: 'demo-project', role: 'REVIEWER', cabinetId: 'demo-project:reviewer' });
  });
});

describe('runAction', () => {
  it('prints one line and returns the mapped exit code when the work throws', async () => {
    const io = fakeIo();
    const code = await runAction(io, {}, async () => {
      throw new Error('disk on fire');
    });
    expect(code).toBe(1);
    expect(io.err()).toBe('labelkit: unexpected error: disk on fire (hint: --verbose shows details)\n');
  });

  it('redacts a secret the run was told about when a message carries it anyway', async () => {
    const io = fakeIo();
    await runAction(io, {}, async (ctx) => {
      ctx.printer.addSecret(SECRET);
      ctx.printer.out(`token=${SECRET}`);
      return 0;
    });
    expect(io.out()).toBe('token=***\n');
  });
});

describe('labelkit emulator --data', () => {
  it('exits 2 listing each problem with its file and line when the data folder is bad', async () => {
    const dir = tempDir('labelkit-cli-data-');
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('p1/project.json', '{ "name": "P1",\n  "oops" }\n');
    write('p1/documents/a.txt', 'a line\n');
    const io = fakeIo();
    expect(await main(argv('emulator', '--port', '0', '--data', dir), io)).toBe(2);
    expect(io.err()).toMatch(new RegExp(`--data: ${dir}/p1/project\\.json:2: `));
    expect(io.out()).toBe('');
  });

  it('names the projects it loaded from the folder in its start banner', async () => {
    const dir = tempDir('labelkit-cli-data-');
    for (const id of ['news', 'contracts']) {
      mkdirSync(join(dir, id, 'documents'), { recursive: true });
      writeFileSync(join(dir, id, 'project.json'), `{ "name": "${id}" }\n`);
      writeFileSync(join(dir, id, 'documents', 'a.txt'), 'Ada Lovelace lives in London.\n');
      mkdirSync(join(dir, id, 'label-sets'));
      writeFileSync(join(dir, id, 'label-sets', '1-entities.json'), JSON.stringify({ name: 'Entities', labels: [{ id: `${id}-p`, name: 'PERSON' }] }));
    }
    const io = fakeIo();
    const run = main(argv('emulator', '--port', '0', '--data', dir), io);
    await vi.waitFor(() => expect(io.out(), io.err()).toContain('Ctrl-C stops'), { timeout: 10_000, interval: 20 });
    const banner = io.out().split('\n');
    const line = banner.find((l) => l.startsWith('Projects from '));
    expect(line).toMatch(new RegExp(`^Projects from ${dir} \\(2\\): (contracts, news|news, contracts)$`));
    io.interrupt();
    expect(await run).toBe(0);
  });
});

describe('labelkit emulator --schema-generation', () => {
  it('exits 2 naming the flag and starts nothing when the generation is unknown', async () => {
    const io = fakeIo();
    expect(await main(argv('emulator', '--port', '0', '--schema-generation', 'tag'), io)).toBe(2);
    expect(io.err()).toMatch(/--schema-generation: must be tags \(today's production\) or labels \(after the rename\)/);
    expect(io.out()).toBe('');
  });

  it.each([
    ['tags', "Schema: today's production (tagItems, tagName)."],
    ['labels', 'Schema: after the rename (labelItems, labelName).'],
  ] as const)('speaks the %s schema and says so when started with that generation', async (generation, line) => {
    const ctx = context({});
    const running = await runEmulator({ port: 0, host: '127.0.0.1', schemaGeneration: generation }, ctx);
    try {
      expect(running.emulator.schemaGeneration).toBe(generation);
      printEmulatorStarted(ctx.printer, running, { json: false });
      expect((ctx.io as ReturnType<typeof fakeIo>).out().split('\n')[1]).toBe(line);
    } finally {
      await running.close();
    }
  });
});
