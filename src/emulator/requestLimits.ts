import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError } from 'graphql';
import type { ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

import { MAX_QUERY_ALIASES, MAX_QUERY_DEPTH, MAX_QUERY_TOKENS } from '../shared/constants.js';

// The limits live in src/shared/constants.ts (the label-set plan checks its writes against them too).
export { MAX_BODY_BYTES, MAX_QUERY_ALIASES, MAX_QUERY_DEPTH, MAX_QUERY_TOKENS } from '../shared/constants.js';

/** Thrown by {@link readLimitedText} when a body is over the limit. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  /** @param limit - the limit in bytes */
  constructor(readonly limit: number) {
    super(`the request body is larger than ${limit} bytes`);
  }
}

/**
 * Reads a request body as text, refusing it once it passes a limit.
 *
 * @param request - a request whose body has not been read
 * @param limit - the most bytes to read
 * @returns the body as UTF-8 text
 * @throws {@link BodyTooLargeError} when `Content-Length` declares more than `limit` (nothing is
 * read) or when the body streams past `limit` (reading stops there)
 * @example
 * ```ts
 * const form = new URLSearchParams(await readLimitedText(request, MAX_BODY_BYTES));
 * ```
 */
export async function readLimitedText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const report = (code: string) => (context: ValidationContext | null, error: GraphQLError) =>
  // The library's message names the limit and what was found; its "Syntax Error: " prefix would mislead.
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code } }));

/**
 * The token cap's refusal: thrown from graphql-armor's lexer, so that reading the document stops
 * at the first token past the cap; yoga answers it as it answers a syntax error (no `data`).
 */
const tooManyTokens = () => {
  throw new GraphQLError(`the document has more than ${MAX_QUERY_TOKENS} tokens (names, punctuation, values), the most one request may hold; split it into smaller requests`, { extensions: { code: 'TOO_MANY_TOKENS' } });
};

/**
 * The caps on GraphQL operations, from graphql-armor: tokens, selection depth and aliases.
 *
 * @returns yoga plugins that refuse a longer document while it is read (code `TOO_MANY_TOKENS`,
 * naming the cap, before it is parsed or validated), and a deeper or more aliased operation with a validation
 * error, e.g. `Query depth limit of 8 exceeded, found 9.` (code `QUERY_TOO_DEEP`) or
 * `Aliases limit of 15 exceeded, found 16.` (code `TOO_MANY_ALIASES`)
 * @remarks Introspection (`__schema`) is not counted in the depth, so the explorer page works.
 * Every alias counts towards the alias cap, `__typename` ones too: graphql-armor leaves
 * `__typename` out by default (its `allowList`), which let 40 aliases `t0: __typename …` through
 * a cap of 15; an alias costs the server an answer field whatever it names.
 * @example
 * ```ts
 * createYoga({ schema, plugins: [...queryLimitPlugins()] });
 * ```
 */
export function queryLimitPlugins(): Plugin[] {
  return [
    maxTokensPlugin({ n: MAX_QUERY_TOKENS, onReject: [tooManyTokens] }) as Plugin,
    maxDepthPlugin({ n: MAX_QUERY_DEPTH, ignoreIntrospection: true, propagateOnRejection: false, onReject: [report('QUERY_TOO_DEEP')] }) as Plugin,
    maxAliasesPlugin({ n: MAX_QUERY_ALIASES, allowList: [], propagateOnRejection: false, onReject: [report('TOO_MANY_ALIASES')] }) as Plugin,
  ];
}
