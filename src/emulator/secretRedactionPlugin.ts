import type { Plugin } from 'graphql-yoga';

/** Collects every value under a `secretKey` key, at any depth, as the texts that could echo it. */
function secretsIn(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 10 || typeof value !== 'object' || value === null) return;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'secretKey' && v !== null && v !== undefined) {
      const texts = [String(v), JSON.stringify(v)].filter((t) => t.length >= 4 && t !== '[object Object]');
      for (const t of texts) out.add(t);
    }
    secretsIn(v, out, depth + 1);
  }
}

/**
 * Keeps `targetAPI.secretKey` out of every GraphQL answer, whatever produced the text.
 *
 * @returns a yoga plugin
 * @remarks The resolvers never echo the secret, but GraphQL itself does when a variable has the
 * wrong type (`Variable "$input" got invalid value 12345 at "input.targetAPI.secretKey"; …`).
 * This plugin remembers the secret values of each request's variables and replaces them with
 * `[redacted]` in the result before it is sent. Requests without a `secretKey` pay nothing.
 */
export function secretRedactionPlugin(): Plugin {
  const secretsOf = new WeakMap<Request, Set<string>>();
  return {
    onParams({ params, request }) {
      const found = new Set<string>();
      secretsIn(params.variables, found);
      if (found.size > 0) secretsOf.set(request, found);
    },
    onResultProcess({ request, result, setResult }) {
      const secrets = secretsOf.get(request);
      if (!secrets || Symbol.asyncIterator in Object(result)) return;
      let text = JSON.stringify(result);
      let changed = false;
      for (const secret of secrets) {
        // The secret may sit in the JSON text as is or escaped (quotes, backslashes).
        for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) {
          if (text.includes(form)) {
            text = text.split(form).join('[redacted]');
            changed = true;
          }
        }
      }
      if (changed) setResult(JSON.parse(text) as typeof result);
    },
  };
}
