import { createLabelingClient } from '../../src/client/index.js';

/**
 * A stand-in of the service's job operations behind the real client, as its `fetch`: a started
 * job runs until the test calls `finish(jobId)`. For tests of what a run does with its journal,
 * where the service is not what is under test (no HTTP): the client, its validation, its answer
 * checks and its job poll are the real ones.
 */
export function jobServiceClient() {
  const finished = new Set<string>();
  /** Jobs that were read back at least once (someone waits for them). */
  const waiting = new Set<string>();
  /** The projects whose auto-label mutation was sent, in order. */
  const sent: string[] = [];
  const job = (id: string) => {
    const done = finished.has(id);
    return { id, status: done ? 'DELIVERED' : 'IN_PROGRESS', progress: done ? 100 : 10, errors: [], resultId: null, createdAt: '2026-11-28T00:00:00.000Z', updatedAt: '2026-11-28T00:00:00.000Z' };
  };
  const answer = (data: unknown) => new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });
  const fakeFetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { operationName, variables } = JSON.parse(String(init?.body)) as { operationName: string; variables: Record<string, unknown> };
    if (operationName === 'AutoLabelTokenBasedProjectMutation') {
      const { projectId } = variables['input'] as { projectId: string };
      sent.push(projectId);
      return answer({ result: { id: `job-${projectId}`, status: 'IN_PROGRESS', progress: 0 } });
    }
    if (operationName === 'GetJobs') {
      const ids = variables['jobIds'] as string[];
      for (const id of ids) waiting.add(id);
      return answer({ getJobs: ids.map(job) });
    }
    throw new Error(`the stand-in service does not answer ${operationName}`);
  };
  const client = createLabelingClient({ url: 'https://service.example.com/graphql', token: 't', fetch: fakeFetch as typeof fetch, poll: { intervalMs: 10, maxIntervalMs: 20 } });
  return { client, waiting, sent, finish: (jobId: string) => void finished.add(jobId) };
}
