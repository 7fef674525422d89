import { NetworkError } from './errors.js';
import { isTransientError } from './failures.js';
import type { Job, JobOutcome } from './types.js';
import { DEFAULT_JOB_TIMEOUT_MS, JOB_POLL_CHUNK, MAX_TIMER_MS } from '../shared/constants.js';
import { onAbort } from '../shared/onAbort.js';

/** Options of one wait (see `LabelingClient.waitForJob`). */
export interface WaitOptions {
  /** How long to wait in all; `Infinity` waits without limit. @defaultValue 600_000 (10 minutes) */
  timeoutMs?: number | undefined;
  /** Stops the wait; the promise rejects with code `ABORTED`. */
  signal?: AbortSignal | undefined;
  /** How long a job may read as null or `NONE` before it is "not found". @defaultValue 10_000 */
  notFoundGraceMs?: number | undefined;
  /** Called with the job each time its status or progress changes. */
  onProgress?: ((job: Job) => void) | undefined;
  /**
   * The first interval for this wait. The shared request goes at the shortest interval any
   * current waiter asks for. @defaultValue the client's `poll.intervalMs`
   */
  intervalMs?: number | undefined;
  /** The longest interval for this wait. @defaultValue the client's `poll.maxIntervalMs` */
  maxIntervalMs?: number | undefined;
}

/** How often the shared poller asks. */
export interface PollOptions {
  /** The first interval, and the interval after any change. @defaultValue 1_000 */
  intervalMs?: number | undefined;
  /** The longest interval while nothing changes. @defaultValue 10_000 */
  maxIntervalMs?: number | undefined;
}

interface Waiter {
  jobId: string;
  last: Job | null;
  missingSince?: number;
  graceMs: number;
  intervalMs: number;
  maxIntervalMs: number;
  onProgress?: ((job: Job) => void) | undefined;
  /** Ends this waiter (and, for an error, its whole group). */
  settle: (outcome: JobOutcome | Error) => void;
}

