import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLabelingClient, getCabinet, getLabelSets, getProjectLabelSets, startAutoLabel, waitForJobs } from '../../src/client/index.js';
import type { LabelingClient, SchemaChangeEvent } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';

const SECRET = 'switch-model-SENTINEL-91c2';

let emu: RunningEmulator | undefined;
let model: { url: string; close(): Promise<void> } | undefined;
let client: LabelingClient | undefined;

afterEach(async () => {
  client?.close();
  await emu?.close();
  await model?.close();
  emu = model = client = undefined;
});

/** A fetch that records the operationName and the query text of every GraphQL request. */
function recordingFetch() {
  const sent: { operationName: string; query: string }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as { operationName: string; query: string };
      sent.push({ operationName: body.operationName, query: body.query });
    }
    return fetch(input, init);
  };
  return { sent, fetchFn, labelSetRequests: () => sent.filter((r) => r.operationName === 'getCabinetLabelSetsById') };
}

describe('the client across the service switching from tags to labels', () => {
  it('re-sends getLabelSets once with the renamed document and reports one schema change when the emulator switches while a job is waited for', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const predict = createSampleModel();
    model = await startModelServer({ secretKey: SECRET, predict: async (request) => (await gate, predict(request)) });
    emu = await startEmulator();
    const { sent, fetchFn, labelSetRequests } = recordingFetch();
    const onSchemaChange = vi.fn<(event: SchemaChangeEvent) => void>();
    client = createLabelingClient({ url: emu.url, token: emu.token, fetch: fetchFn, onSchemaChange, poll: { intervalMs: 5, maxIntervalMs: 20 } });

    const cabinet = await getCabinet(client, DEMO_PROJECT_ID, 'LABELER');
    const before = await getLabelSets(client, cabinet.id);
    expect(labelSetRequests()).toHaveLength(1);
    expect(labelSetRequests()[0]!.query).toMatch(/labelItems: tagItems/);

    const job = await startAutoLabel(client, 
      { projectId: DEMO_PROJECT_ID, labelerEmail: 'ann@example.com', options: { numberOfFilesPerRequest: 2 }, targetAPI: { endpoint: model.url, secretKey: SECRET } },
      { allowInsecureEndpoint: true },
    );
    const waiting = waitForJobs(client, [job.id], { timeoutMs: 20_000 });

    emu.emulator.setSchemaGeneration('labels');
    const after = await getLabelSets(client, cabinet.id);

    expect(after).toEqual(before);
    expect(labelSetRequests()).toHaveLength(3); // the refused one and one re-sent: exactly one extra
    expect(labelSetRequests()[1]!.query).toMatch(/labelItems: tagItems/);
    expect(labelSetRequests()[2]!.query).toMatch(/labelItems \{/);
    expect(labelSetRequests()[2]!.query).not.toMatch(/tag(Items|Name)/);
    expect(onSchemaChange).toHaveBeenCalledTimes(1);
    expect(onSchemaChange.mock.calls[0]![0]).toEqual({
      from: 'tags',
      to: 'labels',
      operationName: 'getCabinetLabelSetsById',
      message: expect.stringMatching(/Cannot query field "tagItems" on type "LabelSet"/),
    });

    // From now on the renamed document goes first, and nothing else changed.
    await getProjectLabelSets(client, DEMO_PROJECT_ID, 'LABELER');
    expect(labelSetRequests()).toHaveLength(4);
    expect(onSchemaChange).toHaveBeenCalledTimes(1);

    release();
    const [outcome] = await waiting;
    expect(outcome).toMatchObject({ outcome: 'delivered', jobId: job.id });
    expect(sent.filter((r) => r.operationName === 'GetJobs').every((r) => !/tag/i.test(r.query))).toBe(true);
  });
});
