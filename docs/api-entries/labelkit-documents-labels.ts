/**
 * The typed documents of the schema after the service's tag→label rename (`labelItems`, `labelName`).
 *
 * Written by graphql-codegen from `operations/`, one operation per file. For an operation `X`:
 * `XDocument` is its `TypedDocumentNode`, to run with `client.request` or any GraphQL client that
 * reads one; `XQuery` or `XMutation` its result's `data`; `XQueryVariables` or `XMutationVariables`
 * its variables. The input types and enums are the schema's, with its descriptions.
 *
 * @module labelkit/documents/labels
 */
export * from '../../generated/labels/graphql.js';
