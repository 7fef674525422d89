import { getLabelSets } from 'labelkit';
import type { CallOptions, LabelingClient } from 'labelkit';
import { GetProjectCabinetsDocument, GetProjectsFinalReportDocument } from 'labelkit/documents';
import type { GetProjectCabinetsQuery } from 'labelkit/documents';
import type { Requester, TextLabel } from './readLabels.js';

/** A label of a project's label sets: its item id, its set's index and its name. */
export interface ProjectLabel {
  /** The label item's id (`TagItem.id`, `TextLabel.l`). */
  id: string;
  /** The label set's index (`TextLabel.layer`). */
  layer: number;
  name: string;
}

/** One document of a project in both copies: the reviewer's (gold) and the labeler's (the model's). */
export interface DocumentPair {
  /** The project's document (`originId`, the same in every copy). */
  originId: string;
  fileName: string;
  /** The document's id in the reviewer copy, or null when that copy lacks it. */
  goldId: string | null;
  /** The document's id in the labeler's copy, or null when that copy lacks it. */
  predictedId: string | null;
}

/** The two copies of a project that an evaluation compares, and the project's labels. */
export interface ProjectCopies {
  projectId: string;
  /** The reviewer copy's cabinet (the project has one). */
  reviewerCabinetId: string;
  /** The labeler copy's cabinet: the copy of the `labelerEmail` the job was given. */
  labelerCabinetId: string;
  /** That labeler's e-mail, as the service's final report names it (null if it names none). */
  labelerEmail: string | null;
  /** The project's documents, by `originId`, in the reviewer copy's order. */
  documents: DocumentPair[];
  /** Every label of every label set: id, layer (the set's index) and name. */
  labels: ProjectLabel[];
}

/** Why the copies to compare could not be chosen; `labelerEmails` lists the labelers the service knows. */
export class CopyNotFoundError extends Error {
  override name = 'CopyNotFoundError';
  /**
   * @param reason - `no-reviewer-copy`, `no-labeler-copy` (none of that e-mail, or none at all),
   * or `labeler-needed` (several labelers' copies: say which)
   * @param message - what is wrong
   * @param labelerEmails - the e-mails of the project's labeler copies
   */
  constructor(
    readonly reason: 'no-reviewer-copy' | 'no-labeler-copy' | 'labeler-needed',
    message: string,
    readonly labelerEmails: string[],
  ) {
    super(message);
  }
}

/** A project's cabinets (copies), as `getProjectCabinets` answers. */
export type Cabinets = GetProjectCabinetsQuery['getProjectCabinets'];

/**
 * A project's cabinets: every labeler's copy and the reviewer's, each with its documents.
 *
 * @param client - the client (only its `request` is used)
 * @param projectId - the project
 * @param call - signal and time-out of the call
 * @returns the cabinets, as `getProjectCabinets` answers
 * @throws a labelkit error when the call fails
 */
export async function readCabinets(client: Requester, projectId: string, call: CallOptions = {}): Promise<Cabinets> {
  return (await client.request(GetProjectCabinetsDocument, { projectId }, call)).getProjectCabinets;
}

/**
 * A project's cabinets, and the e-mail of the labeler behind each labeler copy.
 *
 * @param client - the client
 * @param projectId - the project
 * @param call - signal and time-out of each call
 * @returns the cabinets, cabinet id → e-mail (from `getProjectsFinalReport`), and the e-mails sorted
 */
export async function projectCabinets(client: LabelingClient, projectId: string, call: CallOptions = {}): Promise<{ cabinets: Cabinets; emailOf: Map<string, string>; emails: string[] }> {
  const [cabinets, { getProjectsFinalReport: reports }] = await Promise.all([
    readCabinets(client, projectId, call),
    client.request(GetProjectsFinalReportDocument, { projectIds: [projectId] }, call),
  ]);
  const emailOf = new Map<string, string>();
  for (const r of reports.flatMap((p) => p.documentFinalReports)) {
    const email = r.teamMember?.user?.email;
    if (r.cabinet.role === 'LABELER' && email) emailOf.set(r.cabinet.id, email);
  }
  const emails = [...new Set(cabinets.filter((c) => c.role === 'LABELER').map((c) => emailOf.get(c.id)).filter((e): e is string => e !== undefined))].sort();
  return { cabinets, emailOf, emails };
}

/**
 * Reads one copy of a project: the reviewer copy, or the copy of the labeler with that e-mail
 * (compared without case), as `labels` and `export` read it.
 *
 * @param client - the client
 * @param projectId - the project
 * @param labelerEmail - the labeler whose copy is read; the reviewer copy when left out
 * @param call - signal and time-out of each call
 * @returns the copy's cabinet
 * @throws {@link CopyNotFoundError} when the project has no such copy (with the labelers' e-mails)
 */
