// A label-set file too large for the service: `plan` states the limit and refuses it (exit 2),
// `apply` sends nothing; and when the service refuses a write as too large all the same (a
// service with a lower limit), `apply` does not advise applying again.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { MAX_BODY_BYTES } from '../../src/shared/constants.js';
import { argv, fakeIo } from '../support/fakeIo.js';

describe('label-set writes larger than a request may carry', () => {
  let emu: RunningEmulator;
  let small: RunningEmulator;
  let dir: string;
  const posts: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ demoProjects: 1, log: (line) => posts.push(line) });
    small = await startEmulator({ demoProjects: 1, maxBodyBytes: 1500 });
    dir = await mkdtemp(join(tmpdir(), 'labelkit-limits-'));
  });
  afterAll(async () => {
    await emu?.close();
    await small?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const run = async (service: RunningEmulator, ...args: string[]) => {
    const io = fakeIo({ LABELKIT_URL: service.url, LABELKIT_TOKEN: service.token });
    const code = await main(argv(...args), io);
    return { code, out: io.out(), err: io.err() };
  };

  it('plan refuses a set of 10,500 labels (about 2 MB) with the limit and the file line, and apply writes nothing', async () => {
    const labelItems = Array.from({ length: 10_500 }, (_, i) => ({ labelName: `LABEL_${i}`, desc: `a label described at some length, number ${i}, ${'x'.repeat(120)}` }));
    const file = join(dir, 'huge.json');
    await writeFile(file, JSON.stringify({ projectId: demoProjectId(1), role: 'LABELER', labelSets: [{ index: 1, name: 'Huge', labelItems }] }, null, 1));
    const plan = await run(emu, 'label-sets', 'plan', file, '--exit-code');
    expect(plan.code).toBe(2);
    expect(plan.err).toContain(`${file}:`);
    // The write, its size, the limit and the verdict.
    expect(plan.err).toContain('"create label set 1 "Huge" with 10500 labels"');
    expect(plan.err).toMatch(/about 2\.\d MiB/);
    expect(plan.err).toMatch(/1 MiB \(1048576 bytes\)/);
    expect(plan.err).toContain('it cannot be applied');
    expect(MAX_BODY_BYTES).toBe(1_048_576);
    const seen = posts.length;
    const apply = await run(emu, 'label-sets', 'apply', file, '--yes');
    expect(apply.code).toBe(2);
    expect(apply.err).toContain('it cannot be applied');
    expect(apply.err).not.toMatch(/apply again/);
    expect(posts.slice(seen).filter((l) => /CreateLabelSet|UpdateProjectLabelSet|Append|Delete/.test(l))).toEqual([]);
  });

  it('names the refusal and never says "apply again" when the service refuses a write as too large', async () => {
    const file = join(dir, 'small.json');
    await writeFile(file, JSON.stringify({ projectId: demoProjectId(1), role: 'LABELER', labelSets: [{ index: 1, name: 'Many', labelItems: Array.from({ length: 30 }, (_, i) => ({ labelName: `L${i}`, desc: 'd'.repeat(60) })) }] }));
    const apply = await run(small, 'label-sets', 'apply', file, '--yes');
    expect(apply.err).toContain('"create label set 1 "Many" with 30 labels" failed');
    expect(apply.err).toContain('Request body too large');
    expect(apply.code).toBe(1);
    expect(apply.err).toContain('hint: the service refused this write, so applying it again fails the same way');
    expect(apply.err).not.toMatch(/apply again to finish/);
  });
});
