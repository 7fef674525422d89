import { validateSpanResponse } from '../model/contract.js';
import type { SpanRequest, SpanResponse } from '../model/contract.js';
import type { EmulatorStore, StoredJob, StoredProject } from './store.js';

/** How the runner calls models. */
export interface RunnerOptions {
  /** Time-out of one model request. @defaultValue 30_000 */
  timeoutMs?: number;
  /** Model requests in flight per job. @defaultValue 4 */
  concurrency?: number;
  /** Retries of one batch after a 5xx, a time-out or a network error. @defaultValue 2 */
  retries?: number;
  /** Delay before a retry. @defaultValue 200 */
  retryDelayMs?: number;
}

/** What a job needs to run. */
export interface AutoLabelTask {
  project: StoredProject;
  labelerEmail: string;
  numberOfFilesPerRequest: number;
  endpoint: string;
  secretKey: string;
}

interface Batch {
  documentId: string;
  first: number;
  lines: string[];
}

class BatchError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Splits every document into batches of N lines (0: the whole document in one). */
export function batchesOf(project: StoredProject, n: number): Batch[] {
  const out: Batch[] = [];
  for (const doc of project.documents) {
    const size = n === 0 ? Math.max(doc.lines.length, 1) : n;
    for (let first = 0; first < doc.lines.length; first += size) {
      out.push({ documentId: doc.id, first, lines: doc.lines.slice(first, first + size) });
    }
  }
  return out;
}

/**
 * Runs auto-labeling jobs: calls the customer's model with the span contract, validates every
 * answer, stores predictions on the labeler's copy, and moves the job's status and progress.
 *
 * @remarks The secret goes only into the `Authorization` header of model requests; job errors
 * name the batch and the rule broken, never the secret.
 */
export class JobRunner {
  private readonly running = new Set<AbortController>();
  private readonly opts: Required<RunnerOptions>;

  constructor(
    private readonly store: EmulatorStore,
    options: RunnerOptions = {},
  ) {
    this.opts = { timeoutMs: 30_000, concurrency: 4, retries: 2, retryDelayMs: 200, ...options };
  }

  /** Starts a job in the background; returns at once. */
  start(job: StoredJob, task: AutoLabelTask): void {
    const controller = new AbortController();
    this.running.add(controller);
    void this.run(job, task, controller.signal).finally(() => this.running.delete(controller));
  }

  /** Stops every running job (they end FAILED with "emulator stopped"). */
  close(): void {
    for (const c of this.running) c.abort();
  }

  private async run(job: StoredJob, task: AutoLabelTask, signal: AbortSignal): Promise<void> {
    const known = new Set(task.project.labelSets.flatMap((s) => s.tagItems.map((i) => i.tagName.toLowerCase())));
    const batches = batchesOf(task.project, task.numberOfFilesPerRequest);
    this.store.updateJob(job, { status: 'IN_PROGRESS' });
    let done = 0;
    let next = 0;
    const worker = async () => {
      while (next < batches.length && !signal.aborted) {
        const index = next++;
        const batch = batches[index]!;
        const problems = await this.runBatch(batch, index, task, known, signal);
        for (const message of problems) {
          job.errors.push({
            id: String(job.errors.length + 1),
            stack: message.split(task.secretKey).join('***'),
            args: { batch: index, documentId: batch.documentId, lines: [batch.first, batch.first + batch.lines.length - 1] },
          });
        }
        done++;
        this.store.updateJob(job, { progress: Math.max(job.progress, Math.floor((done / batches.length) * 100)) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, Math.max(batches.length, 1)) }, worker));
    if (signal.aborted) {
      job.errors.push({ id: String(job.errors.length + 1), stack: 'the emulator stopped before the job ended', args: null });
    }
    const failed = job.errors.length > 0;
    this.store.updateJob(job, failed ? { status: 'FAILED' } : { status: 'DELIVERED', progress: 100, resultId: `result-${job.id}` });
  }

  /** Calls the model for one batch (with retries) and stores its labels; returns problems. */
  private async runBatch(batch: Batch, index: number, task: AutoLabelTask, known: Set<string>, signal: AbortSignal): Promise<string[]> {
    const request: SpanRequest = {
      id: task.project.id,
      name: task.project.name,
      documents: [{ id: batch.documentId, sentences: batch.lines.map((text, i) => ({ id: batch.first + i, text })) }],
    };
    const where = `batch ${index} (document ${batch.documentId}, lines ${batch.first}-${batch.first + batch.lines.length - 1})`;
    let answer: SpanResponse | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        answer = await this.callModel(request, task, signal);
        break;
      } catch (error) {
        const e = error instanceof BatchError ? error : new BatchError(String(error), false);
        if (!e.retryable || attempt >= this.opts.retries || signal.aborted) {
          return [`${where}: ${e.message}${e.retryable ? ` (after ${attempt + 1} attempts)` : ''}`];
        }
        await new Promise((r) => setTimeout(r, this.opts.retryDelayMs));
      }
    }
    const problems = validateSpanResponse(answer, request).map((p) => `${where}: the model's answer breaks the contract at ${p.path}: ${p.message}`);
    for (const doc of answer.documents ?? []) {
      for (const line of doc.labels ?? []) {
        for (const [i, e] of (line.entities ?? []).entries()) {
          if (typeof e.label === 'string' && !known.has(e.label.toLowerCase())) {
            problems.push(`${where}: line ${line.id} entity ${i} has label "${e.label}", which is in none of the project's label sets`);
          }
        }
      }
    }
    if (problems.length > 0) return problems;
    for (const doc of answer.documents) {
      for (const line of doc.labels) {
        this.store.setLineLabels(task.project.id, task.labelerEmail, doc.id, line.id, line.entities.map((e) => ({ ...e, layer: e.layer ?? 0 })));
      }
    }
    return [];
  }

  private async callModel(request: SpanRequest, task: AutoLabelTask, signal: AbortSignal): Promise<SpanResponse> {
    let response: Response;
    try {
      response = await fetch(task.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${task.secretKey}` },
        body: JSON.stringify(request),
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.opts.timeoutMs)]),
      });
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError') throw new BatchError(`the model did not answer within ${this.opts.timeoutMs} ms`, true);
      const code = (error as { cause?: { code?: string } }).cause?.code;
      throw new BatchError(`the model could not be reached${code ? ` (${code})` : ''}`, true);
    }
    const text = await response.text().catch(() => '');
    if (response.status >= 500) throw new BatchError(`the model answered HTTP ${response.status}`, true);
    if (!response.ok) throw new BatchError(`the model answered HTTP ${response.status}: ${text.slice(0, 200)}`, false);
    try {
      return JSON.parse(text) as SpanResponse;
    } catch {
      throw new BatchError('the model answered with malformed JSON', false);
    }
  }
}
