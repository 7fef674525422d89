import { createHash } from 'node:crypto';
import type { SpanEntity } from '../model/contract.js';

/** A label of a label set, as the service stores it. */
export interface StoredTagItem {
  id: string;
  parentId: string | null;
  tagName: string;
  color: string | null;
  desc: string | null;
  type: 'SPAN' | 'ARROW' | 'ALL';
}
export interface StoredLabelSet {
  id: string;
  index: number;
  name: string;
  tagItems: StoredTagItem[];
  arrowLabelRequired: boolean;
}
export interface StoredDocument {
  id: string;
  name: string;
  /** One sentence per line. */
  lines: string[];
}
export interface StoredProject {
  id: string;
  name: string;
  labelSets: StoredLabelSet[];
  documents: StoredDocument[];
}
export interface StoredJob {
  id: string;
  status: 'QUEUED' | 'IN_PROGRESS' | 'DELIVERED' | 'FAILED' | 'NONE';
  progress: number;
  errors: { id: string; stack: string; args: Record<string, unknown> | null }[];
  resultId: string | null;
  createdAt: string;
  updatedAt: string;
}
/** The labels of one line of a labeler's copy. */
export type LineLabels = SpanEntity[];

/** The hex digest of a label set's items (sha256 of their canonical JSON). */
export function labelSetSignature(items: StoredTagItem[]): string {
  const canonical = items.map((i) => [i.id, i.parentId, i.tagName, i.color, i.type]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * The emulator's in-memory data: projects (label sets, documents), cabinets, jobs, and the
 * labels stored on each labeler's copy of each document.
 */
export class EmulatorStore {
  readonly projects = new Map<string, StoredProject>();
  readonly jobs = new Map<string, StoredJob>();
  /** projectId → labelerEmail → documentId → line number → labels. */
  readonly labels = new Map<string, Map<string, Map<string, Map<number, LineLabels>>>>();
  private jobCounter = 0;

  /**
   * Adds (or replaces) a project; checks it first.
   *
   * @param project - the project; at most 5 label sets, indexes 0..n-1
   * @throws Error naming the rule broken
   */
  addProject(project: StoredProject): void {
    if (!project.id) throw new Error('a project needs an id');
    if (project.labelSets.length > 5) throw new Error(`project ${project.id} has ${project.labelSets.length} label sets; at most 5`);
    this.projects.set(project.id, project);
  }

  /** The cabinet id of a project for a role (one per role per project). */
  cabinetId(projectId: string, role: string): string {
    return `${projectId}:${role.toLowerCase()}`;
  }

  /** The project behind a cabinet id, or undefined. */
  projectOfCabinet(cabinetId: string): StoredProject | undefined {
    const i = cabinetId.lastIndexOf(':');
    return i > 0 ? this.projects.get(cabinetId.slice(0, i)) : undefined;
  }

  /** Creates a job in QUEUED. */
  createJob(): StoredJob {
    const now = new Date().toISOString();
    const job: StoredJob = { id: `job-${++this.jobCounter}`, status: 'QUEUED', progress: 0, errors: [], resultId: null, createdAt: now, updatedAt: now };
    this.jobs.set(job.id, job);
    return job;
  }

  /** Changes a job, stamping updatedAt. */
  updateJob(job: StoredJob, patch: Partial<StoredJob>): void {
    Object.assign(job, patch, { updatedAt: new Date().toISOString() });
  }

  /** Sets (not appends) the labels of one line: storing a retried batch twice adds nothing. */
  setLineLabels(projectId: string, labelerEmail: string, documentId: string, line: number, entities: LineLabels): void {
    const byLabeler = this.labels.get(projectId) ?? new Map<string, Map<string, Map<number, LineLabels>>>();
    this.labels.set(projectId, byLabeler);
    const byDoc = byLabeler.get(labelerEmail) ?? new Map<string, Map<number, LineLabels>>();
    byLabeler.set(labelerEmail, byDoc);
    const byLine = byDoc.get(documentId) ?? new Map<number, LineLabels>();
    byDoc.set(documentId, byLine);
    byLine.set(line, entities);
  }

  /** The stored labels of a project, per labeler copy, as plain JSON. */
  labelsOf(projectId: string): { labelerEmail: string; documents: { id: string; lines: { id: number; text: string; entities: LineLabels }[] }[] }[] {
    const project = this.projects.get(projectId);
    const byLabeler = this.labels.get(projectId);
    if (!project || !byLabeler) return [];
    return [...byLabeler].map(([labelerEmail, byDoc]) => ({
      labelerEmail,
      documents: project.documents.map((doc) => ({
        id: doc.id,
        lines: [...(byDoc.get(doc.id) ?? new Map<number, LineLabels>())]
          .sort(([a], [b]) => a - b)
          .map(([id, entities]) => ({ id, text: doc.lines[id] ?? '', entities })),
      })),
    }));
  }
}
