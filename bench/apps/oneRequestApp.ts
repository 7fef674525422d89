// The least app for the bundle-size figure: one client, one document, one `request` (a static
// token). Bundled (not run) by bench/sizeAndStartup.ts, beside the same call with plain
// @urql/core (urqlOneRequestApp.ts) and with graphql-request.
import { GetCabinetDocument } from '../../generated/tags/graphql.js';
import { createLabelingClient } from '../../src/client/index.js';

export async function cabinetOf(url: string, token: string, projectId: string): Promise<string> {
  const client = createLabelingClient({ url, token });
  const { getCabinet } = await client.request(GetCabinetDocument, { projectId, role: 'LABELER' });
  return getCabinet.id;
}
