import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCabinet, getJob, getProjectLabelSets, startAutoLabel, waitForJob } from '../../src/client/index.js';
import type { LabelingClient } from '../../src/client/index.js';
import { startMockClient } from '../support/mockServer.js';
import { productionSdl } from '../support/productionSchema.js';
import type { MockServer } from '../support/mockServer.js';

// The client against a server whose schema is the whole production schema, not only ours.
describe('the client against the whole production schema', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const typeDefs = productionSdl();
    const scalars = [...typeDefs.matchAll(/^scalar (\w+)/gm)].map((m) => m[1]!);
    expect(scalars.length).toBeGreaterThan(1);
    ({ server, client, close } = await startMockClient({ poll: { intervalMs: 10 } }, { typeDefs, mocks: Object.fromEntries(scalars.map((s) => [s, () => ({})])) }));
  });
  afterAll(async () => {
    await close();
  });

  it('runs every operation without a GraphQL error', async () => {
    expect(await getCabinet(client, 'p', 'LABELER')).toEqual({ id: 'cabinet-p-LABELER' });
    const sets = await getProjectLabelSets(client, 'p', 'REVIEWER');
    expect(sets.map((s) => s.labelItems.map((i) => i.labelName))).toEqual([
      ['ENTITY', 'PERSON'],
      ['ENTITY', 'PERSON'],
      ['ENTITY', 'PERSON'],
    ]);
    const job = await startAutoLabel(client, {
      projectId: 'p',
      labelerEmail: 'ann@example.com',
      options: { numberOfFilesPerRequest: 0 },
      targetAPI: { endpoint: 'https://model.example.com/', secretKey: 'k3y-value' },
      role: 'LABELER',
    });
    expect(await getJob(client, job.id)).toMatchObject({ id: job.id, status: 'QUEUED' });
    server.jobs.set(job.id, { ...server.jobs.get(job.id)!, status: 'DELIVERED', progress: 100 });
    expect(await waitForJob(client, job.id)).toMatchObject({ outcome: 'delivered' });
  });
});