/** `job a` or `jobs a, b, c and 7 more`, for messages. */
function describeJobs(ids: readonly string[]): string {
  return ids.length === 1 ? `job ${ids[0]}` : `jobs ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
}

/**
 * Makes the shared poll of one client, which waits for many jobs with one `getJobs` request per
 * tick, shared by every waiter of the client; closures, not a class, so that a bundler can
 * shorten every name.
 *
 * @remarks The interval starts at `intervalMs`, grows by half after each tick in which no job
 * changed (up to `maxIntervalMs`), and returns to `intervalMs` after a change; both are the
 * smallest that any current waiter asks for (its own, or the client's `poll`). Failures follow
 * the one rule of the client's retries (`isTransientError`, from `shared/classify`): a transient
 * one (no answer, a cut answer, 408, 429, 5xx) skips a tick and backs off, honouring
 * `Retry-After`; any other (auth, a 404, GraphQL errors, a malformed answer) ends every wait with
 * that error at once. No timer callback can reject: an unexpected exception in a tick ends the
 * waits with it. After `close()`, the request in flight is aborted and none is sent.
 *
 * @param fetchJobs - reads the jobs (getJobs), stopping when the signal aborts
 * @param options - the client's poll intervals
 * @returns the poller: `waitAll(jobIds, options)` waits for a group of jobs, `close()` ends every wait
 * @example
 * ```ts
 * const poller = createJobPoller((ids, signal) => getJobs(client, ids, { signal }), { intervalMs: 500 });
 * const [outcome] = await poller.waitAll(['job-1']);
 * ```
 */
export function createJobPoller(fetchJobs: (ids: string[], signal: AbortSignal) => Promise<(Job | null)[]>, options: PollOptions = {}) {
  const waiters = new Set<Waiter>();
  const intervalMs = options.intervalMs ?? 1_000;
  const maxIntervalMs = Math.max(options.maxIntervalMs ?? 10_000, intervalMs);
  let delay = intervalMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let closed = false;
  // How many current waiters ask for each interval (usually one value): adding or ending a wait
  // costs no scan of every waiter, so registering 100,000 waits is linear, not quadratic.
  const asked = { intervalMs: new Map<number, number>(), maxIntervalMs: new Map<number, number>() };
  /** Adds a waiter (1) or ends one (-1), and counts its intervals. */
  const track = (waiter: Waiter, by: 1 | -1) => {
    if (by === 1) waiters.add(waiter);
    else if (!waiters.delete(waiter)) return;
    for (const key of ['intervalMs', 'maxIntervalMs'] as const) {
      const n = (asked[key].get(waiter[key]) ?? 0) + by;
      if (n > 0) asked[key].set(waiter[key], n);
      else asked[key].delete(waiter[key]);
    }
  };
  /** A bound of the shared request's interval: the shortest any current waiter asks for (the client's without waiters). */
  const bound = (key: 'intervalMs' | 'maxIntervalMs') => (waiters.size === 0 ? { intervalMs, maxIntervalMs }[key] : [...asked[key].keys()].reduce((a, b) => Math.min(a, b)));
  const failAll = (error: unknown) => [...waiters].forEach((waiter) => waiter.settle(asError(error)));
  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!closed && waiters.size > 0) timer = setTimeout(() => void tick().catch(failAll), ms);
  };

  /**
   * Waits for a group of jobs, with one abort listener and one time-out timer for the group.
   *
   * @param jobIds - the jobs
   * @param options - see {@link WaitOptions}, applied to each job
   * @returns the outcomes in the order asked; rejects (ending the whole group) on abort, on a
   * non-transient error, or when `onProgress` throws
   */
  function waitAll(jobIds: readonly string[], options: WaitOptions = {}): Promise<JobOutcome[]> {
    const { signal, timeoutMs = DEFAULT_JOB_TIMEOUT_MS, intervalMs: waitInterval = intervalMs, notFoundGraceMs: graceMs = 10_000, onProgress } = options;
    const what = describeJobs(jobIds);
    return new Promise<JobOutcome[]>((resolve, reject) => {
      if (closed || signal?.aborted) return reject(aborted(closed ? `the client is closed; not waiting for ${what}` : `waiting for ${what} was aborted`));
      const outcomes = new Array<JobOutcome>(jobIds.length);
      const group = new Set<Waiter>();
      // One listener on the caller's signal for every wait under it (`shared/onAbort`).
      let stopWaitingForAbort: (() => void) | undefined;
      // Every way to end goes through an emptied group, so the group ends once.
      const end = (error?: Error) => {
        clearTimeout(waitTimer);
        stopWaitingForAbort?.();
        for (const waiter of group) track(waiter, -1);
        group.clear();
        if (waiters.size === 0) clearTimeout(timer);
        if (error) reject(error);
        else resolve(outcomes);
      };
      const onAborted = () => end(aborted(`waiting for ${what} was aborted`));
      // Infinity (or beyond setTimeout's 2^31-1 ms, which Node would run at once) waits without limit.
      const timedOut = () => [...group].forEach((waiter) => waiter.settle({ outcome: 'timed-out', jobId: waiter.jobId, job: waiter.last }));
      const waitTimer = timeoutMs < MAX_TIMER_MS ? setTimeout(timedOut, timeoutMs) : undefined;
      const waitMax = Math.max(options.maxIntervalMs ?? maxIntervalMs, waitInterval);
      jobIds.forEach((jobId, index) => {
        const settle = (result: JobOutcome | Error) => {
          if (!group.delete(waiter)) return;
          track(waiter, -1);
          if (result instanceof Error) return end(result);
          outcomes[index] = result;
          if (group.size === 0) end();
        };
        const waiter: Waiter = { jobId, last: null, graceMs, intervalMs: waitInterval, maxIntervalMs: waitMax, onProgress, settle };
        group.add(waiter);
        track(waiter, 1);
      });
      if (signal) stopWaitingForAbort = onAbort(signal, onAborted);
      // New waiters are asked about at once; those added in the same turn share that request.
      delay = bound('intervalMs');
      if (!inFlight) schedule(0);
    });
  }

  async function tick(): Promise<void> {
    if (waiters.size === 0) return;
    const ids = [...new Set(Array.from(waiters, (w) => w.jobId))];
    // In chunks of JOB_POLL_CHUNK ids, one after another: each request stays far within the
    // service's request size limit however many jobs are waited for.
    const byId = new Map<string, Job | null>();
    inFlight = new AbortController();
    let failure: { error: unknown } | undefined;
    for (const chunk of chunks(ids)) {
      if (failure || closed) break;
      const read = await fetchJobs(chunk, inFlight.signal).then((jobs) => ({ jobs }), (error: unknown) => ({ error }));
      if ('error' in read) failure = read;
      else for (let i = 0; i < chunk.length; i++) byId.set(chunk[i]!, read.jobs[i] ?? null);
    }
    inFlight = undefined;
    if (closed) return;
    if (failure) {
      if (!isTransientError(failure.error)) return failAll(failure.error);
      delay = Math.max(Math.min(delay * 2, bound('maxIntervalMs')), failure.error.retryAfterMs ?? 0);
      return schedule(delay);
    }
    // Hands each waiter its job.
    let changed = false;
    const now = Date.now();
    for (const waiter of [...waiters]) {
      const job = byId.get(waiter.jobId) ?? null;
      const settle = (outcome: JobOutcome['outcome']) => waiter.settle({ outcome, jobId: waiter.jobId, job: waiter.last, ...(outcome === 'failed' && { errors: job!.errors }) } as JobOutcome);
      const moved = job !== null && (waiter.last?.status !== job.status || waiter.last.progress !== job.progress);
      if (job) waiter.last = job;
      if (moved) {
        changed = true;
        try {
          waiter.onProgress?.(job);
        } catch (error) {
          waiter.settle(asError(error));
          continue;
        }
      }
      if (job?.status === 'DELIVERED') settle('delivered');
      else if (job?.status === 'FAILED') settle('failed');
      else if (!job || job.status === 'NONE') {
        waiter.missingSince ??= now;
        if (now - waiter.missingSince >= waiter.graceMs) settle('not-found');
      } else delete waiter.missingSince;
    }
    const min = bound('intervalMs');
    delay = changed ? min : Math.max(min, Math.min(Math.round(delay * 1.5), bound('maxIntervalMs')));
    schedule(delay);
  }

  /** Ends every wait with an ABORTED error (the client was closed), aborts the request in flight, and sends none again. */
  function close(): void {
    closed = true;
    clearTimeout(timer);
    inFlight?.abort();
    for (const waiter of [...waiters]) waiter.settle(aborted(`the client was closed while waiting for job ${waiter.jobId}`));
  }
  return { waitAll, close };
}

/** Job ids in runs of at most {@link JOB_POLL_CHUNK} ids and bytes (an id longer than that alone). */
function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const id of ids) {
    // An id's bytes in the request: its UTF-8 length at most 3 per UTF-16 unit, quotes and a comma.
    const size = id.length * 3 + 3;
    if (chunk.length > 0 && (chunk.length === JOB_POLL_CHUNK.ids || bytes + size > JOB_POLL_CHUNK.bytes)) {
      out.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(id);
    bytes += size;
  }
  if (chunk.length > 0) out.push(chunk);
  return out;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

function aborted(message: string): NetworkError {
  return new NetworkError('ABORTED', message, { operationName: 'GetJobs' });
}