export async function projectCopy(client: LabelingClient, projectId: string, labelerEmail: string | undefined, call: CallOptions = {}): Promise<Cabinets[number]> {
  const { cabinets, emailOf, emails } = await projectCabinets(client, projectId, call);
  const cabinet =
    labelerEmail === undefined
      ? cabinets.find((c) => c.role === 'REVIEWER')
      : cabinets.find((c) => c.role === 'LABELER' && emailOf.get(c.id)?.toLowerCase() === labelerEmail.toLowerCase());
  if (cabinet) return cabinet;
  throw labelerEmail === undefined
    ? new CopyNotFoundError('no-reviewer-copy', `project ${projectId} has no reviewer copy`, emails)
    : new CopyNotFoundError('no-labeler-copy', `project ${projectId} has no copy of labeler ${labelerEmail}`, emails);
}

/**
 * Finds the reviewer copy (gold) and one labeler's copy (the model's labels) of a project, pairs
 * their documents, and reads the label names.
 *
 * @param client - the client
 * @param projectId - the project
 * @param options - `labelerEmail`: whose copy holds the model's labels (the `labelerEmail` the
 * auto-labeling job was given); needed when the project has several labeler copies; signal and
 * time-out of each call
 * @returns the cabinets, the document pairs and the labels
 * @throws {@link CopyNotFoundError} when there is no reviewer copy, no copy of that labeler, or
 * several labelers and none named; a labelkit error when a call fails
 * @remarks A cabinet names no owner: the labeler behind a copy is read from
 * `getProjectsFinalReport` (`teamMember.user.email`, compared case-insensitively). The model's
 * labels are that copy's, whatever their `labeledBy` (in the reviewer copy `AUTO` means accepted
 * by consensus, not "put by a model"). Label names come from the label sets of the labeler's
 * cabinet; a label is its item id and its set's index (`TextLabel.layer`).
 * @example
 * ```ts
 * const copies = await findCopies(client, 'demo-project', { labelerEmail: 'model@example.com' });
 * ```
 */
export async function findCopies(client: LabelingClient, projectId: string, options: CallOptions & { labelerEmail?: string } = {}): Promise<ProjectCopies> {
  const { labelerEmail, ...call } = options;
  const { cabinets, emailOf, emails } = await projectCabinets(client, projectId, call);
  const labelers = cabinets.filter((c) => c.role === 'LABELER');
  const reviewer = cabinets.find((c) => c.role === 'REVIEWER');
  if (!reviewer) throw new CopyNotFoundError('no-reviewer-copy', `project ${projectId} has no reviewer copy: there is no gold to score against`, emails);
  let labeler;
  if (labelerEmail !== undefined) {
    labeler = labelers.find((c) => emailOf.get(c.id)?.toLowerCase() === labelerEmail.toLowerCase());
    if (!labeler) throw new CopyNotFoundError('no-labeler-copy', `project ${projectId} has no copy of labeler ${labelerEmail}`, emails);
  } else if (labelers.length === 1) labeler = labelers[0]!;
  else if (labelers.length === 0) throw new CopyNotFoundError('no-labeler-copy', `project ${projectId} has no labeler copy: has a job run on it?`, emails);
  else throw new CopyNotFoundError('labeler-needed', `project ${projectId} has ${labelers.length} labeler copies: say whose labels are the model's`, emails);

  const predictedIds = new Map(labeler.documents.map((d) => [d.originId ?? d.id, d.id]));
  const documents: DocumentPair[] = reviewer.documents.map((d) => {
    const originId = d.originId ?? d.id;
    const predictedId = predictedIds.get(originId) ?? null;
    predictedIds.delete(originId);
    return { originId, fileName: d.fileName, goldId: d.id, predictedId };
  });
  for (const d of labeler.documents) if (predictedIds.has(d.originId ?? d.id)) documents.push({ originId: d.originId ?? d.id, fileName: d.fileName, goldId: null, predictedId: d.id });
  const sets = await getLabelSets(client, labeler.id, call);
  const labels = sets.flatMap((set) => set.labelItems.map((item) => ({ id: item.id, layer: set.index, name: item.labelName })));
  return { projectId, reviewerCabinetId: reviewer.id, labelerCabinetId: labeler.id, labelerEmail: emailOf.get(labeler.id) ?? labelerEmail ?? null, documents, labels };
}

/** Why a label of the reviewer copy is not gold, or null when it is. */
export type NotGold = 'conflict' | 'rejected' | 'deleted';

/**
 * Whether a label of the reviewer copy counts as gold.
 *
 * @param label - a label read with `readDocumentLabels`
 * @returns null for gold, else why not: `deleted` (`deleted: true`), `conflict`
 * (`labeledBy: CONFLICT`, a disagreement nobody settled) or `rejected` (a `rejectedByUserId`,
 * the field the service's conflict records carry, or `rejected: true`)
 */
export function notGold(label: TextLabel): NotGold | null {
  if (label.deleted === true) return 'deleted';
  if (label.labeledBy === 'CONFLICT') return 'conflict';
  if ((label.rejectedByUserId !== undefined && label.rejectedByUserId !== null) || label.rejected === true) return 'rejected';
  return null;
}
