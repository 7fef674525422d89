import { isLabelkitError, NetworkError } from './errors.js';
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
  settle: (outcome: JobOutcome | Error) => void;
}

const TERMINAL = { DELIVERED: 'delivered', FAILED: 'failed' } as const;

/**
 * Waits for many jobs with one `getJobs` request per tick, shared by every waiter of a client.
 *
 * @remarks The interval starts at `intervalMs`, grows by half after each tick in which no job
 * changed (up to `maxIntervalMs`), and returns to `intervalMs` after a change; both are the
 * smallest that any current waiter asks for (its own, or the client's `poll`). A transient
 * failure (network, 5xx, 429) skips a tick and backs off, honouring `Retry-After`; any other
 * failure (auth, GraphQL) ends every wait with that error.
 */
export class JobPoller {
  private readonly waiters = new Set<Waiter>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private delay: number;
  private readonly intervalMs: number;
  private readonly maxIntervalMs: number;

  constructor(
    private readonly fetchJobs: (ids: string[]) => Promise<(Job | null)[]>,
    options: PollOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.maxIntervalMs = Math.max(options.maxIntervalMs ?? 10_000, this.intervalMs);
    this.delay = this.intervalMs;
  }

  /** Waits for one job; resolves with its outcome, rejects on abort or a non-transient error. */
  wait(jobId: string, options: WaitOptions = {}): Promise<JobOutcome> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    return new Promise<JobOutcome>((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(aborted(`waiting for job ${jobId} was aborted`));
        return;
      }
      const onAbort = () => waiter.settle(aborted(`waiting for job ${jobId} was aborted`));
      // Infinity (or beyond setTimeout's 2^31-1 ms, which Node would run at once) waits without limit.
      const timer =
        timeoutMs < MAX_TIMER_MS ? setTimeout(() => waiter.settle({ outcome: 'timed-out', jobId, job: waiter.last }), timeoutMs) : undefined;
      const waiter: Waiter = {
        jobId,
        last: null,
        graceMs: options.notFoundGraceMs ?? 10_000,
        intervalMs: options.intervalMs ?? this.intervalMs,
        maxIntervalMs: Math.max(options.maxIntervalMs ?? this.maxIntervalMs, options.intervalMs ?? this.intervalMs),
        ...(options.onProgress && { onProgress: options.onProgress }),
        settle: (result) => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          if (this.waiters.size === 0) this.stop();
          if (result instanceof Error) reject(result);
          else resolve(result);
        },
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      // New waiters are asked about at once; those added in the same turn share that request.
      this.delay = this.bounds().min;
      if (!this.inFlight) this.schedule(0);
    });
  }

  /** Ends every wait with an ABORTED error (the client was closed). */
  close(): void {
    for (const waiter of [...this.waiters]) {
      waiter.settle(aborted(`the client was closed while waiting for job ${waiter.jobId}`));
    }
    this.stop();
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
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (this.waiters.size === 0) return;
    const ids = [...new Set([...this.waiters].map((w) => w.jobId))];
    this.inFlight = true;
    let jobs: (Job | null)[];
    try {
      jobs = await this.fetchJobs(ids);
    } catch (error) {
      this.inFlight = false;
      if (isTransient(error)) {
        const retryAfter = error instanceof NetworkError ? (error.retryAfterMs ?? 0) : 0;
        this.delay = Math.max(Math.min(this.delay * 2, this.bounds().max), retryAfter);
        if (this.waiters.size > 0) this.schedule(this.delay);
      } else {
        for (const waiter of [...this.waiters]) waiter.settle(error instanceof Error ? error : new Error(String(error)));
      }
      return;
    }
    this.inFlight = false;
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
        waiter.settle(
          outcome === 'failed'
            ? { outcome, jobId: waiter.jobId, job, errors: job.errors }
            : { outcome, jobId: waiter.jobId, job },
        );
      } else if (!job || job.status === 'NONE') {
        waiter.missingSince ??= now;
        if (now - waiter.missingSince >= waiter.graceMs) {
          waiter.settle({ outcome: 'not-found', jobId: waiter.jobId, job: waiter.last });
        }
      } else {
        delete waiter.missingSince;
      }
    }
    const { min, max } = this.bounds();
    this.delay = changed ? min : Math.max(min, Math.min(Math.round(this.delay * 1.5), max));
    if (this.waiters.size > 0) this.schedule(this.delay);
  }
}

function aborted(message: string): NetworkError {
  return new NetworkError('ABORTED', message, { operationName: 'GetJobs' });
}

function isTransient(error: unknown): boolean {
  return isLabelkitError(error) && (error.code === 'NETWORK' || error.code === 'TIMEOUT');
}
