import type { Role } from 'labelkit/documents';
import { EmulatorDataError } from './dataError.js';
import type { DataErrorProblem } from './dataError.js';
import { checkLabelSet, labelSetSignature } from './labelSetCheck.js';
import type { DataProblem } from './labelSetCheck.js';
import { CompactLines, labelFlags, LineSpans, readFlags } from './compactLines.js';
import type { SpanInput } from './compactLines.js';
import { documentCopyId, parseDocumentCopyId, ProjectCopies } from './copies.js';
import type { Copy } from './copies.js';
import { itemKey } from './labelRefs.js';
import { cellPage, finalReport, goldKeys, labelPage } from './labelReads.js';
import type { CellJson, FinalReportFigures, Page, PageInput, TextLabelJson } from './labelReads.js';
import { checkReviewLabels } from './reviewLabels.js';
import type { ReviewLabelInput } from './types.js';
import { Tokens } from './tokens.js';
import { MAX_LABEL_SETS } from '../shared/constants.js';
import { checkAppendedLabels, checkLabels, checkSignature, LabelSetWriteRefusedError, placeOfNewSet } from './labelSetWrites.js';
import type { LabelSetWriteProblem, LabelWriteInput, NewLabelWriteInput } from './labelSetWrites.js';
import type { JobSource, LabeledCopy, ProjectInput, StoredCabinet, StoredDocument, StoredJob, StoredLabel, StoredLabelSet, StoredProject, StoredSpan, StoredTextDocument } from './types.js';

/** The labels of a line the model left out of its answer. */
const NO_SPANS: readonly SpanInput[] = [];
const isInt32 = (n: number) => (n | 0) === n;

