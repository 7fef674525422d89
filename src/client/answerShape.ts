// The answer's shape: whether an answer holds every field its document selects.
/** The parts of a document's nodes that {@link answerProblem} reads (graphql-js's and graphql.web's nodes fit). */
interface SelectionNode {
  readonly kind: string;
  readonly operation?: string;
  readonly name?: { readonly value: string } | undefined;
  readonly alias?: { readonly value: string } | undefined;
  readonly typeCondition?: { readonly name: { readonly value: string } } | undefined;
  readonly selectionSet?: { readonly selections: readonly SelectionNode[] } | undefined;
}

/**
 * Where an answer first misses the selection that asked for it (the path to it), or undefined: every field selected
 * (aliases as keys, fragments included) is present, an object wherever sub-fields are asked (in
 * lists too). `null` passes (the schema decides nullability, and sends an error for a non-null
 * field it cannot give). A fragment whose type condition names another `__typename` than the
 * object's is skipped; select `__typename` where a union or interface is asked. A fragment spread
 * already being read on this object is not read again (a cycle ends the reading). The path is
 * built only for a miss, so a good answer costs one pass and no strings.
 */
function firstMiss(value: unknown, selections: readonly SelectionNode[], fragments: ReadonlyMap<string, SelectionNode>, seen: ReadonlySet<string> = new Set()): { path: (string | number)[]; lacks: boolean } | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const miss = firstMiss(value[i], selections, fragments);
      if (miss) return (miss.path.unshift(i), miss);
    }
    return undefined;
  }
  if (value === null) return undefined;
  if (typeof value !== 'object') return { path: [], lacks: false };
  const object = value as Record<string, unknown>;
  for (const node of selections) {
    const name = node.name?.value ?? '';
    if (node.kind === 'Field') {
      const key = node.alias?.value ?? name;
      if (object[key] === undefined) return { path: [key], lacks: true };
      const miss = node.selectionSet && firstMiss(object[key], node.selectionSet.selections, fragments);
      if (miss) return (miss.path.unshift(key), miss);
      continue;
    }
    const spread = node.kind === 'FragmentSpread';
    const fragment = spread ? (seen.has(name) ? undefined : fragments.get(name)) : node;
    const type = fragment?.typeCondition?.name.value;
    if (!fragment?.selectionSet || (type !== undefined && typeof object.__typename === 'string' && object.__typename !== type)) continue;
    const miss = firstMiss(object, fragment.selectionSet.selections, fragments, spread ? new Set([...seen, name]) : seen);
    if (miss) return miss;
  }
  return undefined;
}

/** What is missing from an answer, in words (`the answer's data lacks getJobs[0].progress`), or undefined. */
function answerProblem(data: unknown, operation: SelectionNode | undefined, fragments: ReadonlyMap<string, SelectionNode>): string | undefined {
  const miss = firstMiss(data, operation?.selectionSet?.selections ?? [], fragments);
  if (!miss) return undefined;
  const at = miss.path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
  return miss.lacks ? `the answer's data lacks ${at}` : `${at || 'data'} is not an object`;
}

const operations = new WeakMap<object, { kind: string | undefined; operationName: string; problem: (data: unknown) => string | undefined }>();

/**
 * The operation of a document, read once per document object.
 *
 * @param document - a typed document (one query or mutation, and its fragments)
 * @returns its kind (`query`, `mutation`, …), its name (`anonymous` without one) and the answer check
 * @example
 * ```ts
 * operationOf(GetCabinetDocument).operationName; // 'GetCabinet'
 * ```
 */
export function operationOf(document: { readonly definitions: readonly SelectionNode[] }) {
  const known = operations.get(document);
  if (known) return known;
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition');
  const fragments = new Map(document.definitions.filter((d) => d.kind === 'FragmentDefinition').map((d) => [d.name?.value ?? '', d]));
  const found = { kind: operation?.operation, operationName: operation?.name?.value ?? 'anonymous', problem: (data: unknown) => answerProblem(data, operation, fragments) };
  operations.set(document, found);
  return found;
}
