// A realistic browser app for the bundle-size figure: it reads a project's label sets, starts an
// auto-labeling job and waits for it. Bundled (not run) by bench/sizeAndStartup.ts.
import { createLabelingClient } from '../../src/client/index.js';

export async function labelProject(url: string, token: string, projectId: string, endpoint: string, secretKey: string): Promise<string> {
  const client = createLabelingClient({ url, token });
  const sets = await client.getProjectLabelSets(projectId, 'LABELER');
  const job = await client.startAutoLabel({ projectId, labelerEmail: 'me@example.com', options: { numberOfFilesPerRequest: 50 }, targetAPI: { endpoint, secretKey } });
  const outcome = await client.waitForJob(job.id);
  return `${sets.length} label sets; job ${job.id} ${outcome.outcome}`;
}