/** What a project id may be: letters, digits, `_` and `-` (it is also a folder name in a data directory). */
export const PROJECT_ID = /^[A-Za-z0-9_-]+$/;
const pathText = (path: (string | number)[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

/**
 * The emulator's in-memory data: projects (label sets and documents), jobs, and the labels of each
 * copy of each document: one copy (cabinet) per labeler e-mail and one reviewer copy per project,
 * which holds the gold labels.
 *
 * @remarks Reach it as `emulator.store` (or `running.emulator.store`) to add projects in process,
 * to set gold labels ({@link EmulatorStore.setReviewLabels}) and to read results without HTTP.
 * Labels are stored as the service stores them, by token position (see `CompactLines` and
 * tokens.ts for the snapping rule). Nothing is persisted.
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
  private readonly copies = new Map<string, ProjectCopies>();
  /** Scratch of the writes and reads: the tokens of one line, the labels of one line. */
  private readonly tokens = new Tokens();
  private readonly lineSpans = new LineSpans();
  private readonly documentMaps = new WeakMap<readonly StoredDocument[], Map<string, StoredDocument>>();
  private jobCounter = 0;
  /** Scratch of {@link EmulatorStore.setBatchLabels}: 1 for each line of the batch the answer set. */
  private answeredLines = new Uint8Array(0);
  private labelSetCounter = 0;
  /** Which projects use each label set id (kept by {@link EmulatorStore.putProject}): a new id or a lookup costs no scan of every project. */
  private readonly labelSetOwners = new Map<string, Set<string>>();

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
    const { project, review, problems } = this.checkProject(input);
    if (!project) throw new EmulatorDataError(`project ${JSON.stringify((input as Partial<ProjectInput> | undefined)?.id ?? null)}`, problems);
    this.putProject(project);
    this.copies.delete(project.id);
    for (const [documentId, labels] of review ?? []) this.writeReviewLabels(project, this.documentOf(project.id, documentId)!, labels);
    return project;
  }

  /**
   * Replaces the gold labels of one document: its labels in the project's reviewer copy.
   *
   * @param projectId - the project
   * @param documentId - a document of the project (its own id, not a copy's)
   * @param labels - the reviewer copy's labels of the document, as character spans of its lines
   * (see {@link ReviewLabelInput}); `[]` leaves the document without gold
   * @throws {@link EmulatorDataError} listing every problem (paths such as `labels[2].label`), for
   * an unknown project or document too; nothing changes then
   * @remarks The spans are snapped to whole tokens by the rule of the model's labels (tokens.ts)
   * and bound to the label item of their name in the label set of index `layer`. Labels marked
   * `CONFLICT`, `deleted` or `rejected` are kept and served as they are; they are not gold. A later job run
   * as REVIEWER writes over the lines it labels.
   * @example
   * ```ts
   * emulator.store.setReviewLabels('demo-project', 'doc-1', [
   *   { line: 0, start_char: 0, end_char: 12, label: 'PERSON', text: 'Ada Lovelace' },
   *   { line: 0, start_char: 47, end_char: 53, label: 'DATE', labeledBy: 'AUTO' },
   * ]);
   * ```
   */
  setReviewLabels(projectId: string, documentId: string, labels: readonly ReviewLabelInput[]): void {
    const where = `review labels of ${JSON.stringify(projectId)}/${JSON.stringify(documentId)}`;
    const project = this.projectMap.get(projectId);
    if (!project) throw new EmulatorDataError(where, [{ message: `no project has the id ${JSON.stringify(projectId)}` }]);
    const doc = this.documentOf(projectId, documentId);
    if (!doc) throw new EmulatorDataError(where, [{ message: `project ${JSON.stringify(projectId)} has no document ${JSON.stringify(documentId)}` }]);
    const checked = checkReviewLabels(labels, doc.lines, project.labelSets);
    if (!checked.labels) throw new EmulatorDataError(where, checked.problems.map((p) => ({ path: pathText(['labels', ...p.path]), message: p.message })));
    this.writeReviewLabels(project, doc, checked.labels);
  }

  /** Puts checked gold labels into the reviewer copy, replacing the document's. */
  private writeReviewLabels(project: StoredProject, doc: StoredDocument, labels: readonly ReviewLabelInput[]): void {
    const copy = this.copiesOf(project.id).reviewerCopy();
    const lines = new CompactLines(doc.lines.length);
    copy.documents.set(doc.id, lines);
    const byLine = [...labels].sort((a, b) => a.line - b.line);
    for (let i = 0; i < byLine.length; ) {
      const line = byLine[i]!.line;
      const spans = this.lineSpans;
      spans.clear();
      this.tokens.cut(doc.lines[line]!);
      for (; i < byLine.length && byLine[i]!.line === line; i++) {
        const l = byLine[i]!;
        const [first, last] = this.tokens.snap(l.start_char, l.end_char)!;
        spans.push(copy.labels.indexOf(l.label, l.layer ?? 0), first, last, l.confidence_score ?? Number.NaN, labelFlags(l.labeledBy, l.deleted ?? false, l.rejected ?? false));
      }
      lines.setLine(line, spans);
    }
  }

  private copiesOf(projectId: string): ProjectCopies {
    let copies = this.copies.get(projectId);
    if (!copies) this.copies.set(projectId, (copies = new ProjectCopies(projectId, () => this.projectMap.get(projectId)?.labelSets ?? [])));
    return copies;
  }

  /**
   * Checks a project without adding it.
   *
   * @param input - the project, unchecked
   * @returns the project as it would be stored, or every problem found
   * @remarks Used by {@link EmulatorStore.addProject} and by the data-folder loader, which maps the
   * problems' paths back to files and lines.
   */
  checkProject(input: ProjectInput): { project?: StoredProject; review?: Map<string, ReviewLabelInput[]>; problems: DataErrorProblem[] } {
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
    const documents: { id: string; name: string; lines: string[]; completed: boolean }[] = [];
    const review = new Map<string, ReviewLabelInput[]>();
    if (!Array.isArray(raw.documents)) problems.push({ path: ['documents'], message: 'documents must be an array' });
    else {
      const seen = new Set<string>();
      raw.documents.forEach((doc: unknown, i) => {
        const d = doc as Record<string, unknown> | null;
        if (typeof d !== 'object' || d === null) return void problems.push({ path: ['documents', i], message: 'a document must be an object' });
        if (typeof d.id !== 'string' || d.id === '') problems.push({ path: ['documents', i, 'id'], message: 'id must be a non-empty string' });
        else if (seen.has(d.id)) problems.push({ path: ['documents', i, 'id'], message: `document id "${d.id}" is used twice` });
        else seen.add(d.id);
        if (d.completed !== undefined && typeof d.completed !== 'boolean') problems.push({ path: ['documents', i, 'completed'], message: 'completed must be true or false' });
        if (!Array.isArray(d.lines) || !d.lines.every((l) => typeof l === 'string')) {
          problems.push({ path: ['documents', i, 'lines'], message: 'lines must be an array of strings (one sentence per line)' });
        } else {
          documents.push({ id: String(d.id), name: typeof d.name === 'string' ? d.name : String(d.id), lines: [...(d.lines as string[])], completed: d.completed === true });
          if (d.review !== undefined) {
            const checked = checkReviewLabels(d.review, d.lines as string[], labelSets);
            problems.push(...checked.problems.map((p) => ({ path: ['documents', i, 'review', ...p.path], message: p.message })));
            if (checked.labels) review.set(String(d.id), checked.labels);
          }
        }
        return undefined;
      });
    }
    if (problems.length > 0) return { problems: problems.map((p) => ({ path: pathText(p.path), message: p.message })) };
    const id = raw.id as string;
    const lineCount = documents.reduce((n, d) => n + d.lines.length, 0);
    return { project: { id, name: typeof raw.name === 'string' ? raw.name : id, labelSets, documents, lineCount }, review, problems: [] };
  }

  /**
   * The id of the cabinet `getCabinet` answers for a role.
   *
   * @param projectId - the project
   * @param role - LABELER or REVIEWER
   * @returns `<projectId>:reviewer` (the project's one reviewer copy) or `<projectId>:labeler`
   * @remarks `getCabinet` answers the caller's own cabinet; the emulator's caller labels nothing
   * itself, so its LABELER cabinet holds no labels and is not among `getProjectCabinets`' copies
   * (`<projectId>:labeler-<n>`, one per labeler e-mail a job wrote for).
   */
  cabinetId(projectId: string, role: Role): string {
    return `${projectId}:${role.toLowerCase()}`;
  }

  /**
   * The project behind a cabinet id.
   *
   * @param cabinetId - an id made by {@link EmulatorStore.cabinetId} or a copy's (`<projectId>:labeler-<n>`)
   * @returns the project, or undefined for an unknown cabinet
   */
  projectOfCabinet(cabinetId: string): StoredProject | undefined {
    const match = /^(.+):(labeler(-\d+)?|reviewer)$/.exec(cabinetId);
    const project = match ? this.projectMap.get(match[1]!) : undefined;
    if (project && match![3] !== undefined && !this.copies.get(project.id)?.byCabinet(cabinetId)) return undefined;
    return project;
  }

  /**
   * A cabinet as `getCabinet` and `getProjectCabinets` answer it (its documents are read with
   * {@link EmulatorStore.cabinetDocuments}).
   *
   * @param projectId - the project
   * @param cabinetId - the cabinet's id
   * @returns the cabinet: role by its id, status IN_PROGRESS
   */
  cabinet(projectId: string, cabinetId: string): StoredCabinet {
    return { id: cabinetId, projectId, role: cabinetId.endsWith(':reviewer') ? 'REVIEWER' : 'LABELER', status: 'IN_PROGRESS' };
  }

  /**
   * Every cabinet of a project (`getProjectCabinets`).
   *
   * @param projectId - the project
   * @returns one per labeler copy (in the order the copies were made: `<projectId>:labeler-1`, …),
   * then the reviewer copy's `<projectId>:reviewer` (always: it holds the gold labels when there are
   * any); undefined for an unknown project
   */
  cabinets(projectId: string): StoredCabinet[] | undefined {
    if (!this.projectMap.has(projectId)) return undefined;
    const labelers = this.copies.get(projectId)?.labelerCopies() ?? [];
    return [...labelers.map((c) => this.cabinet(projectId, c.cabinetId)), this.cabinet(projectId, this.cabinetId(projectId, 'REVIEWER'))];
  }

  /**
   * The documents of a cabinet: one copy of each document of the project.
   *
   * @param cabinet - a cabinet of {@link EmulatorStore.cabinet}
   * @returns `id` = `<cabinet id>:<document id>` (what `getLabelsPaginated` and `getCells` take),
   * `originId` = the project's document id, `fileName` = the document's name, `isCompleted` = the
   * document was given `completed` and the cabinet is the reviewer copy
   */
  cabinetDocuments(cabinet: StoredCabinet): StoredTextDocument[] {
    const project = this.projectMap.get(cabinet.projectId);
    return (project?.documents ?? []).map((d) => ({ id: documentCopyId(cabinet.id, d.id), originId: d.id, fileName: d.name, isCompleted: cabinet.role === 'REVIEWER' && d.completed }));
  }

  /**
   * The document copy behind a `TextDocument.id`.
   *
   * @returns the project's document and the copy (undefined when nothing was written into the
   * cabinet yet), or undefined for an id of no document copy
   */
  private documentCopy(documentId: string): { doc: StoredDocument; copy: Copy | undefined } | undefined {
    const parsed = parseDocumentCopyId(documentId);
    const project = parsed && this.projectOfCabinet(parsed.cabinetId);
    const doc = project && this.documentOf(project.id, parsed!.originId);
    return doc && { doc, copy: this.copies.get(project!.id)?.byCabinet(parsed!.cabinetId) };
  }

  /**
   * One page of the labels of a document copy (`getLabelsPaginated`).
   *
   * @param documentId - a `TextDocument.id` of a cabinet
   * @param input - `page` or `cursor` (see `labelPage` in labelReads.ts)
   * @returns the page, or undefined for an unknown document copy
   * @throws `PageInputError` listing every problem of `input`
   */
  labelPage(documentId: string, input: PageInput): Page<TextLabelJson> | undefined {
    const found = this.documentCopy(documentId);
    return found && labelPage(documentId, found.copy, found.doc, input, this.tokens);
  }

  /**
   * One page of the lines of a document copy, with their tokens (`getCells`).
   *
   * @param documentId - a `TextDocument.id` of a cabinet
   * @param input - `page` or `cursor`
   * @returns the page, or undefined for an unknown document copy
   * @throws `PageInputError` listing every problem of `input`
   */
  cellPage(documentId: string, input: PageInput): Page<CellJson> | undefined {
    const found = this.documentCopy(documentId);
    return found && cellPage(documentId, found.doc, input, this.tokens);
  }

  /**
   * The final reports of a project (`getProjectsFinalReport`): one per labeler copy and document,
   * against the reviewer copy.
   *
   * @param projectId - the project
   * @returns the reports in copy order, then document order, each with the labeler's e-mail (see
   * `finalReport` in labelReads.ts for the figures); undefined for an unknown project
   */
  finalReports(projectId: string): { cabinet: StoredCabinet; document: StoredTextDocument; email: string; figures: FinalReportFigures }[] | undefined {
    const project = this.projectMap.get(projectId);
    if (!project) return undefined;
    const copies = this.copies.get(projectId);
    const reviewer = copies?.byCabinet(this.cabinetId(projectId, 'REVIEWER'));
    const labelers = copies?.labelerCopies() ?? [];
    // Each document's gold is read once, not once per labeler copy.
    const gold = new Map(labelers.length === 0 ? [] : project.documents.map((d) => [d.id, goldKeys(reviewer, d.id)]));
    return labelers.flatMap((copy) => {
      const cabinet = this.cabinet(projectId, copy.cabinetId);
      return this.cabinetDocuments(cabinet).map((document) => ({ cabinet, document, email: copy.labelerEmail, figures: finalReport(copy, gold.get(document.originId)!, document.originId) }));
    });
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
   * Sets (never appends) the labels of one line of a copy: storing a retried batch again adds
   * nothing.
   *
   * @param projectId - the project
   * @param copy - whose copy: the labeler's e-mail and the role; role REVIEWER writes into the
   * project's one reviewer copy, whatever the e-mail
   * @param documentId - a document of the project
   * @param line - the zero-based line number
   * @param entities - the labels of the line as the model gives them: character spans, a name and
   * a `layer` (0 when absent)
   * @throws RangeError when a `start_char` or `end_char` is not a 32-bit integer, or a span holds
   * no token of the line (white space only, outside the line, or a line the document lacks); the
   * line keeps its labels then. The runner stores only answers that passed the span contract and
   * `spanBindingProblems`.
   * @remarks Labels are stored as the service stores them, by token position (see `CompactLines`):
   * each span is snapped to the whole tokens it touches (tokens.ts), and bound to the label item
   * that has its name now in the label set whose index is its `layer` (case aside; a span label
   * before an arrow label): it refers to the item's id, so a rename keeps it and a removal of the
   * item removes it. A name that set lacks is kept as given and belongs to no item.
   * {@link EmulatorStore.labelsOf} gives the labels back as character spans of whole tokens.
   */
  setLineLabels(projectId: string, copy: { labelerEmail: string; role: Role }, documentId: string, line: number, entities: readonly SpanInput[]): void {
    const target = this.copiesOf(projectId).forWriter(copy);
    const doc = this.documentOf(projectId, documentId);
    this.writeLine(target, this.linesOf(target, documentId, doc), doc, line, entities);
  }

  /**
   * Sets (never appends) the labels of a run of lines of a copy at once, as one model answer
   * gives them: each line of `first` … `first + count - 1` gets the entities answered for it, or
   * none when the answer leaves it out.
   *
   * @param projectId - the project
   * @param copy - whose copy: the labeler's e-mail and the role (REVIEWER: the reviewer copy)
   * @param documentId - a document of the project
   * @param first - the zero-based number of the run's first line
   * @param count - how many lines the run has
   * @param answered - the answer's lines: `id` is a line number, `entities` its labels; an id that
   * is not a line of the run is left out, and of two entries for one line the last counts
   * @throws RangeError as {@link EmulatorStore.setLineLabels} (that line keeps its labels; the
   * lines before it in `answered` are set already).
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
    const target = this.copiesOf(projectId).forWriter(copy);
    const doc = this.documentOf(projectId, documentId);
    const lines = this.linesOf(target, documentId, doc);
    // Which lines of the run the answer set: one buffer reused by every batch, not one per batch.
    if (this.answeredLines.length < count) this.answeredLines = new Uint8Array(count);
    const set = this.answeredLines.fill(0, 0, count);
    for (const { id, entities } of answered) {
      const at = id - first;
      if (at >= 0 && at < count && Number.isInteger(at)) {
        this.writeLine(target, lines, doc, id, entities);
        set[at] = 1;
      }
    }
    for (let at = 0; at < count; at++) if (set[at] === 0) this.writeLine(target, lines, doc, first + at, NO_SPANS);
  }

  /** Snaps a line's entities to tokens, binds their names, and sets the line; all or nothing. */
  private writeLine(copy: Copy, lines: CompactLines, doc: StoredDocument | undefined, line: number, entities: readonly SpanInput[]): void {
    const spans = this.lineSpans;
    spans.clear();
    if (entities.length > 0) {
      const text = doc?.lines[line] ?? '';
      this.tokens.cut(text);
      for (const e of entities) {
        if (!isInt32(e.start_char) || !isInt32(e.end_char)) throw new RangeError(`start_char and end_char must be integer character offsets, got ${e.start_char} and ${e.end_char}`);
        if (!this.tokens.snapInPlace(e.start_char, e.end_char)) {
          throw new RangeError(`the span ${e.start_char}-${e.end_char} holds no token of line ${line} of document ${JSON.stringify(doc?.id ?? null)} (white space only, or outside the line)`);
        }
        spans.push(copy.labels.indexOf(e.label, e.layer ?? 0), this.tokens.first, this.tokens.last, e.confidence_score ?? Number.NaN, 0);
      }
    }
    lines.setLine(line, spans);
  }

  /** A project's document by id, through a map made once per documents list (not a search per batch). */
  private documentOf(projectId: string, documentId: string): StoredDocument | undefined {
    const documents = this.projectMap.get(projectId)?.documents;
    if (!documents) return undefined;
    let byId = this.documentMaps.get(documents);
    if (!byId) this.documentMaps.set(documents, (byId = new Map(documents.map((d) => [d.id, d]))));
    return byId.get(documentId);
  }

  /** The labels of one document of one copy, made on first use. */
  private linesOf(copy: Copy, documentId: string, doc: StoredDocument | undefined): CompactLines {
    let lines = copy.documents.get(documentId);
    if (!lines) copy.documents.set(documentId, (lines = new CompactLines(doc?.lines.length ?? 0)));
    return lines;
  }

  /**
   * The labels stored on each copy of a project, as plain JSON (what the emulator-only route
   * `GET /emulator/projects/:id/labels` answers).
   *
   * @param projectId - the project
   * @returns one entry per copy: the labelers' (in the order they were made), then the reviewer
   * copy when it holds labels (its gold, and what REVIEWER jobs wrote; `labelerEmail` is the e-mail
   * of the last such job, '' before one). Each document lists the lines that received labels, in
   * line order, with their text. A span's `label` is its item's name now (as the model spelled it
   * while the item keeps that name); `start_char` and `end_char` are those of the whole tokens it
   * was snapped to; `labeledBy` is there only when it is not the copy's own (LABELER, or REVIEWER
   * for the reviewer copy), `deleted` and `rejected` only when true.
   */
  labelsOf(projectId: string): LabeledCopy[] {
    const project = this.projectMap.get(projectId);
    const copies = this.copies.get(projectId);
    if (!project || !copies) return [];
    const tokens = this.tokens;
    return copies.all().map((copy) => ({
      labelerEmail: copy.labelerEmail,
      role: copy.role,
      documents: project.documents.map((doc) => {
        const lines: LabeledCopy['documents'][number]['lines'] = [];
        const stored = copy.documents.get(doc.id);
        stored?.forEachLine((id, first, count) => {
          const text = doc.lines[id] ?? '';
          tokens.cut(text);
          const entities: StoredSpan[] = [];
          for (let at = first; at < first + count; at++) {
            const entry = stored.entryAt(at);
            const confidence = stored.confidenceAt(at);
            const { labeledBy, deleted, rejected } = readFlags(stored.flagsAt(at), copy.labeledBy);
            entities.push({
              label: copy.labels.nameAt(entry),
              start_char: tokens.start(stored.startTokenAt(at)),
              end_char: tokens.end(stored.endTokenAt(at)),
              layer: copy.labels.layerAt(entry),
              ...(!Number.isNaN(confidence) && { confidence_score: confidence }),
              ...(labeledBy !== copy.labeledBy && { labeledBy }),
              ...(deleted && { deleted }),
              ...(rejected && { rejected }),
            });
          }
          lines.push({ id, text, entities });
        });
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

  private projectOrThrow(projectId: string): StoredProject {
    const project = this.projectMap.get(projectId);
    if (!project) throw new LabelSetWriteRefusedError('NOT_FOUND', `no project has the id "${projectId}"`);
    return project;
  }

  private labelSetOrThrow(id: string): { project: StoredProject; set: StoredLabelSet } {
    const found: { project: StoredProject; set: StoredLabelSet }[] = [];
    for (const projectId of this.labelSetOwners.get(id) ?? []) {
      const project = this.projectMap.get(projectId);
      for (const set of project?.labelSets ?? []) if (set.id === id) found.push({ project: project!, set });
    }
    if (found.length === 0) throw new LabelSetWriteRefusedError('NOT_FOUND', `no label set has the id "${id}"`);
    if (found.length > 1) {
      const where = found.map((f) => `"${f.project.id}"`).join(', ');
      throw new LabelSetWriteRefusedError('BAD_USER_INPUT', `label set id "${id}" is used in several projects (${where}): give each set of the data folder its own id`, [{ path: ['id'], message: `is used in projects ${where}` }]);
    }
    return found[0]!;
  }

  /** A numeric-text label set id that no project uses (nor `reserved`). */
  private newLabelSetId(reserved: ReadonlySet<string> = new Set()): string {
    let id: string;
    do id = String(++this.labelSetCounter);
    while (reserved.has(id) || this.labelSetOwners.has(id));
    return id;
  }

  /** Stores a project (new, or with new label sets) and keeps the index of label set ids in step. */
  private putProject(project: StoredProject): void {
    for (const set of this.projectMap.get(project.id)?.labelSets ?? []) {
      const owners = this.labelSetOwners.get(set.id);
      owners?.delete(project.id);
      if (owners?.size === 0) this.labelSetOwners.delete(set.id);
    }
    this.projectMap.set(project.id, project);
    for (const set of project.labelSets) {
      const owners = this.labelSetOwners.get(set.id) ?? new Set<string>();
      owners.add(project.id);
      this.labelSetOwners.set(set.id, owners);
    }
  }

  /**
   * Puts a project's new label sets in place (sorted by index), removes the applied labels of the
   * removed label items from every copy, and lets the copies bind names to the sets as they are now.
   */
  private setLabelSets(project: StoredProject, labelSets: StoredLabelSet[], removedItems: readonly string[]): void {
    this.putProject({ ...project, labelSets: [...labelSets].sort((a, b) => a.index - b.index) });
    const gone = new Set(removedItems);
    for (const copy of this.copies.get(project.id)?.all() ?? []) {
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
