// graphql is an optional peer of labelkit, for types only: where it is installed, a document is its
// DocumentNode (what urql, graphql-request and Apollo take); where it is not, the import below
// resolves to nothing and the structural shape stands in. The
// directive is a block comment because tsc copies it into the published declaration file, where
// it keeps an app without graphql free of TS2307 (with `skipLibCheck: false`).
// eslint-disable-next-line @typescript-eslint/ban-ts-comment, tsdoc/syntax
/** @ts-ignore graphql may be absent from an app that installs labelkit (an optional peer) */
import type * as GraphQL from 'graphql';

/**
 * True when the graphql package is not there: a type of an unresolved import is TypeScript's error
 * type, whose keys are every string. (Tested as a conditional's check type, `0 extends 1 & T`, the
 * error type spreads to the whole result, which becomes `any`: that is how graphql.web's and
 * urql's `DocumentNode` fall to `any` without graphql. Its `keyof` does not spread.)
 */
type GraphQLMissing = string extends keyof GraphQL.DocumentNode ? true : false;

/**
 * The shape of a GraphQL document that the client reads (what graphql-js's and graphql.web's
 * `DocumentNode` both are): its `kind` and its definitions, each with a `kind`.
 */
export interface DocumentShape {
  /** `'Document'`. */
  readonly kind: string;
  /** The operation and the fragments it spreads. */
  readonly definitions: readonly { readonly kind: string }[];
}

/**
 * graphql's `DocumentNode` where an app has the `graphql` package, else {@link DocumentShape}:
 * never `any`, so the types a document carries survive either way.
 */
type DocumentNodeOrShape = GraphQLMissing extends true ? DocumentShape : GraphQL.DocumentNode;

/**
 * A GraphQL document that carries the types of its result and its variables: what
 * `client.request` runs, and what `labelkit/documents`, `labelkit/documents/labels` and an app's
 * own codegen (`documentNodeImport: 'labelkit#TypedDocumentNode'`) give.
 *
 * @remarks The types ride on the phantom field `__apiType` (never present at run time), the same
 * field as `@graphql-typed-document-node/core`'s and urql's `TypedDocumentNode`, so a document
 * typed by either is one of these too and the other way round (where `graphql` is installed).
 * Unlike theirs, it does not fall back to `any` in an app that has not installed `graphql`: there,
 * the document is the structural {@link DocumentShape}, and the variables and the result stay typed.
 *
 * @typeParam Result - the operation's `data`
 * @typeParam Variables - the operation's variables
 * @example
 * ```ts
 * import type { TypedDocumentNode } from 'labelkit';
 * import { GetCabinetDocument } from 'labelkit/documents';
 * const document: TypedDocumentNode<{ getCabinet: { id: string } }, { projectId: string; role: 'LABELER' | 'REVIEWER' }> = GetCabinetDocument;
 * ```
 */
export type TypedDocumentNode<Result = { [key: string]: unknown }, Variables = { [key: string]: unknown }> = DocumentNodeOrShape & {
  /** Phantom: the types of the variables and the result, never present at run time. */
  readonly __apiType?: (variables: Variables) => Result;
};
