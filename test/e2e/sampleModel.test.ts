import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, waitForJob, waitForJobOrThrow } from '../../src/client/index.js';
import { demoProject } from '../../src/emulator/demoProject.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';
import { SCHEMA_GENERATIONS } from '../../src/shared/schemaGeneration.js';

const SECRET = 'sample-model-SENTINEL-5d1e';

describe.each(SCHEMA_GENERATIONS)('with the emulator speaking the %s schema', (schemaGeneration) => {
  describe('startEmulator with the model kit (startModelServer + createSampleModel)', () => {
    let emu: RunningEmulator;
    let model: { url: string; close(): Promise<void> };
    beforeAll(async () => {
      emu = await startEmulator({ schemaGeneration });
      model = await startModelServer({ secretKey: SECRET, predict: createSampleModel() });
    });
    afterAll(async () => {
      await model.close();
      await emu.close();
    });

    it('delivers the sample model predictions to the labeler copy when the whole flow runs', async () => {
      const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 10, maxIntervalMs: 50 } });
      try {
        const job = await startAutoLabel(client, 
          { projectId: DEMO_PROJECT_ID, labelerEmail: 'kit@example.com', options: { numberOfFilesPerRequest: 2 }, targetAPI: { endpoint: model.url, secretKey: SECRET } },
          { allowInsecureEndpoint: true },
        );
        const done = await waitForJobOrThrow(client, job.id, { timeoutMs: 20_000 });
        expect(done).toMatchObject({ status: 'DELIVERED', progress: 100, errors: [] });

        const predict = createSampleModel();
        const project = demoProject();
        const [copy] = emu.emulator.store.labelsOf(DEMO_PROJECT_ID);
        expect(copy?.labelerEmail).toBe('kit@example.com');
        for (const doc of project.documents) {
          const answer = await predict({ id: project.id, name: project.name ?? '', documents: [{ id: doc.id, sentences: doc.lines.map((text, id) => ({ id, text })) }] });
          const stored = copy!.documents.find((d) => d.id === doc.id)!;
          expect(stored.lines.map((l) => l.entities)).toEqual(answer.documents[0]!.labels.map((l) => l.entities.map((e) => ({ ...e, layer: e.layer ?? 0 }))));
        }
        expect(copy!.documents.flatMap((d) => d.lines.flatMap((l) => l.entities)).length).toBeGreaterThan(20);
      } finally {
        client.close();
      }
    });

    it('fails the job with the model kit 401 when the secret does not match', async () => {
      const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 10, maxIntervalMs: 50 } });
      try {
        const job = await startAutoLabel(client, 
          { projectId: DEMO_PROJECT_ID, labelerEmail: 'kit@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: model.url, secretKey: 'wrong-secret-SENTINEL' } },
          { allowInsecureEndpoint: true },
        );
        const outcome = await waitForJob(client, job.id, { timeoutMs: 20_000 });
        expect(outcome.outcome).toBe('failed');
        if (outcome.outcome !== 'failed') return;
        expect(outcome.errors[0]!.stack).toMatch(/the model answered HTTP 401 \(does the model expect this secretKey\?\)/);
        expect(JSON.stringify(outcome)).not.toContain('wrong-secret-SENTINEL');
      } finally {
        client.close();
      }
    });
  });
});
