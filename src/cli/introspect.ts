import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { getIntrospectionQuery, parse } from 'graphql';
import type { IntrospectionQuery } from 'graphql';
import { createLabelingClient } from 'labelkit';
import type { Connection } from './connection.js';
import { clientAuth } from './connection.js';

/** The introspection query, a typed document like any other (graphql's own query text). */
const IntrospectionDocument: TypedDocumentNode<IntrospectionQuery, Record<string, never>> = parse(getIntrospectionQuery());

/**
 * Reads the service's schema by introspection, with the connection's credentials.
 *
 * @param connection - the resolved connection (URL, token or client credentials, secrets)
 * @param signal - aborted on Ctrl-C
 * @returns the introspection result (`__schema`)
 * @throws the client's errors (`AUTH`, `NETWORK`, `TIMEOUT`, `ABORTED`, `GRAPHQL`, `BAD_RESPONSE`;
 * `phase: 'token'` while obtaining a token), redacted of every secret
 * @remarks The query runs through `client.request`, so it gets what every call of the client
 * gets: the token (or one from the token endpoint for client credentials), the 30 s time-out,
 * retries of a transient failure (`--retries`, default 3 more, honouring `Retry-After`) and the
 * one rule of what an auth failure is.
 * @example
 * ```ts
 * const data = await introspect(connection, context.signal);
 * const service = buildClientSchema(data);
 * ```
 */
export async function introspect(connection: Connection, signal: AbortSignal): Promise<IntrospectionQuery> {
  const client = createLabelingClient({ url: connection.url, ...clientAuth(connection), retry: connection.retry });
  try {
    return await client.request(IntrospectionDocument, {}, { signal });
  } finally {
    client.close();
  }
}
