// One request with plain @urql/core, as labelkit sends it (POST, no cache, a bearer header): the
// yardstick of bench/apps/oneRequestApp.ts. Bundled (not run) by bench/sizeAndStartup.ts.
import { Client, fetchExchange } from '@urql/core';
import { GetCabinetDocument } from '../../generated/tags/graphql.js';

export async function cabinetOf(url: string, token: string, projectId: string): Promise<string> {
  const client = new Client({ url, exchanges: [fetchExchange], preferGetMethod: false, requestPolicy: 'network-only', fetchOptions: { headers: { authorization: `Bearer ${token}` } } });
  const result = await client.query(GetCabinetDocument, { projectId, role: 'LABELER' }).toPromise();
  if (result.error) throw result.error;
  return result.data!.getCabinet.id;
}
