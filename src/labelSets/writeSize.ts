import { MAX_BODY_BYTES } from '../shared/constants.js';
import type { PlanWrite } from './plan.js';

/** Room for what a request carries besides its variables: the GraphQL document (under 1 KB each) and the envelope. */
const DOCUMENT_ALLOWANCE = 2048;

const encoder = new TextEncoder();

/**
 * How many bytes the request that carries a write takes, at most: its variables in the renamed
 * schema's words (`labelItems`, `labelName`, longer than today's `tagItems`, `tagName`), every
 * label field given, plus room for the document.
 *
 * @param projectId - the project
 * @param write - a write of a plan
 * @returns the estimated size of the request body, in bytes (never below the real one)
 * @example
 * ```ts
 * writeRequestBytes('p', { op: 'delete', setIndex: 1, setId: '2' }); // 2112
 * ```
 */
export function writeRequestBytes(projectId: string, write: PlanWrite): number {
  const item = (i: { id?: string; parentId?: string | null; labelName: string; color?: string | null; desc?: string | null }) => ({
    id: i.id ?? null,
    parentId: i.parentId ?? null,
    labelName: i.labelName,
    color: i.color ?? null,
    desc: i.desc ?? null,
  });
  const variables =
    write.op === 'create'
      ? { projectId, input: { index: write.setIndex, name: write.name, labelItems: write.labelItems.map(item) } }
      : write.op === 'delete'
        ? { id: write.setId }
        : write.op === 'append'
          ? { input: { labelSetId: write.setId, labelSetSignature: '0'.repeat(64), labelItems: write.labelItems.map(item) } }
          : { input: { id: write.setId, projectId, labelSetSignature: '0'.repeat(64), name: write.name ?? null, labelItems: write.labelItems?.map(item) ?? null } };
  return encoder.encode(JSON.stringify({ operationName: 'UpdateProjectLabelSet', variables })).length + DOCUMENT_ALLOWANCE;
}

/**
 * The limits of the service a plan is checked against, in words (for messages and docs/label-sets.md).
 *
 * @returns e.g. `1 MiB (1048576 bytes) per request`
 */
export function requestLimitText(): string {
  return `${MAX_BODY_BYTES / 1_048_576} MiB (${MAX_BODY_BYTES} bytes)`;
}
