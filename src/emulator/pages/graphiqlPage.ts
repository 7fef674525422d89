import type { GraphiQLOptions } from 'graphql-yoga';

/** The query GraphiQL opens with when the browser has no saved tab. */
const GRAPHIQL_DEFAULT_QUERY = `# The labeling service's API (local emulator).
# Docs: the book icon. Run: Ctrl-Enter.
query GetCabinet($projectId: ID!, $role: Role!) {
  getCabinet(projectId: $projectId, role: $role) {
    id
  }
}
`;

/** The variables of {@link GRAPHIQL_DEFAULT_QUERY}. */
const GRAPHIQL_DEFAULT_VARIABLES = '{ "projectId": "demo-project", "role": "LABELER" }';

/** Tokens that may be written into the page's script as they are (the emulator's own are base64url). */
const PLAIN_TOKEN = /^[A-Za-z0-9._~+/=-]{1,512}$/;

/**
 * The GraphiQL page served at `GET /graphql`, from `@graphql-yoga/render-graphiql`, which bundles
 * GraphiQL and its editor workers in the page: nothing is loaded from another host.
 *
 * @param token - the dev token to pre-set as `Authorization: Bearer …` in the headers editor, or
 * undefined for none (the request did not come from this machine)
 * @returns the HTML document (about 9 MB; the caller caches it)
 * @remarks Headers are not persisted in the browser's storage, so a reload after an emulator
 * restart gets the new token. A token with characters other than base64/URL-safe ones is left
 * out rather than written into the page's script. The page opens with the GetCabinet query of
 * the demo project. The package (about 9 MB of script) is imported on the first call, not when the
 * emulator starts (importing it takes about a third of a second).
 * @example
 * ```ts
 * const html = await graphiqlPage(emulator.token);
 * ```
 */
export async function graphiqlPage(token: string | undefined): Promise<string> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const preset = token !== undefined && PLAIN_TOKEN.test(token);
  const headers = JSON.stringify(preset ? { Authorization: `Bearer ${token}` } : {}, null, 2);
  const options: GraphiQLOptions & { variables: string } = {
    title: 'labelkit emulator · GraphiQL',
    endpoint: '/graphql',
    defaultQuery: GRAPHIQL_DEFAULT_QUERY,
    // Yoga's page reads `variables` (the first tab's variables) though its type does not list it.
    variables: GRAPHIQL_DEFAULT_VARIABLES,
    headers,
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers',
  };
  return renderGraphiQL(options);
}
