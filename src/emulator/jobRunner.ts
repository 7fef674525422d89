import type { Role } from 'labelkit/documents';
import { redact } from '../shared/redact.js';
import { MODEL_TIMEOUT_MS } from '../shared/constants.js';
import { callModel, createModelAgents, ModelCallError } from './callModel.js';
import type { ModelAgents } from './callModel.js';
import { JobAbort } from './jobAbort.js';
import { validateSpanResponse } from 'labelkit/model';
import type { SpanRequest, SpanResponse } from 'labelkit/model';
import { spanBindingProblems } from './spanBinding.js';
import type { EmulatorStore } from './store.js';
import type { StoredJob, StoredProject } from './types.js';

/** How the job runner calls models (`EmulatorOptions.model`). */
export interface ModelOptions {
  /** Time-out of one model request, reading the answer included. @defaultValue 30_000 */
  timeoutMs?: number;
  /**
   * Model requests in flight at once to one model endpoint (one origin: scheme, host and port),
   * over all jobs calling it. Each endpoint has its own limit, so a model that never answers
   * does not hold back jobs calling another one. @defaultValue 4
   */
  concurrency?: number;
  /** Retries of one batch after a 408, 429 or 5xx answer, a time-out or a network error (`classifyFailure` says transient). @defaultValue 2 */
  retries?: number;
  /** Delay before the first retry; doubles with each further retry. @defaultValue 250 */
  retryDelayMs?: number;
  /** A job stops taking new batches once this many batches failed. @defaultValue 10 */
  maxFailedBatches?: number;
}

/** What a job needs to run. */
interface AutoLabelTask {
  project: StoredProject;
  labelerEmail: string;
  role: Role;
  numberOfFilesPerRequest: number;
  endpoint: string;
  secretKey: string;
}

interface Batch {
  /** The document's lines (shared, not copied: a job's batches are all made up front). */
  document: StoredProject['documents'][number];
  first: number;
  count: number;
}

/** What every batch of one job shares, worked out once per job. */
interface JobContext {
  task: AutoLabelTask;
  /** Span label names of the project, lower case. */
  spanLabels: ReadonlySet<string>;
  stop: JobAbort;
  /** The model's URL, parsed once, and its origin (the key of its concurrency limit). */
  endpoint: URL;
  origin: string;
  /** The copy the labels go to. */
  copy: { labelerEmail: string; role: Role };
  /** How many batches the job has: each batch error says it, so a reader can count "N of M failed". */
  batches: number;
}

/** Most errors kept on one job; the last one says how many more there were. */
const MAX_JOB_ERRORS = 50;

/**
 * Splits a project's documents into model requests: N lines per request, 0 = a whole document.
 *
 * @param project - the project
 * @param linesPerRequest - `numberOfFilesPerRequest`
 * @returns the batches in document order; documents without lines give none
 */
function batchesOf(project: StoredProject, linesPerRequest: number): Batch[] {
  const out: Batch[] = [];
  for (const doc of project.documents) {
    const size = linesPerRequest === 0 ? doc.lines.length : linesPerRequest;
    for (let first = 0; first < doc.lines.length; first += size) {
      out.push({ document: doc, first, count: Math.min(size, doc.lines.length - first) });
    }
  }
  return out;
}

/**
 * At most `max` model calls in flight per model origin, over all jobs; a call beyond waits for a
 * slot of its own origin only, first come first served.
 *
 * @remarks The runner's concurrency limit, in place of p-limit: a call that finds a free slot runs
 * at once, without the three promises and the queued closure p-limit makes per call (at one line
 * per request that was the largest cost of the runner's own). A finished call, failed or not,
 * hands its slot straight to the next waiter; an origin with nothing in flight and nobody waiting
 * is forgotten. A call's time-out starts when it gets its slot, not while it waits.
 * @example
 * ```ts
 * const slots = new OriginSlots(4);
 * const body = await slots.run('http://127.0.0.1:9000', () => callModel(call));
 * ```
 */
export class OriginSlots {
  private readonly origins = new Map<string, { active: number; waiting: Array<() => void> }>();

  /**
   * @param max - calls in flight at once per origin (at least 1)
   */
  constructor(private readonly max: number) {}

  /**
   * Runs `call` once a slot of `origin` is free.
   *
   * @param origin - the model's origin (scheme, host and port)
   * @param call - the model call
   * @returns what `call` returns (or rejects with)
   */
  async run<T>(origin: string, call: () => Promise<T>): Promise<T> {
    let slots = this.origins.get(origin);
    if (!slots) this.origins.set(origin, (slots = { active: 0, waiting: [] }));
    if (slots.active < this.max) slots.active++;
    else {
      const queue = slots.waiting;
      await new Promise<void>((resolve) => queue.push(resolve)); // the slot is handed over: `active` stays
    }
    try {
      return await call();
    } finally {
      const next = slots.waiting.shift();
      if (next) next();
      else if (--slots.active === 0) this.origins.delete(origin);
    }
  }
}

