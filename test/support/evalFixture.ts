// A project with known gold (the reviewer copy) and a model with known mistakes (a wrong boundary,
// a wrong label, a missed span, a spurious span), run over real HTTP: the eval command's test and
// the results page's Chromium test score it, each count computed by hand in the test.
import { createLabelingClient, startAutoLabel, waitForJob } from '../../src/client/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startStubModel } from './stubModel.js';
import type { SeenRequest, StubModel } from './stubModel.js';

// Tokens (the emulator cuts at white space and punctuation):
//   line 0: Ada(0) Lovelace(1) joined(2) Acme(3) Corp(4) in(5) London(6)
//   line 1: Grace(0) Hopper(1) visited(2) Paris(3)
//   line 2: The(0) weather(1) was(2) fine(3)
export const LINES = ['Ada Lovelace joined Acme Corp in London', 'Grace Hopper visited Paris', 'The weather was fine'];
export const PROJECT = 'eval-project';
export const MODEL = 'model@example.com';

const at = (line: number, text: string) => ({ line, start_char: LINES[line]!.indexOf(text), end_char: LINES[line]!.indexOf(text) + text.length, text });
export const GOLD = [
  { ...at(0, 'Ada Lovelace'), label: 'PERSON' }, // G1
  { ...at(0, 'Acme Corp'), label: 'ORG' }, // G2
  { ...at(0, 'London'), label: 'LOC' }, // G3
  { ...at(1, 'Grace Hopper'), label: 'PERSON' }, // G4: the model misses it
  { ...at(1, 'Paris'), label: 'LOC', labeledBy: 'AUTO' as const }, // G5: accepted by consensus
  { ...at(1, 'Paris'), label: 'ORG', labeledBy: 'CONFLICT' as const }, // not gold: unresolved
  { ...at(2, 'weather'), label: 'ORG', deleted: true }, // not gold: deleted
];
/** The model's entities per line. */
const PREDICTED: Record<number, { label: string; start_char: number; end_char: number; confidence_score: number }[]> = {
  0: [
    { ...at(0, 'Ada Lovelace'), label: 'PERSON', confidence_score: 0.9 }, // P1 = G1
    { ...at(0, 'Acme'), label: 'ORG', confidence_score: 0.8 }, // P2: wrong boundary (G2 is "Acme Corp")
    { ...at(0, 'London'), label: 'PERSON', confidence_score: 0.4 }, // P3: wrong label (G3 is LOC)
  ],
  1: [{ ...at(1, 'Paris'), label: 'LOC', confidence_score: 0.95 }], // P4 = G5
  2: [{ ...at(2, 'weather'), label: 'ORG', confidence_score: 0.3 }], // P5: spurious
};
const answer = (request: SeenRequest) => ({
  id: request.id,
  documents: request.documents.map((d) => ({
    id: d.id,
    labels: d.sentences.map((s) => ({ id: s.id, entities: (PREDICTED[s.id] ?? []).map(({ label, start_char, end_char, confidence_score }) => ({ label, start_char, end_char, confidence_score })) })),
  })),
});

/** The emulator with the project, gold set, and one job of the model (labeler {@link MODEL}) delivered. */
export async function startEvalFixture(): Promise<{ emu: RunningEmulator; model: StubModel; jobId: string; close(): Promise<void> }> {
  const emu = await startEmulator({ demoProject: false });
  let model: StubModel | undefined;
  let client: ReturnType<typeof createLabelingClient> | undefined;
  try {
    emu.emulator.store.addProject({
      id: PROJECT,
      labelSets: [{ name: 'Entities', labels: [{ id: 'per', name: 'PERSON', color: '#ef4444' }, { id: 'org', name: 'ORG', color: '#3b82f6' }, { id: 'loc', name: 'LOC', color: '#10b981' }] }],
      documents: [{ id: 'news-1', name: 'news-1.txt', lines: LINES }],
    });
    emu.emulator.store.setReviewLabels(PROJECT, 'news-1', GOLD);
    const stub = (model = await startStubModel((request) => ({ kind: 'json', body: answer(request) })));
    client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 20 } });
    const job = await startAutoLabel(client, { projectId: PROJECT, labelerEmail: MODEL, options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: stub.url, secretKey: 'model-secret' } });
    const outcome = await waitForJob(client, job.id, { timeoutMs: 20_000 });
    if (outcome.outcome !== 'delivered') throw new Error(`the fixture's job ended ${outcome.outcome}`);
    return { emu, model: stub, jobId: job.id, close: async () => void (await Promise.all([stub.close(), emu.close()])) };
  } catch (error) {
    // No fixture to close later: stop its servers now.
    await Promise.all([model?.close(), emu.close()]);
    throw error;
  } finally {
    client?.close();
  }
}
