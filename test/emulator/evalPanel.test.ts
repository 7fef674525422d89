import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient } from '../../src/client/index.js';
import { evaluateCopy } from '../../src/emulator/pages/evalPanel.js';
import { evaluateProject } from '../../src/eval/index.js';
import { GOLD, LINES, MODEL, PROJECT, startEvalFixture } from '../support/evalFixture.js';

describe('evaluateCopy (the results page) scores the copy as labelkit eval does', () => {
  let fixture: Awaited<ReturnType<typeof startEvalFixture>>;
  beforeAll(async () => {
    fixture = await startEvalFixture();
    // A gold label the reviewer rejected is not gold, for the page as for labelkit eval; a label
    // of the set of index 2 (the project has no set 1) is bound within that set.
    const start = LINES[2]!.indexOf('fine');
    fixture.emu.emulator.store.createLabelSet(PROJECT, { index: 2, name: 'Mood', labels: [{ id: 'calm', name: 'CALM' }] });
    fixture.emu.emulator.store.setReviewLabels(PROJECT, 'news-1', [
      ...GOLD,
      { line: 2, start_char: start, end_char: start + 4, label: 'LOC', rejected: true },
      { line: 2, start_char: start, end_char: start + 4, label: 'CALM', layer: 2 },
    ]);
  });
  afterAll(() => fixture.close());

  it('leaves rejected, conflicting and deleted gold labels out, with the same counts per label', async () => {
    const store = fixture.emu.emulator.store;
    const project = store.projects.get(PROJECT)!;
    const page = evaluateCopy(store, project, { projectId: PROJECT, labelerEmail: MODEL, role: 'LABELER' }, 'strict')!.report;
    const client = createLabelingClient({ url: fixture.emu.url, token: fixture.emu.token });
    try {
      const cli = await evaluateProject(client, PROJECT, { labelerEmail: MODEL });
      expect(cli.goldExcluded.rejected).toBe(1);
      const counts = (r: typeof page) => r.labels.map((l) => [l.layer, l.id, l.name, l.gold, l.predicted, l.tp]);
      expect(counts(page)).toEqual(counts(cli));
      expect(counts(page)).toContainEqual([2, 'calm', 'CALM', 1, 0, 0]);
      expect(page.micro).toEqual(cli.micro);
    } finally {
      client.close();
    }
  });
});
