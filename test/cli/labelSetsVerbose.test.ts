import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';
import { argv, fakeIo } from '../support/fakeIo.js';

// Issue 23 item 8: the README says the CLI tells a switch to the renamed schema with --verbose;
// `label-sets plan --verbose` and `label-sets apply --verbose` did not.
const RENAMED = /^labelkit: the service has renamed tagItems\/tagName to labelItems\/labelName; \w+ was sent again with the new names/;

describe.each(SCHEMA_GENERATIONS)('label-sets plan and apply --verbose against the emulator speaking the %s schema', (schemaGeneration) => {
  let emu: RunningEmulator;
  let dir: string;
  beforeAll(async () => {
    emu = await startEmulator({ schemaGeneration, demoProjects: 2 });
    dir = await mkdtemp(join(tmpdir(), `labelkit-verbose-${schemaGeneration}-`));
  });
  afterAll(async () => {
    await emu?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (...args: string[]) => {
    const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: emu.token });
    const code = await main(argv(...args), io);
    return { code, out: io.out(), err: io.err() };
  };

  it('tells the switch once on stderr with --verbose (only when the service renamed), and not without it', async () => {
    const projectId = demoProjectId(1);
    const pulled = await run('label-sets', '--project', projectId, '--role', 'LABELER', '--json');
    expect(pulled.code).toBe(0);
    const file = join(dir, 'labels.json');
    const edited = JSON.parse(pulled.out) as { labelSets: { labelItems: { labelName: string }[] }[] };
    edited.labelSets[0]!.labelItems.find((i) => i.labelName === 'DATE')!.labelName = 'WHEN';
    await writeFile(file, JSON.stringify(edited, null, 2));

    for (const args of [['plan', file], ['apply', file, '--yes']]) {
      const verbose = await run('label-sets', ...args, '--verbose');
      expect(verbose.code, verbose.err).toBe(0);
      const told = verbose.err.split('\n').filter((l) => RENAMED.test(l));
      expect(told, `${args[0]} --verbose`).toHaveLength(schemaGeneration === 'labels' ? 1 : 0);
      const quiet = await run('label-sets', ...args);
      expect(quiet.code).toBe(0);
      expect(quiet.err.split('\n').filter((l) => RENAMED.test(l)), args[0]).toEqual([]);
    }
  });
});
