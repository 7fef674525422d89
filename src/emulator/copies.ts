import type { Role } from 'labelkit/documents';
import type { CompactLines, LabeledBy } from './compactLines.js';
import { LabelRefs } from './labelRefs.js';
import type { StoredLabelSet } from './types.js';

/**
 * One copy of a project's documents: a labeler's, or the project's one reviewer copy. A copy is a
 * cabinet of the service (`getProjectCabinets`).
 */
export interface Copy {
  /** The labeler's e-mail; for the reviewer copy, the e-mail of the last job that wrote into it ('' before). */
  labelerEmail: string;
  role: Role;
  /** `<projectId>:labeler-<n>` (n from 1, in order of creation) or `<projectId>:reviewer`. */
  cabinetId: string;
  /** The `labeledBy` of the copy's labels that have none of their own: LABELER, or REVIEWER for the reviewer copy. */
  labeledBy: LabeledBy;
  /** The labels of this copy, bound to label item ids; the documents' labels refer to them by entry. */
  labels: LabelRefs;
  /** documentId → labels per line number, in typed arrays (see {@link CompactLines}). */
  documents: Map<string, CompactLines>;
}

/** A project id: letters, digits, `_` and `-`, so that it never holds the `:` of the ids below. */
const DOCUMENT_COPY_ID = /^([A-Za-z0-9_-]+):(labeler(?:-\d+)?|reviewer):(.+)$/s;

/**
 * The id of a document's copy in a cabinet (`TextDocument.id`).
 *
 * @param cabinetId - e.g. `demo-project:labeler-1`
 * @param originId - the project's document id, e.g. `doc-1`
 * @returns e.g. `demo-project:labeler-1:doc-1`
 */
export function documentCopyId(cabinetId: string, originId: string): string {
  return `${cabinetId}:${originId}`;
}

/**
 * Reads a document copy id made by {@link documentCopyId}.
 *
 * @param id - a `TextDocument.id`
 * @returns the project id, the cabinet id and the project's document id; undefined when the id
 * has not that shape
 */
export function parseDocumentCopyId(id: string): { projectId: string; cabinetId: string; originId: string } | undefined {
  const match = DOCUMENT_COPY_ID.exec(id);
  return match ? { projectId: match[1]!, cabinetId: `${match[1]!}:${match[2]!}`, originId: match[3]! } : undefined;
}

/**
 * The copies of one project: one per labeler e-mail, and one reviewer copy.
 *
 * @remarks A job run as LABELER writes into the copy of its `labelerEmail` (made on first use); a
 * job run as REVIEWER writes into the one reviewer copy, whatever e-mail it names, as the service
 * has one review per project (its export has one `REVIEW/` folder). The reviewer copy also holds
 * the gold labels of the data folder.
 * @example
 * ```ts
 * const copies = new ProjectCopies('p1', () => project.labelSets);
 * copies.forWriter({ labelerEmail: 'ann@example.com', role: 'LABELER' }).cabinetId; // 'p1:labeler-1'
 * ```
 */
export class ProjectCopies {
  private readonly labelers = new Map<string, Copy>();
  private readonly cabinets = new Map<string, Copy>();
  private reviewer: Copy | undefined;

  /**
   * @param projectId - the project
   * @param labelSets - the project's label sets as they are now
   */
  constructor(
    private readonly projectId: string,
    private readonly labelSets: () => readonly StoredLabelSet[],
  ) {}

  /**
   * The copy a job (or `setLineLabels`) writes into, made on first use.
   *
   * @param writer - the job's labeler e-mail and role
   * @returns the labeler's copy, or the reviewer copy for role REVIEWER (its `labelerEmail`
   * becomes the writer's)
   */
  forWriter(writer: { labelerEmail: string; role: Role }): Copy {
    if (writer.role === 'REVIEWER') {
      const copy = this.reviewerCopy();
      copy.labelerEmail = writer.labelerEmail;
      return copy;
    }
    let copy = this.labelers.get(writer.labelerEmail);
    if (!copy) {
      copy = this.make(`${this.projectId}:labeler-${this.labelers.size + 1}`, 'LABELER', writer.labelerEmail);
      this.labelers.set(writer.labelerEmail, copy);
    }
    return copy;
  }

  /** @returns the reviewer copy, made on first use */
  reviewerCopy(): Copy {
    return (this.reviewer ??= this.make(`${this.projectId}:reviewer`, 'REVIEWER', ''));
  }

  /**
   * @param cabinetId - a cabinet id
   * @returns the copy behind it, or undefined when none was made (yet)
   */
  byCabinet(cabinetId: string): Copy | undefined {
    return this.cabinets.get(cabinetId);
  }

  /** @returns the labelers' copies in order of creation */
  labelerCopies(): Copy[] {
    return [...this.labelers.values()];
  }

  /** @returns every copy: the labelers' in order of creation, then the reviewer copy when made */
  all(): Copy[] {
    return this.reviewer ? [...this.labelers.values(), this.reviewer] : [...this.labelers.values()];
  }

  private make(cabinetId: string, role: Role, labelerEmail: string): Copy {
    // A copy's own labeledBy is its role's: LABELER, or REVIEWER.
    const copy: Copy = { labelerEmail, role, cabinetId, labeledBy: role, labels: new LabelRefs(this.labelSets), documents: new Map() };
    this.cabinets.set(cabinetId, copy);
    return copy;
  }
}
