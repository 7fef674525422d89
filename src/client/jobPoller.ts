import { NetworkError } from './errors.js';
import { isTransientError } from './toLabelkitError.js';
import type { Job, JobOutcome } from './types.js';
import { DEFAULT_JOB_TIMEOUT_MS, MAX_TIMER_MS } from '../shared/constants.js';

/** Options of one wait (see `LabelingClient.waitForJob`). */
export interface WaitOptions {
  /** How long to wait in all; `Infinity` waits without limit. @defaultValue 600_000 (10 minutes) */
  timeoutMs?: number;
  /** Stops the wait; the promise rejects with code `ABORTED`. */
  signal?: AbortSignal;
  /** How long a job may read as null or `NONE` before it is "not found". @defaultValue 10_000 */
  notFoundGraceMs?: number;
  /** Called with the job each time its status or progress changes. */
  onProgress?: (job: Job) => void;
  /**
   * The first interval for this wait. The shared request goes at the shortest interval any
   * current waiter asks for. @defaultValue the client's `poll.intervalMs`
   */
  intervalMs?: number;
  /** The longest interval for this wait. @defaultValue the client's `poll.maxIntervalMs` */
  maxIntervalMs?: number;
}

/** How often the shared poller asks. */
export interface PollOptions {
  /** The first interval, and the interval after any change. @defaultValue 1_000 */
  intervalMs?: number;
  /** The longest interval while nothing changes. @defaultValue 10_000 */
  maxIntervalMs?: number;
}

interface Waiter {
  jobId: string;
  last: Job | null;
  missingSince?: number;
  graceMs: number;
  intervalMs: number;
  maxIntervalMs: number;
  onProgress?: (job: Job) => void;
  /** Ends this waiter (and, for an error, its whole group). */
  settle: (outcome: JobOutcome | Error) => void;
}

const TERMINAL = { DELIVERED: 'delivered', FAILED: 'failed' } as const;

