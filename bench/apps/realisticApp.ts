// A realistic browser app for the bundle-size figure: it reads a project's label sets, starts an
// auto-labeling job and waits for it. Bundled (not run) by bench/sizeAndStartup.ts.
import { createLabelingClient, getProjectLabelSets, startAutoLabel, waitForJob } from '../../src/client/index.js';

export async function labelProject(url: string, token: string, projectId: string, endpoint: string, secretKey: string): Promise<string> {
  const client = createLabelingClient({ url, token });
  const sets = await getProjectLabelSets(client, projectId, 'LABELER');
  const job = await startAutoLabel(client, { projectId, labelerEmail: 'me@example.com', options: { numberOfFilesPerRequest: 50 }, targetAPI: { endpoint, secretKey } });
  const outcome = await waitForJob(client, job.id);
  return `${sets.length} label sets; job ${job.id} ${outcome.outcome}`;
}
