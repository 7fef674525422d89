// The TypeScript examples of the client's README section, compiled as they are printed
// (`labelkit` resolves to the sources through tsconfig paths; `labelkit-tools/bulk` is
// src/bulk/). If one stops compiling, fix the README too.
import { describe, expectTypeOf, it } from 'vitest';
import { clientCredentials, createLabelingClient, isLabelkitError, refreshingToken, startAutoLabel, waitForJobOrThrow, waitForJobs } from 'labelkit';
import { buildLabelTree } from 'labelkit/labels';
import type { AutoLabelInput, Job, JobOutcome, LabelSet, LabelingClient } from 'labelkit';
import { GetCabinetDocument } from 'labelkit/documents';
import { autoLabelMany, openFileJournal } from '../../src/bulk/index.js';
import type { ProjectOutcome } from '../../src/bulk/index.js';

declare const set: LabelSet;
declare const jobIds: string[];
declare const input: AutoLabelInput;
declare const client: LabelingClient;

describe('README examples', () => {
  it('many projects', async () => {
    const inputs = ['p1', 'p2', 'p3'].map((projectId) => ({
      projectId,
      labelerEmail: 'labeler@example.com',
      options: { numberOfFilesPerRequest: 10 },
      targetAPI: { endpoint: 'https://model.example.com/predict', secretKey: process.env.MODEL_SECRET! },
    }));
    const { outcomes } = await autoLabelMany(client, inputs, {
      journal: openFileJournal('run.ndjson'),
      concurrency: 4,
      onEvent: (e) => e.event === 'outcome' && console.log(e.projectId, e.outcome),
    });
    expectTypeOf(outcomes).toEqualTypeOf<ProjectOutcome[]>();
  });

  it('options', () => {
    const c = createLabelingClient({
      url: 'https://labeling.example.com/graphql',
      token: process.env.LABELKIT_TOKEN,
      timeoutMs: 30_000,
      retry: { maxAttempts: 4, initialDelayMs: 300, maxDelayMs: 15_000 },
      poll: { intervalMs: 1_000, maxIntervalMs: 10_000 },
      headers: { 'x-team': 'ner' },
    });
    expectTypeOf(c).toEqualTypeOf<LabelingClient>();
    createLabelingClient({ url: 'https://x/graphql', auth: clientCredentials({ clientId: 'my-id', clientSecret: process.env.LABELKIT_CLIENT_SECRET! }) });
    createLabelingClient({ url: 'https://x/graphql', auth: refreshingToken(async () => 'token') });
  });

  it('waiting for jobs', async () => {
    const outcomes = await waitForJobs(client, jobIds, { timeoutMs: 30 * 60_000, notFoundGraceMs: 10_000 });
    for (const o of outcomes) {
      switch (o.outcome) {
        case 'delivered': console.log(o.jobId, 'result', o.job.resultId); break;
        case 'failed':    console.error(o.jobId, o.errors.map((e) => e.stack.split('\n')[0])); break;
        case 'timed-out': console.error(o.jobId, 'still', o.job?.status, `${o.job?.progress ?? 0}%`); break;
        case 'not-found': console.error(o.jobId, 'unknown to the service'); break;
      }
    }
    expectTypeOf(outcomes).toEqualTypeOf<JobOutcome[]>();
    const job = await waitForJobOrThrow(client, jobIds[0]);
    expectTypeOf(job).toEqualTypeOf<Job>();
  });

  it('label sets', () => {
    try {
      const tree = buildLabelTree(set);
      tree.idByName.get('person');
      tree.idByPath.get('entity/person');
      tree.nameById.get(tree.roots[0].item.id);
    } catch (error) {
      if (isLabelkitError(error) && error.code === 'LABEL_SET') console.error(error.problems); // orphans, cycles, duplicate names
      else throw error;
    }
  });

  it('errors', async () => {
    try {
      await startAutoLabel(client, input);
    } catch (error) {
      if (!isLabelkitError(error)) throw error;
      if ('mutationOutcomeUnknown' in error && error.mutationOutcomeUnknown) {
        console.error(error.message); // says a job may have started: look before starting another
      } else if (error.code === 'VALIDATION') {
        console.error(error.problems); // every problem at once: [{ path, message }, …]
      } else {
        console.error(error.code, error.operationName, error.requestId, error.message);
      }
    }
  });

  it('error codes', async () => {
    try {
      await waitForJobOrThrow(client, 'JOB_ID');
    } catch (error) {
      if (isLabelkitError(error) && error.code === 'JOB_FAILED') console.error(error.job.errors.map((e) => e.stack.split('\n')[0]));
      else throw error;
    }
  });

  it('request', async () => {
    const { getCabinet } = await client.request(GetCabinetDocument, { projectId: 'PROJECT_ID', role: 'LABELER' }, { timeoutMs: 5_000 });
    expectTypeOf(getCabinet.id).toEqualTypeOf<string>();
  });
});
