import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Emulator } from '../../src/emulator/index.js';

const START = 'mutation Start($input: AutoLabelTokenBasedProjectInput!) { autoLabelTokenBasedProject(input: $input) { id } }';

/** What a test varies when it starts a job through the emulator's handler. */
export interface StartJobInput {
  projectId: string;
  endpoint: string;
  secretKey: string;
  /** `options.numberOfFilesPerRequest`. */
  filesPerRequest: number;
  /** The Bearer token the emulator was given (`staticToken`). */
  token: string;
}

/**
 * Starts an auto-labeling job by POSTing the mutation to the emulator's fetch handler (no socket),
 * and returns the job as the store holds it, so that a test can poll its status.
 *
 * @param emulator - an emulator from `createEmulator`
 * @param input - project, model endpoint, secret key, lines per request and token
 * @returns the stored job
 */
export async function startJob(emulator: Emulator, input: StartJobInput) {
  const res = await emulator.handle(
    new Request('http://emulator.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${input.token}` },
      body: JSON.stringify({
        query: START,
        variables: {
          input: {
            projectId: input.projectId,
            labelerEmail: 'a@example.com',
            options: { numberOfFilesPerRequest: input.filesPerRequest },
            targetAPI: { endpoint: input.endpoint, secretKey: input.secretKey },
          },
        },
      }),
    }),
  );
  const id = ((await res.json()) as { data: { autoLabelTokenBasedProject: { id: string } } }).data.autoLabelTokenBasedProject.id;
  return emulator.store.jobs.get(id)!;
}

/** Listens on 127.0.0.1 at a free port; resolves with the server's URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Closes a server, its open (even hung) connections included. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
