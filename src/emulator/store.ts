import type { Role } from 'labelkit/documents';
import { EmulatorDataError } from './dataError.js';
import type { DataErrorProblem } from './dataError.js';
import { checkLabelSet, labelSetSignature } from './labelSetCheck.js';
import type { DataProblem } from './labelSetCheck.js';
import { CompactLines } from './compactLines.js';
import type { SpanInput } from './compactLines.js';
import { itemKey, LabelRefs } from './labelRefs.js';
import { MAX_LABEL_SETS } from '../shared/constants.js';
import { checkAppendedLabels, checkLabels, checkSignature, LabelSetWriteRefusedError, placeOfNewSet } from './labelSetWrites.js';
import type { LabelSetWriteProblem, LabelWriteInput, NewLabelWriteInput } from './labelSetWrites.js';
import type { JobSource, LabeledCopy, ProjectInput, StoredJob, StoredLabel, StoredLabelSet, StoredProject } from './types.js';

/** The most label sets a project may have (as in production); one constant for the client and the emulator. */
export { MAX_LABEL_SETS } from '../shared/constants.js';

/** The labels of a line the model left out of its answer. */
const NO_SPANS: readonly SpanInput[] = [];

/** What a project id may be: letters, digits, `_` and `-` (it is also a folder name in a data directory). */
export const PROJECT_ID = /^[A-Za-z0-9_-]+$/;
const pathText = (path: (string | number)[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

interface Copy {
  labelerEmail: string;
  role: Role;
  /** The labels of this copy, bound to label item ids; the documents' spans refer to them by index. */
  labels: LabelRefs;
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
      const given = new Set(raw.labelSets.map((set: unknown) => (set as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string'));
      raw.labelSets.forEach((set: unknown, index) => {
        const checked = checkLabelSet(set);
        problems.push(...checked.problems.map((p) => ({ path: ['labelSets', index, ...p.path], message: p.message })));
        if (checked.set) {
          const { id, signature, ...rest } = checked.set;
          labelSets.push({ ...rest, id: id ?? this.newLabelSetId(given), index, signature: signature === undefined ? labelSetSignature(rest.labels) : signature });
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
   * @remarks Labels are kept compactly (numbers in typed arrays, each label once per copy);
   * {@link EmulatorStore.labelsOf} gives them back as plain objects. Each span is bound to the
   * label item that has its name now (case aside; the first set by index, a span label before an
   * arrow label): it refers to the item's id, so a rename keeps it and a removal of the item
   * removes it. A name that no item has is kept as given and belongs to no item.
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
    if (!stored) {
      const labels = new LabelRefs(() => this.projectMap.get(projectId)?.labelSets ?? []);
      byCopy.set(key, (stored = { labelerEmail: copy.labelerEmail, role: copy.role, labels, documents: new Map() }));
    }
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
   * in line order, with their text; a span's `label` is its item's name now (as the model spelled
   * it while the item keeps that name)
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

  /**
   * Creates a label set in a project (`createLabelSet`).
   *
   * @param projectId - the project
   * @param input - `index` (absent: the lowest free one), `name` (absent: `Label set <index>`),
   * `arrowLabelRequired` (absent: false) and the labels
   * @returns the new set, with a numeric-text id unique in the emulator and the signature of its labels
   * @throws {@link LabelSetWriteRefusedError} `NOT_FOUND` for an unknown project; `BAD_USER_INPUT` listing
   * every problem: a sixth set, an index outside 0–4 or already in use, an empty name, and the
   * labels' problems (see `checkLabels`: ids, names unique under one parent, parents, `#rrggbb` colours)
   * @example
   * ```ts
   * store.createLabelSet('demo-project', { name: 'Sentiment', labels: [{ id: 'pos', name: 'POSITIVE', color: '#22c55e' }] });
   * ```
   */
  createLabelSet(projectId: string, input: { index?: number | null; name?: string | null; arrowLabelRequired?: boolean | null; labels: readonly LabelWriteInput[] }): StoredLabelSet {
    const project = this.projectOrThrow(projectId);
    const place = placeOfNewSet(project.labelSets, input.index, input.name);
    const checked = checkLabels(input.labels, []);
    refuseProblems([...place.problems, ...checked.problems]);
    const index = place.index!;
    const set: StoredLabelSet = {
      id: this.newLabelSetId(),
      index,
      name: input.name ?? `Label set ${index}`,
      signature: labelSetSignature(checked.labels),
      labels: checked.labels,
      arrowLabelRequired: input.arrowLabelRequired ?? false,
    };
    this.setLabelSets(project, [...project.labelSets, set], []);
    return set;
  }

  /**
   * Renames a project's label set and/or replaces all of its labels (`updateProjectLabelSet`).
   *
   * @param input - the set's `id` and `projectId`; `labelSetSignature` as last read (optional);
   * `name` (absent: unchanged); `labels` (absent: unchanged; given: every label of the set)
   * @returns the set afterwards
   * @throws {@link LabelSetWriteRefusedError} `NOT_FOUND` (project, or set of that project),
   * `STALE_SIGNATURE` (see `checkSignature`), `BAD_USER_INPUT` listing every problem
   * @remarks Labels applied with a label whose id is not in the new list are removed from every
   * copy; a label whose id stays keeps its applied labels, whatever its new name, colour or parent.
   * The signature is computed again when the labels are given.
   * @example
   * ```ts
   * store.updateLabelSet({ id: '1', projectId: 'demo-project', name: 'Named entities' });
   * ```
   */
  updateLabelSet(input: { id: string; projectId: string; labelSetSignature?: string | null; name?: string | null; labels?: readonly LabelWriteInput[] | null }): StoredLabelSet {
    const project = this.projectOrThrow(input.projectId);
    const set = project.labelSets.find((s) => s.id === input.id);
    if (!set) throw new LabelSetWriteRefusedError('NOT_FOUND', `project "${project.id}" has no label set with the id "${input.id}"`);
    checkSignature(set, input.labelSetSignature);
    const problems: LabelSetWriteProblem[] = [];
    if (typeof input.name === 'string' && input.name.trim() === '') problems.push({ path: ['name'], message: 'must be a non-empty string, or absent' });
    const checked = input.labels ? checkLabels(input.labels, set.labels) : undefined;
    refuseProblems([...problems, ...(checked?.problems ?? [])]);
    const next: StoredLabelSet = { ...set, name: input.name ?? set.name, ...(checked && { labels: checked.labels, signature: labelSetSignature(checked.labels) }) };
    const kept = new Set(next.labels.map((l) => l.id));
    const removed = set.labels.filter((l) => !kept.has(l.id)).map((l) => itemKey(set.id, l.id));
    this.setLabelSets(project, project.labelSets.map((s) => (s === set ? next : s)), removed);
    return next;
  }

  /**
   * Adds labels at the top of a label set, keeping the labels it has (`appendLabelSetTagItems`).
   *
   * @param input - the set's id, `labelSetSignature` as last read (optional), the new labels
   * @returns the new labels only, with their ids (generated where absent: see `nextLabelId`)
   * @throws {@link LabelSetWriteRefusedError} `NOT_FOUND`, `STALE_SIGNATURE`, or `BAD_USER_INPUT` listing every problem
   * @example
   * ```ts
   * const [added] = store.appendLabels({ labelSetId: '1', labels: [{ name: 'EVENT', color: '#a855f7' }] });
   * ```
   */
  appendLabels(input: { labelSetId: string; labelSetSignature?: string | null; labels: readonly NewLabelWriteInput[] }): StoredLabel[] {
    const { project, set } = this.labelSetOrThrow(input.labelSetId);
    checkSignature(set, input.labelSetSignature);
    const checked = checkAppendedLabels(input.labels, set.labels);
    refuseProblems(checked.problems);
    const labels = [...set.labels, ...checked.labels];
    this.setLabelSets(project, project.labelSets.map((s) => (s === set ? { ...set, labels, signature: labelSetSignature(labels) } : s)), []);
    return checked.labels;
  }

  /**
   * Deletes a label set and the labels applied with its labels, from every copy (`deleteLabelSet`).
   *
   * @param id - the set's id
   * @returns the ids deleted: the set's (what production's `[ID!]!` holds is not documented; a GUESS)
   * @throws {@link LabelSetWriteRefusedError} `NOT_FOUND` for an unknown set
   * @remarks The other sets keep their index.
   * @example
   * ```ts
   * store.deleteLabelSet('1'); // ['1']
   * ```
   */
  deleteLabelSet(id: string): string[] {
    const { project, set } = this.labelSetOrThrow(id);
    this.setLabelSets(project, project.labelSets.filter((s) => s !== set), set.labels.map((l) => itemKey(set.id, l.id)));
    return [set.id];
  }

  /**
   * How many applied labels use each label of a project (emulator-only; production publishes no
   * such count).
   *
   * @param projectId - the project
   * @returns one entry per label of every set, in set and label order, 0 for a label never applied;
   * counted over every labeler's and reviewer's copy
   * @throws {@link LabelSetWriteRefusedError} `NOT_FOUND` for an unknown project
   * @example
   * ```ts
   * store.appliedLabelCounts('demo-project'); // [{ labelSetId: '1', labelItemId: '10', appliedLabels: 0 }, …]
   * ```
   */
  appliedLabelCounts(projectId: string): { labelSetId: string; labelItemId: string; appliedLabels: number }[] {
    const project = this.projectOrThrow(projectId);
    const byItem = new Map<string, number>();
    for (const copy of this.copies.get(projectId)?.values() ?? []) {
      const counts: number[] = [];
      for (const doc of copy.documents.values()) doc.countLabels(counts);
      counts.forEach((n, label) => {
        const item = copy.labels.itemAt(label);
        if (item !== undefined) byItem.set(item, (byItem.get(item) ?? 0) + n);
      });
    }
    return project.labelSets.flatMap((set) => set.labels.map((l) => ({ labelSetId: set.id, labelItemId: l.id, appliedLabels: byItem.get(itemKey(set.id, l.id)) ?? 0 })));
  }

  private projectOrThrow(projectId: string): StoredProject {
    const project = this.projectMap.get(projectId);
    if (!project) throw new LabelSetWriteRefusedError('NOT_FOUND', `no project has the id "${projectId}"`);
    return project;
  }

  private labelSetOrThrow(id: string): { project: StoredProject; set: StoredLabelSet } {
    const found: { project: StoredProject; set: StoredLabelSet }[] = [];
    for (const project of this.projectMap.values()) for (const set of project.labelSets) if (set.id === id) found.push({ project, set });
    if (found.length === 0) throw new LabelSetWriteRefusedError('NOT_FOUND', `no label set has the id "${id}"`);
    if (found.length > 1) {
      const where = found.map((f) => `"${f.project.id}"`).join(', ');
      throw new LabelSetWriteRefusedError('BAD_USER_INPUT', `label set id "${id}" is used in several projects (${where}): give each set of the data folder its own id`, [{ path: ['id'], message: `is used in projects ${where}` }]);
    }
    return found[0]!;
  }

  /** A numeric-text label set id that no project uses (nor `reserved`). */
  private newLabelSetId(reserved: ReadonlySet<string> = new Set()): string {
    const used = new Set(reserved);
    for (const project of this.projectMap.values()) for (const set of project.labelSets) used.add(set.id);
    let id: string;
    do id = String(++this.labelSetCounter);
    while (used.has(id));
    return id;
  }

  /**
   * Puts a project's new label sets in place (sorted by index), removes the applied labels of the
   * removed label items from every copy, and lets the copies bind names to the sets as they are now.
   */
  private setLabelSets(project: StoredProject, labelSets: StoredLabelSet[], removedItems: readonly string[]): void {
    this.projectMap.set(project.id, { ...project, labelSets: [...labelSets].sort((a, b) => a.index - b.index) });
    const gone = new Set(removedItems);
    for (const copy of this.copies.get(project.id)?.values() ?? []) {
      if (gone.size > 0) {
        for (const doc of copy.documents.values()) {
          doc.removeLabels((label) => {
            const item = copy.labels.itemAt(label);
            return item !== undefined && gone.has(item);
          });
        }
      }
      copy.labels.labelSetsChanged();
    }
  }
}

/** Throws the one `BAD_USER_INPUT` error of a write, listing every problem, when there is any. */
function refuseProblems(problems: LabelSetWriteProblem[]): void {
  if (problems.length === 0) return;
  const list = problems.map((p) => `${pathText(p.path)}: ${p.message}`).join('; ');
  throw new LabelSetWriteRefusedError('BAD_USER_INPUT', `Invalid input (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${list}`, problems);
}
