/**
 * The emulator's data types: what callers give (`…Input`) and what the store keeps (`Stored…`).
 * The store speaks labelkit's own words (label, not tag) whatever the schema generation; only the
 * GraphQL layer (resolvers.ts) knows the wire names, and codegen maps these types to the schema's
 * (generated/<generation>/resolvers.ts), so a field the store lacks is a compile error there.
 */
import type { JobStatus, Role } from 'labelkit/documents';
import type { LabeledBy } from './compactLines.js';

/** Which kinds of annotation a label may be used for (schema `LabelClassType`). */
export type LabelClassType = 'SPAN' | 'ARROW' | 'ALL';

/**
 * One label of a label set, as given to {@link EmulatorStore.addProject} or in a data folder.
 *
 * @remarks `parentId` links labels into a hierarchy (null or absent at the top). Names compare
 * case-insensitively and must be unique within a set.
 */
export interface LabelInput {
  /** Unique within the set. */
  id: string;
  /** @defaultValue null (a top-level label) */
  parentId?: string | null;
  /** The label's name, e.g. `PERSON`. */
  name: string;
  /** Usually `#rrggbb`; any string. @defaultValue null */
  color?: string | null;
  /** @defaultValue null */
  desc?: string | null;
  /** @defaultValue 'SPAN' */
  type?: LabelClassType;
}

/** A label set as given to {@link EmulatorStore.addProject}. */
export interface LabelSetInput {
  /** @defaultValue numeric text, unique in the emulator (the service's ids are numeric text) */
  id?: string;
  name: string;
  /** @defaultValue false */
  arrowLabelRequired?: boolean;
  /**
   * `null` publishes the set without a signature (production has such sets).
   * @defaultValue the sha256 hex digest of the items, see `labelSetSignature`
   */
  signature?: string | null;
  labels: LabelInput[];
}

/** A document as given to {@link EmulatorStore.addProject}: one sentence per line. */
export interface DocumentInput {
  id: string;
  /** @defaultValue the id */
  name?: string;
  lines: string[];
  /**
   * The document's gold labels: its labels in the project's reviewer copy (see
   * `EmulatorStore.setReviewLabels`). @defaultValue none
   */
  review?: ReviewLabelInput[];
  /**
   * Whether the reviewer copy's document is marked complete (`TextDocument.isCompleted`, what
   * `labelkit export --status completed` keeps); a labeler copy's document is not. @defaultValue false
   */
  completed?: boolean;
}

/** A project as given to {@link EmulatorStore.addProject}. */
export interface ProjectInput {
  /** Letters, digits, `_` and `-`. */
  id: string;
  /** @defaultValue the id */
  name?: string;
  /** At most 5; their `index` is their position. */
  labelSets: LabelSetInput[];
  documents: DocumentInput[];
}

/** A label of a label set (schema `TagItem`; its name is `tagName` or `labelName` on the wire). */
export interface StoredLabel {
  id: string;
  parentId: string | null;
  name: string;
  color: string | null;
  desc: string | null;
  type: LabelClassType;
}

/** A label set (schema `LabelSet`; its labels are `tagItems` or `labelItems` on the wire). */
export interface StoredLabelSet {
  id: string;
  index: number;
  name: string;
  signature: string | null;
  labels: StoredLabel[];
  arrowLabelRequired: boolean;
}

/** One copy of a project's document in a cabinet (schema `TextDocument`). */
export interface StoredTextDocument {
  /** The copy's own id (what `getLabelsPaginated` and `getCells` take). */
  id: string;
  /** The project's document id. */
  originId: string;
  /** The document's file name. */
  fileName: string;
  /** Marked complete in this copy (the emulator: the reviewer copy's documents given `completed`). */
  isCompleted: boolean;
}

/** A project's cabinet: a labeler's copy or the reviewer copy (schema `Cabinet`; its `documents` has a resolver). */
export interface StoredCabinet {
  id: string;
  /** The project the cabinet belongs to (not in the schema). */
  projectId: string;
  role: Role;
  status: 'COMPLETE' | 'IN_PROGRESS';
}

/** A document of a project. */
export interface StoredDocument {
  id: string;
  name: string;
  lines: readonly string[];
  /** The reviewer copy's document is marked complete. */
  completed: boolean;
}

/** A project held by the store. */
export interface StoredProject {
  id: string;
  name: string;
  labelSets: readonly StoredLabelSet[];
  documents: readonly StoredDocument[];
  /** Total number of lines over all documents. */
  lineCount: number;
}

/** One error of a job (schema `JobError`); `args` never holds a secret. */
export interface StoredJobError {
  id: string;
  stack: string;
  args: Record<string, unknown> | null;
}

/** A job (schema `Job`). */
export interface StoredJob {
  id: string;
  status: JobStatus;
  progress: number;
  errors: StoredJobError[];
  resultId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a job labels and where its labels go (kept by the store beside the job, not in GraphQL). */
export interface JobSource {
  projectId: string;
  labelerEmail: string;
  role: Role;
}

/**
 * One label stored on a copy, as character offsets of the whole tokens it covers (the model's
 * entity after snapping, `layer` defaulted to 0).
 */
export interface StoredSpan {
  label: string;
  start_char: number;
  end_char: number;
  confidence_score?: number;
  layer: number;
  /** Only when not the copy's own (LABELER, or REVIEWER in the reviewer copy), e.g. AUTO or CONFLICT in gold. */
  labeledBy?: LabeledBy;
  /** Only when the label was deleted. */
  deleted?: true;
  /** Only when the reviewer rejected the label (gold only). */
  rejected?: true;
}

/** The labels stored on one copy (one labeler, one role) of a project's documents. */
export interface LabeledCopy {
  labelerEmail: string;
  role: Role;
  documents: { id: string; name: string; lines: { id: number; text: string; entities: StoredSpan[] }[] }[];
}

/**
 * One label of a project's reviewer copy (the gold labels), as a data folder's
 * `review/<documentId>.json` or `EmulatorStore.setReviewLabels` gives it.
 *
 * @remarks Offsets are characters of the line, as the model's span contract has them
 * (`start_char` inclusive, `end_char` exclusive, UTF-16 code units); the store snaps them to whole
 * tokens by the same rule as the model's labels (tokens.ts).
 */
export interface ReviewLabelInput {
  /** The zero-based line number. */
  line: number;
  /** The span's first character (inclusive). */
  start_char: number;
  /** The offset after its last character (exclusive). */
  end_char: number;
  /** A label name of the label set whose index is `layer` (case-insensitive). */
  label: string;
  /** The label set's index. @defaultValue 0 */
  layer?: number;
  /** The span's text, checked against the line when given (it catches an offset off by one). */
  text?: string;
  /**
   * Who put the label: `REVIEWER` (put or accepted by the reviewer), `AUTO` (accepted by the
   * labelers' consensus), `CONFLICT` (unresolved: not gold), … @defaultValue 'REVIEWER'
   */
  labeledBy?: LabeledBy;
  /** A deleted label is kept and served with `deleted: true` (not gold). @defaultValue false */
  deleted?: boolean;
  /**
   * A label the reviewer rejected is kept and served with `rejectedByUserId` set (not gold). A
   * GUESS: production's `TextLabel` has no rejected field; its `GqlConflictable` has
   * `rejectedByUserId`, and it lists rejected labels with `getSpanAndArrowRejectedLabels`.
   * @defaultValue false
   */
  rejected?: boolean;
  /** From 0 to 1. @defaultValue none */
  confidence_score?: number;
}
