import type { RunLimits, RunLimitSettings } from './journal.js';

/**
 * The run's limits held in this process: for a journal one process holds alone (a file, memory),
 * where every job of the run is started by this process. The same {@link RunLimits} as a shared
 * journal's, with no death to judge (this process is the run).
 *
 * @param settings - the run's limits
 * @returns the limits
 */
export function localLimits(settings: RunLimitSettings): RunLimits {
  const held = new Set<string>();
  const max = settings.maxRunning ?? Number.POSITIVE_INFINITY;
  const bucket = startBucket(settings.maxStartsPerMinute);
  return {
    setup: async () => settings,
    take: async (projectId) => {
      if (held.size >= max) return { taken: false, running: held.size };
      held.add(projectId);
      return { taken: true, running: held.size };
    },
    handOver: async (from, to) => {
      if (!held.delete(from)) return { taken: false, running: held.size };
      held.add(to);
      return { taken: true, running: held.size };
    },
    started: async () => undefined,
    adopt: async () => undefined,
    give: async (projectId) => {
      held.delete(projectId);
      return { running: held.size };
    },
    running: async () => held.size,
    startToken: async () => bucket(Date.now()),
  };
}

/**
 * How many starts the bucket of `perMinute` holds at most: one second's worth, at least 1. In any
 * window of W seconds the run makes at most this many starts plus W × perMinute / 60.
 *
 * @param perMinute - the run's `maxStartsPerMinute`
 * @returns the bucket's size
 */
export function startBurst(perMinute: number): number {
  return Math.max(1, Math.floor(perMinute / 60));
}

/** A token bucket in process: takes a start at `now` (ms), answers 0, or how long until one is due. */
function startBucket(perMinute: number | undefined): (now: number) => number {
  if (perMinute === undefined) return () => 0;
  const size = startBurst(perMinute);
  let tokens = size;
  let at = Date.now();
  return (now) => {
    tokens = Math.min(size, tokens + (Math.max(0, now - at) * perMinute) / 60_000);
    at = now;
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - tokens) * 60_000) / perMinute);
  };
}

/**
 * Hands the run's leases to this process's starts, one asker at a time, first come first served:
 * the head asker tries the journal; when every lease is held it tries again once this process
 * gives one back, or after `pollMs` (another worker may have given one back). The lease of a job
 * whose end this process saw goes straight to its next asker ({@link LeaseGate.pass}: one
 * statement, and no other worker's take between). A rejected try (the journal failed) rejects
 * every asker.
 */
export class LeaseGate {
  private readonly askers: Array<{ projectId: string; resolve(taken: boolean): void; reject(error: unknown): void }> = [];
  /** Leases of ended jobs kept for the next asker (each settled once handed over or given back). */
  private readonly spare: Array<{ projectId: string; resolve(): void; reject(error: unknown): void }> = [];
  private trying = false;
  private wake: (() => void) | undefined;
  /** Counts the leases this process gave back: one given back while a take was on its way is tried for at once. */
  private given = 0;

  /**
   * @param limits - the run's limits
   * @param pollMs - how long a full run waits before it tries again
   * @param signal - the run's stop: askers then get `false`
   * @param onCount - told the leases held after each take and give (the live count)
   */
  constructor(
    private readonly limits: RunLimits,
    private readonly pollMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly onCount: (running: number) => void,
  ) {
    signal?.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  /**
   * Waits for a lease for a project's start.
   * @returns true once held; false when the run was stopped first
   */
  acquire(projectId: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.askers.push({ projectId, resolve, reject });
      void this.serve();
    });
  }

  /** Gives a project's lease back (nothing started, or a dead worker's start); wakes the askers. */
  async release(projectId: string): Promise<void> {
    const { running } = await this.limits.give(projectId);
    this.given++;
    this.onCount(running);
    this.wake?.();
  }

  /**
   * A job's end was seen: its lease goes to this process's next start when one is waiting (moved
   * in one statement), else back to the run.
   * @returns once handed over or given back
   */
  pass(projectId: string): Promise<void> {
    if (this.askers.length === 0 || !this.limits.handOver) return this.release(projectId);
    return new Promise((resolve, reject) => {
      this.spare.push({ projectId, resolve, reject });
      this.wake?.();
      void this.serve();
    });
  }

  private async serve(): Promise<void> {
    if (this.trying) return;
    this.trying = true;
    try {
      for (;;) {
        const head = this.askers[0];
        if (!head || this.signal?.aborted) {
          for (const a of this.askers.splice(0)) a.resolve(false);
          // No start waits: a kept lease goes back.
          const kept = this.spare.shift();
          if (!kept) return;
          await this.release(kept.projectId).then(kept.resolve, kept.reject);
          continue;
        }
        const kept = this.spare.shift();
        const given = this.given;
        let result;
        try {
          result = kept ? await this.limits.handOver!(kept.projectId, head.projectId) : await this.limits.take(head.projectId);
          // Not this worker's any more (another took over its job's wait): given back as before, the asker tries a take.
          if (kept && !result.taken) await this.release(kept.projectId);
        } catch (error) {
          kept?.reject(error);
          for (const a of this.askers.splice(0)) a.reject(error);
          for (const s of this.spare.splice(0)) s.reject(error);
          return;
        }
        kept?.resolve();
        this.onCount(result.running);
        if (result.taken) {
          this.askers.shift();
          head.resolve(true);
          continue;
        }
        if (kept || this.spare.length > 0 || this.given !== given) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, this.pollMs);
          this.wake = done;
          function done() {
            clearTimeout(timer);
            resolve();
          }
        });
        this.wake = undefined;
      }
    } finally {
      this.trying = false;
    }
  }
}

/**
 * Paces this process's starts by the run's start bucket: one asker at a time takes a token, and
 * waits as long as the bucket says when none is left.
 *
 * @param limits - the run's limits
 * @param signal - the run's stop: the wait then ends (`false`)
 * @returns a function that resolves true once a start may go, false when the run was stopped
 */
export function startPacer(limits: RunLimits, signal: AbortSignal | undefined): () => Promise<boolean> {
  let chain: Promise<unknown> = Promise.resolve();
  const one = async (): Promise<boolean> => {
    for (;;) {
      if (signal?.aborted) return false;
      const waitMs = await limits.startToken();
      if (waitMs <= 0) return true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, waitMs);
        signal?.addEventListener('abort', done, { once: true });
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
      });
    }
  };
  return () => {
    const next = chain.then(one);
    chain = next.catch(() => undefined);
    return next;
  };
}