const sleep = (ms: number, stop: JobAbort) =>
  new Promise<void>((resolve) => {
    if (stop.aborted) return resolve();
    const timer = setTimeout(done, ms);
    const unsubscribe = stop.subscribe(done);
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });

/**
 * Runs auto-labeling jobs: calls the customer's model with the span contract, checks every answer,
 * stores the predictions on the labeler's copy, and moves the job's status and progress.
 *
 * @remarks A job goes QUEUED → IN_PROGRESS → DELIVERED (progress 100) or FAILED (with `JobError`s).
 * Each batch is stored all or nothing, by line (a retried batch never duplicates a label). Progress
 * is the share of batches whose labels were stored (a failed batch is not progress), below 100
 * until the job is DELIVERED, and only grows. Each batch error's `args` hold the job's number of
 * `batches`; the error that stops a job early, and the note that ends a capped list of errors, hold
 * the exact `{ failedBatches, batches, notSent }`. The secret goes only into the `Authorization`
 * header; errors name the batch and the rule broken, never the secret.
 */
export class JobRunner {
  private readonly running = new Map<StoredJob, { controller: AbortController; done: Promise<void> }>();
  private readonly opts: Required<ModelOptions>;
  /** The model calls in flight per model origin. */
  private readonly slots: OriginSlots;
  private readonly agents: ModelAgents;
  /** The most jobs that were in flight at once (see {@link JobRunner.inFlight}). */
  private peak = 0;

  /**
   * @param store - where jobs and labels live
   * @param options - time-out, concurrency, retries
   * @param log - one line per job event (never a secret)
   */
  constructor(
    private readonly store: EmulatorStore,
    options: ModelOptions = {},
    private readonly log: (line: string) => void = () => {},
  ) {
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as ModelOptions;
    this.opts = { timeoutMs: MODEL_TIMEOUT_MS.default, concurrency: 4, retries: 2, retryDelayMs: 250, maxFailedBatches: 10, ...defined };
    this.agents = createModelAgents(Math.max(1, this.opts.concurrency));
    this.slots = new OriginSlots(Math.max(1, this.opts.concurrency));
  }

