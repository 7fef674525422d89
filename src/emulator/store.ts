import type { Role } from '../../generated/graphql.js';
import { EmulatorDataError } from './dataError.js';
import type { DataErrorProblem } from './dataError.js';
import { checkLabelSet, labelSetSignature } from './labelSetCheck.js';
import type { DataProblem } from './labelSetCheck.js';
import { CompactLines, LabelNames } from './compactLines.js';
import type { SpanInput } from './compactLines.js';
import type { JobSource, LabeledCopy, ProjectInput, StoredJob, StoredLabelSet, StoredProject } from './types.js';

/** The most label sets a project may have (as in production). */
export const MAX_LABEL_SETS = 5;

/** The labels of a line the model left out of its answer. */
const NO_SPANS: readonly SpanInput[] = [];

/** What a project id may be: letters, digits, `_` and `-` (it is also a folder name in a data directory). */
export const PROJECT_ID = /^[A-Za-z0-9_-]+$/;
const pathText = (path: (string | number)[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

interface Copy {
  labelerEmail: string;
  role: Role;
  /** Label names of this copy, each kept once; the documents' spans refer to them by index. */
  labels: LabelNames;
  /** documentId → labels per line number, in typed arrays (see {@link CompactLines}). */
  documents: Map<string, CompactLines>;
}

/**
 * The emulator's in-memory data: projects (label sets and documents), one cabinet per role per
 * project, jobs, and the labels stored on each labeler's copy of each document.
 *
 * @remarks Reach it as `emulator.store` (or `running.emulator.store`) to add projects in process and
 * to read results without HTTP. Nothing is persisted.
 * @example
 * ```ts
 * const emu = await startEmulator({ demoProject: false });
 * emu.emulator.store.addProject({
 *   id: 'bench', name: 'Benchmark',
 *   labelSets: [{ name: 'Entities', labels: [{ id: 'p', name: 'PERSON' }] }],
 *   documents: [{ id: 'd1', lines: ['Ada Lovelace wrote it.', 'Grace Hopper too.'] }],
 * });
 * // … run a job …
 * console.log(emu.emulator.store.labelsOf('bench'));
 * ```
 */
export class EmulatorStore {
  private readonly projectMap = new Map<string, StoredProject>();
  private readonly jobMap = new Map<string, StoredJob>();
  private readonly jobSources = new Map<string, JobSource>();
  private readonly copies = new Map<string, Map<string, Copy>>();
  private jobCounter = 0;
  /** Scratch of {@link EmulatorStore.setBatchLabels}: 1 for each line of the batch the answer set. */
  private answeredLines = new Uint8Array(0);
  private labelSetCounter = 0;

  /** Every project, by id. */
  get projects(): ReadonlyMap<string, StoredProject> {
    return this.projectMap;
  }

  /** Every job, by id. */
  get jobs(): ReadonlyMap<string, StoredJob> {
    return this.jobMap;
  }

  /**
   * Adds a project, or replaces the one with the same id (and forgets its stored labels).
   *
   * @param input - the project: id, name, up to 5 label sets, documents of lines
   * @returns the project as stored (label sets with ids, indexes and signatures)
   * @throws {@link EmulatorDataError} listing every problem (paths such as `labelSets[0].labels[2].parentId`)
   * @remarks Label sets get `index` = their position and, unless given, a numeric-text id and a
   * sha256 signature of their items. Label names must be unique case-insensitively within a set.
   * @example
   * ```ts
   * store.addProject({ id: 'p1', labelSets: [{ name: 'L', labels: [{ id: 'a', name: 'A' }] }], documents: [{ id: 'd', lines: ['x'] }] });
   * ```
   */
  addProject(input: ProjectInput): StoredProject {
    const { project, problems } = this.checkProject(input);
    if (!project) throw new EmulatorDataError(`project ${JSON.stringify((input as Partial<ProjectInput> | undefined)?.id ?? null)}`, problems);
    this.projectMap.set(project.id, project);
    this.copies.delete(project.id);
    return project;
  }

  /**
   * Checks a project without adding it.
   *
   * @param input - the project, unchecked
   * @returns the project as it would be stored, or every problem found
   * @remarks Used by {@link EmulatorStore.addProject} and by the data-folder loader, which maps the
   * problems' paths back to files and lines.
   */
  checkProject(input: ProjectInput): { project?: StoredProject; problems: DataErrorProblem[] } {
    const raw = input as unknown as Record<string, unknown> | null;
    const problems: DataProblem[] = [];
    if (typeof raw !== 'object' || raw === null) return { problems: [{ message: 'a project must be an object' }] };
    if (typeof raw.id !== 'string' || !PROJECT_ID.test(raw.id)) problems.push({ path: ['id'], message: 'id must be letters, digits, _ or - (at least one)' });
    if (raw.name !== undefined && typeof raw.name !== 'string') problems.push({ path: ['name'], message: 'name must be a string' });
    const labelSets: StoredLabelSet[] = [];
    if (!Array.isArray(raw.labelSets)) problems.push({ path: ['labelSets'], message: 'labelSets must be an array' });
    else {
      if (raw.labelSets.length > MAX_LABEL_SETS) {
        problems.push({ path: ['labelSets'], message: `a project has at most ${MAX_LABEL_SETS} label sets, got ${raw.labelSets.length}` });
      }
      raw.labelSets.forEach((set: unknown, index) => {
        const checked = checkLabelSet(set);
        problems.push(...checked.problems.map((p) => ({ path: ['labelSets', index, ...p.path], message: p.message })));
        if (checked.set) {
          const { id, signature, ...rest } = checked.set;
          labelSets.push({ ...rest, id: id ?? String(++this.labelSetCounter), index, signature: signature === undefined ? labelSetSignature(rest.labels) : signature });
        }
      });
      const ids = labelSets.map((s) => s.id);
      ids.forEach((id, i) => ids.indexOf(id) !== i && problems.push({ path: ['labelSets', i, 'id'], message: `label set id "${id}" is used twice` }));
    }
    const documents: { id: string; name: string; lines: string[] }[] = [];
    if (!Array.isArray(raw.documents)) problems.push({ path: ['documents'], message: 'documents must be an array' });
    else {
      const seen = new Set<string>();
      raw.documents.forEach((doc: unknown, i) => {
        const d = doc as Record<string, unknown> | null;
        if (typeof d !== 'object' || d === null) return void problems.push({ path: ['documents', i], message: 'a document must be an object' });
        if (typeof d.id !== 'string' || d.id === '') problems.push({ path: ['documents', i, 'id'], message: 'id must be a non-empty string' });
        else if (seen.has(d.id)) problems.push({ path: ['documents', i, 'id'], message: `document id "${d.id}" is used twice` });
        else seen.add(d.id);
        if (!Array.isArray(d.lines) || !d.lines.every((l) => typeof l === 'string')) {
          problems.push({ path: ['documents', i, 'lines'], message: 'lines must be an array of strings (one sentence per line)' });
        } else documents.push({ id: String(d.id), name: typeof d.name === 'string' ? d.name : String(d.id), lines: [...(d.lines as string[])] });
        return undefined;
      });
    }
    if (problems.length > 0) return { problems: problems.map((p) => ({ path: pathText(p.path), message: p.message })) };
    const id = raw.id as string;
    const lineCount = documents.reduce((n, d) => n + d.lines.length, 0);
    return { project: { id, name: typeof raw.name === 'string' ? raw.name : id, labelSets, documents, lineCount }, problems: [] };
  }

  /**
   * The id of a project's cabinet for a role (one cabinet per role per project).
   *
   * @param projectId - the project
   * @param role - LABELER or REVIEWER
   * @returns e.g. `demo-project:labeler`
   */
  cabinetId(projectId: string, role: Role): string {
    return `${projectId}:${role.toLowerCase()}`;
  }

  /**
   * The project behind a cabinet id.
   *
   * @param cabinetId - an id made by {@link EmulatorStore.cabinetId}
   * @returns the project, or undefined for an unknown cabinet
   */
  projectOfCabinet(cabinetId: string): StoredProject | undefined {
    const match = /^(.+):(labeler|reviewer)$/.exec(cabinetId);
    return match ? this.projectMap.get(match[1]!) : undefined;
  }

  /**
   * Creates a job in `QUEUED`.
   *
   * @param source - the project and the copy (labeler, role) the job labels, for the results
   * pages; not part of the GraphQL `Job`
   * @returns the stored job (the runner changes it in place)
   */
  createJob(source?: JobSource): StoredJob {
    const now = new Date().toISOString();
    const job: StoredJob = { id: `job-${++this.jobCounter}`, status: 'QUEUED', progress: 0, errors: [], resultId: null, createdAt: now, updatedAt: now };
    this.jobMap.set(job.id, job);
    if (source) this.jobSources.set(job.id, { ...source });
    return job;
  }

  /**
   * The project and copy a job labels.
   *
   * @param jobId - a job id
   * @returns what {@link EmulatorStore.createJob} was given, or undefined
   */
  jobSource(jobId: string): JobSource | undefined {
    return this.jobSources.get(jobId);
  }

  /**
   * Changes a job and stamps `updatedAt`.
   *
   * @param job - a job of this store
   * @param patch - the fields to change
   */
  updateJob(job: StoredJob, patch: Partial<Omit<StoredJob, 'id' | 'createdAt'>>): void {
    Object.assign(job, patch);
    job.updatedAt = new Date().toISOString();
  }

  /**
   * Sets (never appends) the labels of one line of a labeler's copy: storing a retried batch again
   * adds nothing.
   *
   * @param projectId - the project
   * @param copy - whose copy: the labeler's e-mail and the role
   * @param documentId - a document of the project
   * @param line - the zero-based line number
   * @param entities - the labels of the line (a missing `layer` is stored as 0)
   * @throws RangeError when a `start_char` or `end_char` is not a 32-bit integer (the line keeps
   * its labels); the runner stores only answers that passed the span contract, whose offsets are
   * integers within the line
   * @remarks Labels are kept compactly (numbers in typed arrays, each label name once per copy);
   * {@link EmulatorStore.labelsOf} gives them back as plain objects.
   */
  setLineLabels(projectId: string, copy: { labelerEmail: string; role: Role }, documentId: string, line: number, entities: readonly SpanInput[]): void {
    this.linesOf(projectId, copy, documentId).set(line, entities);
  }

  /**
   * Sets (never appends) the labels of a run of lines of a labeler's copy at once, as one model
   * answer gives them: each line of `first` … `first + count - 1` gets the entities answered for
   * it, or none when the answer leaves it out.
   *
   * @param projectId - the project
   * @param copy - whose copy: the labeler's e-mail and the role
   * @param documentId - a document of the project
   * @param first - the zero-based number of the run's first line
   * @param count - how many lines the run has
   * @param answered - the answer's lines: `id` is a line number, `entities` its labels; an id that
   * is not a line of the run is left out, and of two entries for one line the last counts
   * @throws RangeError when a `start_char` or `end_char` is not a 32-bit integer (that line keeps
   * its labels; the lines before it in `answered` are set already). The runner stores only answers
   * that passed the span contract, whose offsets are integers within the line.
   * @remarks What {@link EmulatorStore.setLineLabels} does for each line of the run, with the copy
   * and the document looked up once instead of once per line, and no map of the answer built first.
   * @example
   * ```ts
   * // lines 10 to 14; the model answered lines 10 and 12
   * store.setBatchLabels('p1', { labelerEmail: 'ann@example.com', role: 'LABELER' }, 'd1', 10, 5, [
   *   { id: 10, entities: [{ label: 'PERSON', start_char: 0, end_char: 3 }] },
   *   { id: 12, entities: [] },
   * ]);
   * ```
   */
  setBatchLabels(projectId: string, copy: { labelerEmail: string; role: Role }, documentId: string, first: number, count: number, answered: readonly { id: number; entities: readonly SpanInput[] }[]): void {
    const lines = this.linesOf(projectId, copy, documentId);
    // Which lines of the run the answer set: one buffer reused by every batch, not one per batch.
    if (this.answeredLines.length < count) this.answeredLines = new Uint8Array(count);
    const set = this.answeredLines.fill(0, 0, count);
    for (const { id, entities } of answered) {
      const at = id - first;
      if (at >= 0 && at < count && Number.isInteger(at)) {
        lines.set(id, entities);
        set[at] = 1;
      }
    }
    for (let at = 0; at < count; at++) if (set[at] === 0) lines.set(first + at, NO_SPANS);
  }

  /** The labels of one document of one copy, made on first use. */
  private linesOf(projectId: string, copy: { labelerEmail: string; role: Role }, documentId: string): CompactLines {
    let byCopy = this.copies.get(projectId);
    if (!byCopy) this.copies.set(projectId, (byCopy = new Map()));
    const key = `${copy.role}\u0000${copy.labelerEmail}`;
    let stored = byCopy.get(key);
    if (!stored) byCopy.set(key, (stored = { labelerEmail: copy.labelerEmail, role: copy.role, labels: new LabelNames(), documents: new Map() }));
    let lines = stored.documents.get(documentId);
    if (!lines) {
      const lineCount = this.projectMap.get(projectId)?.documents.find((d) => d.id === documentId)?.lines.length ?? 0;
      stored.documents.set(documentId, (lines = new CompactLines(stored.labels, lineCount)));
    }
    return lines;
  }

  /**
   * The labels stored on each copy of a project, as plain JSON (what the emulator-only route
   * `GET /emulator/projects/:id/labels` answers).
   *
   * @param projectId - the project
   * @returns one entry per labeler and role; each document lists the lines that received labels,
   * in line order, with their text
   */
  labelsOf(projectId: string): LabeledCopy[] {
    const project = this.projectMap.get(projectId);
    const byCopy = this.copies.get(projectId);
    if (!project || !byCopy) return [];
    return [...byCopy.values()].map((copy) => ({
      labelerEmail: copy.labelerEmail,
      role: copy.role,
      documents: project.documents.map((doc) => {
        const lines: LabeledCopy['documents'][number]['lines'] = [];
        copy.documents.get(doc.id)?.forEachLine((id, entities) => lines.push({ id, text: doc.lines[id] ?? '', entities }));
        return { id: doc.id, name: doc.name, lines };
      }),
    }));
  }
}
