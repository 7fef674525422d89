// `label-sets apply` against the emulator over HTTP while someone else writes: a change that
// lands while one of its writes is in flight stops it (exit 10) before the next write, and a
// write the service refuses for a stale signature is a change since the plan too (exit 10).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createLabelingClient, createLabelSet, getProjectLabelSets, updateLabelSet } from '../../src/client/index.js';
import type { LabelingClient, LabelSet } from '../../src/client/index.js';
import { demoProjectId, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { startDroppingFront } from './droppingFront.js';
import type { DroppingFront } from './droppingFront.js';

describe('label-sets apply while someone else writes', () => {
  let emu: RunningEmulator;
  let front: DroppingFront;
  let other: LabelingClient;
  let dir: string;
  let nextProject = 0;

  beforeAll(async () => {
    emu = await startEmulator({ demoProjects: 4 });
    front = await startDroppingFront(emu.baseUrl);
    other = createLabelingClient({ url: emu.url, token: emu.token });
    dir = await mkdtemp(join(tmpdir(), 'labelkit-races-'));
  });
  afterAll(async () => {
    other?.close();
    await front?.close();
    await emu?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const apply = async (file: string) => {
    const io = fakeIo({ LABELKIT_URL: front.url, LABELKIT_TOKEN: emu.token });
    const code = await main(argv('label-sets', 'apply', file, '--yes'), io);
    return { code, out: io.out(), err: io.err() };
  };
  /** A project with the demo's set 0 and a second set, and a file that renames PERSON and deletes set 1. */
  const project = async (name: string) => {
    const projectId = demoProjectId(++nextProject);
    await createLabelSet(other, projectId, { index: 1, name: 'Relations', labelItems: [{ id: 'w', labelName: 'WORKS_FOR' }] });
    const [entities, relations] = await getProjectLabelSets(other, projectId, 'LABELER');
    const file = join(dir, name);
    const labelItems = entities!.labelItems.map((i) => ({ ...i, labelName: i.labelName === 'PERSON' ? 'PER' : i.labelName }));
    await writeFile(file, JSON.stringify({ projectId, role: 'LABELER', labelSets: [{ id: entities!.id, index: 0, name: entities!.name, labelItems }] }));
    return { projectId, file, entities: entities!, relations: relations! };
  };
  const renameFirstLabel = (projectId: string, set: LabelSet, to: string) =>
    updateLabelSet(other, { id: set.id, projectId, labelItems: set.labelItems.map((i, n) => ({ ...i, ...(n === 0 && { labelName: to }) })) });

  it('stops with exit 10 before deleting a set that someone changed while the first write was in flight, naming what was done', async () => {
    const { projectId, file, entities, relations } = await project('race.json');
    front.meanwhile.set('UpdateProjectLabelSet', async () => void (await renameFirstLabel(projectId, relations, 'EMPLOYED_BY')));
    const sent = front.sent.length;

    const { code, err } = await apply(file);
    expect(err).toContain(`labelkit: done: replace the labels of label set 0 "Entities" (id ${entities.id}), 5 labels`);
    expect(err).toContain('the label sets changed since the plan: re-plan');
    expect(err).toMatch(/done before it was seen: replace the labels of label set 0 "Entities" \(id \d+\), 5 labels; nothing else was written/);
    expect(err).toContain(`label set 1 "Relations" (id ${relations.id}): its labels changed`);
    expect(code).toBe(10);
    expect(front.sent.slice(sent)).not.toContain('DeleteLabelSet');
    const after = await getProjectLabelSets(other, projectId, 'LABELER');
    expect(after.map((s) => [s.index, s.labelItems.map((i) => i.labelName)])).toEqual([
      [0, ['ENTITY', 'PER', 'ORGANIZATION', 'LOCATION', 'DATE']],
      [1, ['EMPLOYED_BY']],
    ]);
  });

  it('exits 10 with "nothing was written" when the service refuses the first write for a stale signature', async () => {
    const { projectId, file, entities } = await project('stale-signature.json');
    expect(entities.signature).toEqual(expect.any(String));
    front.meanwhile.set('UpdateProjectLabelSet', async () => void (await renameFirstLabel(projectId, entities, 'THING')));

    const { code, err } = await apply(file);
    expect(err).toContain('the label sets changed since the plan: re-plan (nothing was written)');
    expect(err).toContain(`label set 0 "Entities" (id ${entities.id}): its labels changed`);
    expect(err).not.toContain('labelkit: done:');
    expect(code).toBe(10);
    const after = await getProjectLabelSets(other, projectId, 'LABELER');
    expect(after.map((s) => [s.index, s.labelItems.map((i) => i.labelName)])).toEqual([
      [0, ['THING', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE']],
      [1, ['WORKS_FOR']],
    ]);
  });
});