  /**
   * Starts a job in the background and returns at once.
   *
   * @param job - a QUEUED job of the store
   * @param task - what to label and with which model
   */
  start(job: StoredJob, task: AutoLabelTask): void {
    const controller = new AbortController();
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run(job, task, controller.signal))
      .catch((error: unknown) => this.fail(job, `internal error of the emulator: ${error instanceof Error ? error.message : String(error)}`, null, task.secretKey))
      .finally(() => this.running.delete(job));
    this.running.set(job, { controller, done });
    this.peak = Math.max(this.peak, this.running.size);
  }

  /**
   * The jobs in flight: started and not yet ended (QUEUED or IN_PROGRESS), now and at most at once
   * since the runner began (or since `resetPeak`). A job leaves the count in the same turn as it
   * becomes DELIVERED or FAILED, before any request can read its end.
   *
   * @returns `now` and `peak`
   */
  inFlight(): { now: number; peak: number } {
    return { now: this.running.size, peak: this.peak };
  }

  /** Starts the peak again from the jobs in flight now. */
  resetPeak(): void {
    this.peak = this.running.size;
  }

  /**
   * Stops every running job (each ends FAILED, saying the emulator stopped) and waits for them.
   *
   * @returns when no job runs any more
   */
  async close(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort();
    await Promise.all(all.map((r) => r.done));
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private fail(job: StoredJob, text: string, args: Record<string, unknown> | null, secretKey = ''): void {
    // A model may echo what it was sent; its words reach errors, so the secret is cut out here too.
    const stack = redact(text, [secretKey]);
    if (job.errors.length < MAX_JOB_ERRORS) job.errors.push({ id: `${job.id}-e${job.errors.length + 1}`, stack, args });
    else if (job.errors.length === MAX_JOB_ERRORS) job.errors.push({ id: `${job.id}-e${MAX_JOB_ERRORS + 1}`, stack: 'more errors were left out', args: null });
  }

  private async run(job: StoredJob, task: AutoLabelTask, signal: AbortSignal): Promise<void> {
    // One listener on the job's signal, whatever the number of calls in flight.
    const stop = new JobAbort(signal);
    try {
      await this.runJob(job, task, stop);
    } finally {
      stop.dispose();
    }
  }

  private async runJob(job: StoredJob, task: AutoLabelTask, stop: JobAbort): Promise<void> {
    const signal = stop.signal;
    const spanLabels = new Set(task.project.labelSets.flatMap((s) => s.labels.filter((i) => i.type !== 'ARROW').map((i) => i.name.toLowerCase())));
    const batches = batchesOf(task.project, task.numberOfFilesPerRequest);
    // Parsed once per job, not twice per model call (checkAutoLabelInput accepted it already).
    const endpoint = new URL(task.endpoint);
    const context: JobContext = { task, spanLabels, stop, endpoint, origin: endpoint.origin, copy: { labelerEmail: task.labelerEmail, role: task.role }, batches: batches.length };
    this.store.updateJob(job, { status: 'IN_PROGRESS' });
    this.log(`job ${job.id} IN_PROGRESS: ${batches.length} model requests for project ${task.project.id}`);
    let next = 0;
    let finished = 0;
    let failedBatches = 0;
    // Progress is work done: only batches whose labels were stored count, a failed one does not.
    let stored = 0;
    const worker = async () => {
      while (next < batches.length && !signal.aborted && failedBatches < this.opts.maxFailedBatches) {
        const batch = batches[next++]!;
        const ok = await this.runBatch(job, batch, context);
        finished++;
        if (!ok) {
          failedBatches++;
          continue;
        }
        stored++;
        const progress = Math.min(99, Math.floor((stored * 100) / batches.length));
        if (progress > job.progress) this.store.updateJob(job, { progress });
      }
    };
    const workers = Math.min(this.opts.concurrency, batches.length);
    await Promise.all(Array.from({ length: workers }, worker));
    const counts = { failedBatches, batches: batches.length, notSent: batches.length - finished };
    if (signal.aborted) this.fail(job, 'the emulator stopped before the job ended', null);
    else if (failedBatches >= this.opts.maxFailedBatches && finished < batches.length) {
      this.fail(job, `the job stopped after ${failedBatches} failed model requests; ${counts.notSent} were not sent`, counts);
    }
    // A capped list ends with a note: it carries the counts that the errors left out would have given.
    const capped = job.errors[MAX_JOB_ERRORS];
    if (capped) capped.args = counts;
    if (job.errors.length > 0) this.store.updateJob(job, { status: 'FAILED' });
    else this.store.updateJob(job, { status: 'DELIVERED', progress: 100, resultId: `result-${job.id}` });
    this.log(`job ${job.id} ${job.status} (${job.errors.length} errors)`);
  }

  /** Calls the model for one batch (with retries), checks the answer, stores it; false on failure. */
  private async runBatch(job: StoredJob, batch: Batch, context: JobContext): Promise<boolean> {
    const { task, spanLabels, stop, endpoint, origin, copy } = context;
    // Built with push, not slice().map(): map's result is a holey array, which JSON.stringify
    // walks on its slow path (measured: building and serialising a batch 20-25 % faster).
    const sentences: SpanRequest['documents'][number]['sentences'] = [];
    for (let line = batch.first, end = batch.first + batch.count; line < end; line++) sentences.push({ id: line, text: batch.document.lines[line]! });
    const request: SpanRequest = { id: task.project.id, name: task.project.name, documents: [{ id: batch.document.id, sentences }] };
    const documentId = batch.document.id;
    const last = batch.first + batch.count - 1;
    // Only a failure names the batch: these are built then, not for every batch.
    const where = () => `document "${documentId}" lines ${batch.first}-${last}`;
    const args = () => ({ documentId, firstLine: batch.first, lastLine: last, batches: context.batches });
    let body: unknown;
    for (let attempt = 1; ; attempt++) {
      try {
        body = await this.slots.run(origin, () => callModel({ endpoint, secretKey: task.secretKey, request, timeoutMs: this.opts.timeoutMs, stop, agents: this.agents }));
        break;
      } catch (error) {
        const e = error instanceof ModelCallError ? error : new ModelCallError(String(error), false);
        if (!e.retryable || attempt > this.opts.retries || stop.aborted) {
          const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
          this.fail(job, `${where()}: ${e.message}${tries}`, { ...args(), attempts: attempt, ...(e.status !== undefined && { httpStatus: e.status }) }, task.secretKey);
          return false;
        }
      }
      await sleep(this.opts.retryDelayMs * 2 ** (attempt - 1), stop);
    }
    const problems = validateSpanResponse(body, request, { spanLabels });
    if (problems.length > 0) {
      for (const p of problems) this.fail(job, `${where()}: the model's answer breaks the span contract at ${p.path}: ${p.message}`, { ...args(), path: p.path }, task.secretKey);
      return false;
    }
    // Stored as the service stores labels: bound inside the set of the entity's layer, snapped to tokens.
    const labelSets = this.store.projects.get(task.project.id)?.labelSets ?? task.project.labelSets;
    const unbound = spanBindingProblems(labelSets, batch.document.lines, body as SpanResponse);
    if (unbound.length > 0) {
      for (const p of unbound) this.fail(job, `${where()}: the model's answer cannot be stored at ${p.path}: ${p.message}`, { ...args(), path: p.path }, task.secretKey);
      return false;
    }
    // Every line of the batch is set, those the model left out to no labels: the copy shows this job's answer.
    // A valid answer holds the batch's one document exactly once, each of its lines at most once.
    this.store.setBatchLabels(task.project.id, copy, documentId, batch.first, batch.count, (body as SpanResponse).documents[0]!.labels);
    return true;
  }
}