/** `job a` or `jobs a, b, c and 7 more`, for messages. */
function describeJobs(ids: readonly string[]): string {
  return ids.length === 1 ? `job ${ids[0]}` : `jobs ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
}

/**
 * Waits for many jobs with one `getJobs` request per tick, shared by every waiter of a client.
 *
 * @remarks The interval starts at `intervalMs`, grows by half after each tick in which no job
 * changed (up to `maxIntervalMs`), and returns to `intervalMs` after a change; both are the
 * smallest that any current waiter asks for (its own, or the client's `poll`). Failures follow
 * the one rule of the client's retries (`isTransientError`, from `shared/classify`): a transient
 * one (no answer, a cut answer, 408, 429, 5xx) skips a tick and backs off, honouring
 * `Retry-After`; any other (auth, a 404, GraphQL errors, a malformed answer) ends every wait with
 * that error at once. No timer callback can reject: an unexpected exception in a tick ends the
 * waits with it. After {@link JobPoller.close}, the request in flight is aborted and none is sent.
 */
export class JobPoller {
  private readonly waiters = new Set<Waiter>();
  private readonly intervalMs: number;
  private readonly maxIntervalMs: number;
  private delay: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: AbortController | undefined;
  private closed = false;

  /**
   * @param fetchJobs - reads the jobs (getJobs), stopping when the signal aborts
   * @param options - the client's poll intervals
   */
  constructor(private readonly fetchJobs: (ids: string[], signal: AbortSignal) => Promise<(Job | null)[]>, options: PollOptions = {}) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.maxIntervalMs = Math.max(options.maxIntervalMs ?? 10_000, this.intervalMs);
    this.delay = this.intervalMs;
  }

  /**
   * Waits for one job.
   *
   * @param jobId - the job
   * @param options - see {@link WaitOptions}
   * @returns its outcome; rejects on abort or a non-transient error
   */
  async wait(jobId: string, options: WaitOptions = {}): Promise<JobOutcome> {
    const [outcome] = await this.waitAll([jobId], options);
    return outcome!;
  }

  /**
   * Waits for a group of jobs, with one abort listener and one time-out timer for the group.
   *
   * @param jobIds - the jobs
   * @param options - see {@link WaitOptions}, applied to each job
   * @returns the outcomes in the order asked; rejects (ending the whole group) on abort, on a
   * non-transient error, or when `onProgress` throws
   */
  waitAll(jobIds: readonly string[], options: WaitOptions = {}): Promise<JobOutcome[]> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    const { signal } = options;
    return new Promise<JobOutcome[]>((resolve, reject) => {
      if (this.closed) return reject(aborted(`the client is closed; not waiting for ${describeJobs(jobIds)}`));
      if (signal?.aborted) return reject(aborted(`waiting for ${describeJobs(jobIds)} was aborted`));
      const outcomes: JobOutcome[] = new Array<JobOutcome>(jobIds.length);
      const group = new Set<Waiter>();
      let ended = false;
      const end = (error: Error | null) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        for (const waiter of group) this.waiters.delete(waiter);
        if (this.waiters.size === 0) this.stop();
        if (error) reject(error);
        else resolve(outcomes);
      };
      const onAbort = () => end(aborted(`waiting for ${describeJobs(jobIds)} was aborted`));
      // Infinity (or beyond setTimeout's 2^31-1 ms, which Node would run at once) waits without limit.
      const timedOut = () => [...group].forEach((waiter) => waiter.settle({ outcome: 'timed-out', jobId: waiter.jobId, job: waiter.last }));
      const timer = timeoutMs < MAX_TIMER_MS ? setTimeout(timedOut, timeoutMs) : undefined;
      const interval = options.intervalMs ?? this.intervalMs;
      jobIds.forEach((jobId, index) => {
        const waiter: Waiter = {
          jobId,
          last: null,
          graceMs: options.notFoundGraceMs ?? 10_000,
          intervalMs: interval,
          maxIntervalMs: Math.max(options.maxIntervalMs ?? this.maxIntervalMs, interval),
          ...(options.onProgress && { onProgress: options.onProgress }),
          settle: (result) => {
            if (!group.delete(waiter)) return;
            this.waiters.delete(waiter);
            if (result instanceof Error) return end(result);
            outcomes[index] = result;
            if (group.size === 0) end(null);
          },
        };
        group.add(waiter);
        this.waiters.add(waiter);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      // New waiters are asked about at once; those added in the same turn share that request.
      this.delay = this.bounds().min;
      if (!this.inFlight) this.schedule(0);
    });
  }

  /** Ends every wait with an ABORTED error (the client was closed), aborts the request in flight, and sends none again. */
  close(): void {
    this.closed = true;
    this.stop();
    this.inFlight?.abort();
    for (const waiter of [...this.waiters]) waiter.settle(aborted(`the client was closed while waiting for job ${waiter.jobId}`));
  }

  /** The interval bounds of the shared request: the shortest any current waiter asks for. */
  private bounds(): { min: number; max: number } {
    let min = Infinity;
    let max = Infinity;
    for (const waiter of this.waiters) {
      min = Math.min(min, waiter.intervalMs);
      max = Math.min(max, waiter.maxIntervalMs);
    }
    if (min === Infinity) return { min: this.intervalMs, max: this.maxIntervalMs };
    return { min, max: Math.max(min, max) };
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.closed || this.waiters.size === 0) return;
    this.timer = setTimeout(() => void this.tick().catch((error: unknown) => this.failAll(error)), ms);
  }

  private failAll(error: unknown): void {
    const reason = error instanceof Error ? error : new Error(String(error));
    for (const waiter of [...this.waiters]) waiter.settle(reason);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (this.waiters.size === 0 || this.closed) return;
    const ids = [...new Set([...this.waiters].map((w) => w.jobId))];
    const controller = new AbortController();
    this.inFlight = controller;
    let jobs: (Job | null)[];
    try {
      jobs = await this.fetchJobs(ids, controller.signal);
    } catch (error) {
      this.inFlight = undefined;
      if (this.closed) return;
      if (isTransientError(error)) {
        const retryAfter = error instanceof NetworkError ? (error.retryAfterMs ?? 0) : 0;
        this.delay = Math.max(Math.min(this.delay * 2, this.bounds().max), retryAfter);
        this.schedule(this.delay);
      } else this.failAll(error);
      return;
    }
    this.inFlight = undefined;
    if (this.closed) return;
    this.apply(ids, jobs);
    this.schedule(this.delay);
  }

  /** Hands each waiter its job; returns nothing, updates `delay`. */
  private apply(ids: string[], jobs: (Job | null)[]): void {
    const byId = new Map<string, Job | null>(ids.map((id, i) => [id, jobs[i] ?? null]));
    let changed = false;
    const now = Date.now();
    for (const waiter of [...this.waiters]) {
      const job = byId.get(waiter.jobId) ?? null;
      if (job && (!waiter.last || waiter.last.status !== job.status || waiter.last.progress !== job.progress)) {
        changed = true;
        waiter.last = job;
        try {
          waiter.onProgress?.(job);
        } catch (error) {
          waiter.settle(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
      } else if (job) waiter.last = job;

      if (job && job.status in TERMINAL) {
        const outcome = TERMINAL[job.status as keyof typeof TERMINAL];
        waiter.settle(outcome === 'failed' ? { outcome, jobId: waiter.jobId, job, errors: job.errors } : { outcome, jobId: waiter.jobId, job });
      } else if (!job || job.status === 'NONE') {
        waiter.missingSince ??= now;
        if (now - waiter.missingSince >= waiter.graceMs) waiter.settle({ outcome: 'not-found', jobId: waiter.jobId, job: waiter.last });
      } else delete waiter.missingSince;
    }
    const { min, max } = this.bounds();
    this.delay = changed ? min : Math.max(min, Math.min(Math.round(this.delay * 1.5), max));
  }
}

function aborted(message: string): NetworkError {
  return new NetworkError('ABORTED', message, { operationName: 'GetJobs' });
}
