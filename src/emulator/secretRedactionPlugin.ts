import { GraphQLError, Kind, parse, print, visit } from 'graphql';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isSecretKeyName, redact, REDACTED, redactValue, secretsIn } from '../shared/redact.js';

/** A value written inline in a query under a secret-like name: its text and where it starts. */
interface InlineSecret {
  text: string;
  start: number;
}

/** The secrets written inline in a query: values of secret-like object fields and arguments. */
function secretsInQuery(query: unknown): InlineSecret[] {
  // A cheap first look: the shared rule applied to the whole text says whether a secret-like word is there at all.
  if (typeof query !== 'string' || !isSecretKeyName(query)) return [];
  const found: InlineSecret[] = [];
  try {
    visit(parse(query), {
      enter(node) {
        if ((node.kind === Kind.OBJECT_FIELD || node.kind === Kind.ARGUMENT) && isSecretKeyName(node.name.value) && node.value.kind !== Kind.VARIABLE) {
          const start = node.value.loc?.start ?? -1;
          found.push({ text: print(node.value), start });
          if (node.value.kind === Kind.STRING) found.push({ text: node.value.value, start });
        }
      },
    });
  } catch {
    // A query that does not parse is answered with a syntax error that names a position, not a value.
  }
  return found;
}

// graphql-js: `Variable "$input" got invalid value <value> at "<path>"; <reason>`.
const COERCION = /^(Variable "\$[^"]+" got invalid value )([\s\S]*?)( at "([^"]*)")?(; [\s\S]*)?$/;

/**
 * Rewrites graphql-js's variable-coercion message when the value it quotes sits at, or holds, a
 * secret-like key: the value is left out, and so is the value the reason quotes after its last
 * colon (`String cannot represent a non string value: 12`). Other messages pass unchanged.
 */
function withoutCoercedSecret(message: string): string {
  const m = COERCION.exec(message);
  if (!m) return message;
  const [, head, value = '', at = '', path = '', reason = ''] = m;
  const keys = [...path.split(/[.[\]]/), ...[...value.matchAll(/([A-Za-z_$][\w$]*)\s*:/g)].map((k) => k[1]!)];
  if (!keys.some(isSecretKeyName)) return message;
  return `${head}${REDACTED}${at}${reason.replace(/:\s[\s\S]*$/, ` (value not shown: it holds a secret)`)}`;
}

/**
 * Keeps secrets out of every GraphQL answer of the emulator, whatever produced the text.
 *
 * @returns a yoga plugin
 * @remarks The resolvers never echo a secret, but GraphQL and the HTTP layer do: graphql-js quotes
 * a variable of the wrong type
 * (`Variable "$input" got invalid value 12345 at "input.targetAPI.secretKey"`), an input with a misspelled key whole, an inline literal in a
 * validation error; yoga quotes a malformed JSON body in `extensions.originalError`. This plugin
 * collects, for each request, every value under a secret-like key (`secretKey`, `clientSecret`,
 * `client_secret`, `token`, …, any case or spelling: `isSecretKeyName`) of the variables and of
 * the query's inline literals, whatever its type; then, before the answer is sent, it drops
 * `extensions.originalError` from every error (the emulator never quotes a request body), leaves
 * the quoted value out of coercion messages about a secret-like key, and passes each error through
 * the shared redactor (`redactValue`), which replaces those values in every wire form. Data is
 * not touched: the resolvers put no secret in it.
 * @example
 * ```ts
 * createYoga({ schema, plugins: [secretRedactionPlugin()] });
 * ```
 */
export function secretRedactionPlugin(): Plugin {
  const secretsOf = new WeakMap<Request, { values: string[]; inline: InlineSecret[] }>();
  return {
    onParams({ params, request }) {
      const inline = secretsInQuery(params.query);
      const values = [...secretsIn(params.variables), ...secretsIn(params.extensions), ...inline.map((i) => i.text)];
      if (values.length > 0) secretsOf.set(request, { values, inline });
    },
    onResultProcess({ request, result, setResult }) {
      if (Symbol.asyncIterator in Object(result)) return;
      const { values: secrets, inline } = secretsOf.get(request) ?? { values: [], inline: [] };
      // An error located at an inline secret quotes that value, however short: take it out by its position.
      const withoutInline = (positions: readonly number[] | undefined, message: string) =>
        inline.reduce((text, lit) => (positions?.includes(lit.start) ? text.split(lit.text).join(REDACTED) : text), message);
      const clean = (one: ExecutionResult): ExecutionResult => {
        if (!one.errors || one.errors.length === 0) return one;
        // Typed GraphQLError, but a plugin may have put a plain object there: both are handled.
        const errors = one.errors.map((error: GraphQLError) => {
          const { originalError, ...extensions } = (error.extensions ?? {}) as Record<string, unknown>;
          // Without its originalError yoga would answer a malformed body with 200: keep the 400 it gave.
          if (originalError !== undefined && typeof extensions.http === 'object' && extensions.http !== null) extensions.http = { ...extensions.http, spec: false };
          const message = redact(withoutCoercedSecret(withoutInline(error.positions, String(error.message))), secrets);
          if (!(error instanceof GraphQLError)) return redactValue({ ...(error as object), message, extensions }, secrets);
          // A GraphQLError again (not a plain object), so that yoga still reads and strips its `http` extension.
          const { nodes, source, positions, path } = error;
          return new GraphQLError(message, { nodes, source, positions, path, extensions: redactValue(extensions, secrets) });
        });
        return { ...one, errors } as unknown as ExecutionResult;
      };
      setResult((Array.isArray(result) ? result.map((r: ExecutionResult) => clean(r)) : clean(result as ExecutionResult)) as typeof result);
    },
  };
}
