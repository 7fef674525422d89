import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getCabinet, getJob, getJobs, getLabelSets, startAutoLabel, waitForJob } from '../../src/client/index.js';
import { ProtocolError } from '../../src/client/errors.js';
import type { LabelingClient } from '../../src/client/index.js';
import { advance, until, useFakeClock } from '../support/fakeClock.js';
import { mockJob, startMockClient } from '../support/mockServer.js';
import type { MockServer } from '../support/mockServer.js';
import { autoLabelInput } from '../support/autoLabelInput.js';

const input = autoLabelInput();
const answer = (data: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) });

describe('answers that lack their field', () => {
  let server: MockServer;
  let client: LabelingClient;
  let close: () => Promise<void>;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(async () => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
    ({ server, client, close } = await startMockClient({ retry: { maxAttempts: 3 }, poll: { intervalMs: 1_000 } }));
  });
  afterEach(async () => {
    vi.useRealTimers();
    process.off('unhandledRejection', onUnhandled);
    await close();
  });

  const cases: Array<[string, unknown, (c: LabelingClient) => Promise<unknown>, string, RegExp]> = [
    ['getJob', {}, (c) => getJob(c, 'j'), 'GetJob', /the answer's data lacks getJob/],
    ['getJobs', {}, (c) => getJobs(c, ['j']), 'GetJobs', /the answer's data lacks getJobs/],
    ['getJobs', { getJobs: null }, (c) => getJobs(c, ['j']), 'GetJobs', /getJobs is not a list/],
    ['getJobs', { getJobs: [] }, (c) => getJobs(c, ['j']), 'GetJobs', /getJobs has 0 entries for 1 ids/],
    ['getJobs', { getJobs: [{ id: 'j' }] }, (c) => getJobs(c, ['j']), 'GetJobs', /the answer's data lacks getJobs\[0\].status/],
    ['startAutoLabel', {}, (c) => startAutoLabel(c, input), 'AutoLabelTokenBasedProjectMutation', /the answer's data lacks result/],
    ['getLabelSets', { getCabinetLabelSetsById: null }, (c) => getLabelSets(c, 'c'), 'getCabinetLabelSetsById', /is not a list/],
    ['getCabinet', { getCabinet: 'x' }, (c) => getCabinet(c, 'p', 'LABELER'), 'GetCabinet', /getCabinet is not an object/],
  ];

  it.each(cases)('rejects %s with a ProtocolError when data is %j', async (_name, data, act, operationName, message) => {
    server.plan(answer(data));
    const error = (await act(client).catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE', operationName, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^\[Protocol\] /);
    // Not transient: never retried.
    expect(server.graphqlRequests()).toHaveLength(1);
  });

  it('says the outcome of a mutation with a malformed answer is unknown', async () => {
    server.plan(answer({}));
    const error = (await startAutoLabel(client, input).catch((e: unknown) => e)) as ProtocolError;
    expect(error.mutationOutcomeUnknown).toBe(true);
    expect(error.message).toContain('do not start another blindly');
  });

  it.each([{}, { getJobs: null }])('ends a wait with a ProtocolError, and nothing rejects unhandled, when data is %j', async (data) => {
    useFakeClock();
    server.jobs.set('j', mockJob('j', { status: 'IN_PROGRESS' }));
    server.plan(answer(data));
    let settled: unknown;
    void waitForJob(client, 'j', { timeoutMs: 60_000 }).then(
      (outcome) => (settled = outcome),
      (error: unknown) => (settled = error),
    );
    await advance(100);
    await until(() => settled !== undefined, 'the wait to end');
    expect(settled).toBeInstanceOf(ProtocolError);
    expect(settled).toMatchObject({ code: 'BAD_RESPONSE', operationName: 'GetJobs' });
    // No further poll, and no rejection escaped a timer callback.
    await advance(5_000);
    expect(server.graphqlRequests()).toHaveLength(1);
    expect(unhandled).toEqual([]);
  });
});
