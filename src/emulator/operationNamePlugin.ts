import { Kind, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const ALPHANUMERIC = /^[A-Za-z0-9_]+$/;

/**
 * Accepts any alphanumeric `operationName` when the document holds exactly one operation, as the
 * service documents (its own example body names a different operation than its document).
 *
 * @returns a yoga plugin that drops such an `operationName` before execution
 * @remarks With several operations in the document, `operationName` still selects one and must
 * match. The operation count of each query text is cached (at most 200 texts), so a client sending
 * the same documents does not pay a second parse.
 */
export function operationNamePlugin(): Plugin {
  const counts = new Map<string, number>();
  const countOperations = (query: string): number | undefined => {
    let n = counts.get(query);
    if (n !== undefined) return n;
    try {
      n = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
    } catch {
      return undefined; // yoga reports the syntax error
    }
    if (counts.size >= 200) counts.delete(counts.keys().next().value!);
    counts.set(query, n);
    return n;
  };
  return {
    onParams({ params, setParams }) {
      const { operationName, query } = params;
      if (!operationName || !query || !ALPHANUMERIC.test(operationName)) return;
      if (countOperations(query) === 1) setParams({ ...params, operationName: undefined });
    },
  };
}
