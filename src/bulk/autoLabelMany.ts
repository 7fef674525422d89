import { isLabelkitError, ValidationError } from 'labelkit';
import type { AutoLabelInput, ErrorCode, Job, JobOutcome, JobSnapshot, LabelingClient, WaitOptions } from 'labelkit';
import { redact } from '../shared/redact.js';
import { createMemoryJournal, replayJournal } from './journal.js';
import type { Journal, JournalRecord } from './journal.js';
import { configMismatches, planProjects, projectConfig, validateManyInputs } from './manyPlan.js';
import type { PlannedProject, RerunRules } from './manyPlan.js';

/** How one project of a many-project run ended. */
export type ManyOutcomeKind =
  | 'delivered'
  | 'failed'
  | 'timed-out'
  | 'not-found'
  | 'not-started'
  | 'outcome-unknown'
  | 'started'
  | 'interrupted';

/** One project's outcome. */
export interface ProjectOutcome {
  projectId: string;
  /**
   * `delivered`, `failed` (with `errors`), `timed-out`, `not-found`, `not-started` (with `error`:
   * the validation, GraphQL or HTTP error), `outcome-unknown` (the mutation may have started a job
   * whose id never arrived), `started` (with `wait: false`), or `interrupted` (the run was
   * stopped first; a rerun continues).
   */
  outcome: ManyOutcomeKind;
  jobId?: string;
  /** The job as last read, when this run read it. */
  job?: Job | null;
  /** The job's errors (first line of each), for `failed`. */
  errors?: string[];
  /** Why it did not start, is unknown or was interrupted. */
  error?: { code?: ErrorCode; message: string };
  /** True when nothing was done this run: the outcome comes from the journal. */
  fromJournal: boolean;
}

/** Events of a many-project run, in order of occurrence. */
export type ManyEvent =
  | { event: 'plan'; plan: PlannedProject[]; warnings: string[] }
  | { event: 'started'; projectId: string; jobId: string }
  | { event: 'progress'; projectId: string; jobId: string; status: Job['status']; progress: number }
  | ({ event: 'outcome' } & ProjectOutcome);

/** Options of {@link autoLabelMany}. */
export interface AutoLabelManyOptions extends RerunRules {
  /** Jobs being started at once. @defaultValue 4 */
  concurrency?: number;
  /** Where the run remembers each step. @defaultValue a journal in memory (no memory across runs) */
  journal?: Journal;
  /** Stops starting new jobs and stops waiting; mutations already sent are finished and journaled. */
  signal?: AbortSignal;
  /** Told of the plan, each start, each change of a job and each outcome. */
  onEvent?: (event: ManyEvent) => void;
  /** Wait for the jobs to end. @defaultValue true */
  wait?: boolean;
  /** How long to wait for each job, from its start. @defaultValue 600_000 */
  timeoutMs?: number;
  /** As for `waitForJob`. @defaultValue 10_000 */
  notFoundGraceMs?: number;
  /** Accept a journal written by another run configuration. @defaultValue false */
  force?: boolean;
  /** As for `startAutoLabel`. @defaultValue false */
  allowInsecureEndpoint?: boolean;
  /** Only plan: read the journal, send nothing, write nothing. @defaultValue false */
  dryRun?: boolean;
}

/** What {@link autoLabelMany} resolves to. */
export interface AutoLabelManyResult {
  /** What was (or, with `dryRun`, would be) done with each project. */
  plan: PlannedProject[];
  /** One per input, in order (empty with `dryRun`). */
  outcomes: ProjectOutcome[];
  /** The journal's warnings (e.g. an incomplete last line after a crash). */
  warnings: string[];
}

/** The two client methods a run needs. */
export interface ManyRunClient {
  startAutoLabel(input: AutoLabelInput, options?: { allowInsecureEndpoint?: boolean; timeoutMs?: number }): Promise<JobSnapshot>;
  waitForJob(jobId: string, options?: WaitOptions): Promise<JobOutcome>;
}

const now = () => new Date().toISOString();
const firstLines = (job: Job) => job.errors.slice(0, 20).map((e) => e.stack.split('\n')[0] ?? '');

function errorOf(error: unknown, secrets: string[]): { code?: ErrorCode; message: string } {
  const message = redact(error instanceof Error ? error.message : String(error), secrets);
  return isLabelkitError(error) ? { code: error.code, message } : { message };
}

function fromJournal(p: PlannedProject, errors: string[] | undefined): ProjectOutcome {
  const base = { projectId: p.projectId, fromJournal: true, ...(p.jobId && { jobId: p.jobId }) };
  switch (p.journalState) {
    case 'delivered':
      return { ...base, outcome: 'delivered' };
    case 'intent':
    case 'unknown':
      return { ...base, outcome: 'outcome-unknown', error: { message: errors?.[0] ?? 'the run stopped after deciding to start this project: a job may have started' } };
    case 'not-started':
      return { ...base, outcome: 'not-started', error: { message: errors?.[0] ?? 'not started' } };
    default:
      return { ...base, outcome: p.journalState as 'failed' | 'not-found', ...(errors && { errors }) };
  }
}

/**
 * Starts auto-labeling of many projects with one client, each job exactly once, and waits for all
 * of them.
 *
 * @param client - a client from `createLabelingClient` (its `url` is recorded in the journal)
 * @param inputs - one auto-labeling input per project
 * @param options - concurrency, journal, rerun rules, signal, onEvent; see {@link AutoLabelManyOptions}
 * @returns the plan and one outcome per input, in order
 * @throws {@link ValidationError} (code `VALIDATION`) listing every problem of every input, a
 * journal from another configuration, or a client without its `url`; nothing is sent then
 * @remarks A function of `labelkit-tools/bulk` above the client, not a method of it: it uses the
 * client's public methods only, so an app that never runs many projects carries none of it. Waiting goes through the client's
 * shared poller (one `getJobs` per interval for the whole run); see {@link runAutoLabelMany} for
 * the journal's rules.
 * @example
 * ```ts
 * import { createLabelingClient } from 'labelkit';
 * import { autoLabelMany, createMemoryJournal } from 'labelkit-tools/bulk';
 * const client = createLabelingClient({ url: process.env.LABELKIT_URL!, token: process.env.LABELKIT_TOKEN });
 * const { outcomes } = await autoLabelMany(client, inputs, { journal: createMemoryJournal(), concurrency: 4 });
 * ```
 */
export function autoLabelMany(client: LabelingClient, inputs: AutoLabelInput[], options?: AutoLabelManyOptions): Promise<AutoLabelManyResult> {
  const url: unknown = (client as Partial<LabelingClient> | null | undefined)?.url;
  if (typeof url !== 'string' || url === '') {
    const problem = { path: 'client.url', message: 'must be the service URL of a client made by createLabelingClient' };
    return Promise.reject(new ValidationError([problem], { operationName: 'AutoLabelTokenBasedProjectMutation' }));
  }
  return runAutoLabelMany(client, url, inputs, options);
}

/**
 * Starts one job per input with bounded concurrency, journals each step, then waits for all the
 * jobs through the client's shared poller (one `getJobs` per interval for the whole run).
 *
 * @param client - the labeling client (its `startAutoLabel` and `waitForJob`)
 * @param url - the service's URL, recorded in the journal to refuse another configuration's journal
 * @param inputs - one auto-labeling input per project
 * @param options - see {@link AutoLabelManyOptions}
 * @returns the plan and one outcome per input
 * @throws {@link ValidationError} before anything is sent: every problem of every input (with its
 * index and project), a journal from another configuration (unless `force`), a corrupt journal
 * @remarks Per project: `intent` is written (and durable) before the mutation is sent; then
 * `started` with the job id, `unknown` when the mutation's outcome is unknown, or the outcome
 * `not-started`; then the final outcome. A mutation is never retried. Aborting `signal` stops
 * starting new jobs and stops waiting; mutations already sent finish and are journaled, so a
 * rerun with the same journal continues.
 * @example
 * ```ts
 * // Usually called as autoLabelMany(client, inputs, options), which passes the client's URL.
 * const { outcomes } = await runAutoLabelMany(client, url, inputs, { journal: createMemoryJournal() });
 * ```
 */
export async function runAutoLabelMany(
  client: ManyRunClient,
  url: string,
  inputs: AutoLabelInput[],
  options: AutoLabelManyOptions = {},
): Promise<AutoLabelManyResult> {
  const allowInsecureEndpoint = options.allowInsecureEndpoint ?? false;
  const problems = validateManyInputs(inputs, { allowInsecureEndpoint, concurrency: options.concurrency });
  if (problems.length > 0) throw new ValidationError(problems, { operationName: 'AutoLabelTokenBasedProjectMutation' });
  const journal = options.journal ?? createMemoryJournal();
  const contents = await journal.open();
  try {
    const replay = replayJournal(contents.records);
    const mismatches = configMismatches(url, replay, inputs);
    if (mismatches.length > 0 && !options.force) {
      const hint = { path: 'journal', message: 'use another journal file, or force to use this one anyway' };
      throw new ValidationError([...mismatches, hint], { operationName: 'AutoLabelTokenBasedProjectMutation' });
    }
    const plan = planProjects(inputs, replay.projects, options);
    const emit = (event: ManyEvent) => options.onEvent?.(event);
    emit({ event: 'plan', plan, warnings: contents.warnings });
    if (options.dryRun) return { plan, outcomes: [], warnings: contents.warnings };

    const secrets = inputs.map((i) => i.targetAPI.secretKey);
    const outcomes: (ProjectOutcome | undefined)[] = new Array(inputs.length);
    const settle = (index: number, outcome: ProjectOutcome) => {
      outcomes[index] = outcome;
      emit({ event: 'outcome', ...outcome });
    };
    // Each step awaits its own record, so a project's records are durable in order; records of
    // different projects may be flushed together. After a failed append nothing more is started.
    let journalFailed = false;
    const append = (record: JournalRecord) =>
      journal.append(record).catch((error: unknown) => {
        journalFailed = true;
        throw error;
      });
    await append({ type: 'run', at: now(), url });

    for (const p of plan) if (p.action === 'skip') settle(p.index, fromJournal(p, replay.projects.get(p.projectId)?.errors));

    // Waits begin together once every start is done: the shared poller then asks about all the
    // jobs in one getJobs per interval (a wait added alone is asked about at once, which during
    // a long start phase would mean one extra request per start).
    const toWait: { index: number; projectId: string; jobId: string }[] = [];
    const wait = (index: number, projectId: string, jobId: string, earlier: boolean) => {
      if (options.wait === false) settle(index, { projectId, outcome: 'started', jobId, fromJournal: earlier });
      else toWait.push({ index, projectId, jobId });
    };
    // One listener on the caller's signal, one controller per wait: a thousand waits do not
    // pile a thousand listeners onto one signal.
    const waitControllers = new Set<AbortController>();
    const abortWaits = () => waitControllers.forEach((c) => c.abort());
    options.signal?.addEventListener('abort', abortWaits, { once: true });
    const waitFor = async (index: number, projectId: string, jobId: string) => {
      let result: JobOutcome;
      const controller = new AbortController();
      if (options.signal?.aborted) controller.abort();
      waitControllers.add(controller);
      try {
        result = await client.waitForJob(jobId, {
          ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
          ...(options.notFoundGraceMs !== undefined && { notFoundGraceMs: options.notFoundGraceMs }),
          signal: controller.signal,
          onProgress: (job) => emit({ event: 'progress', projectId, jobId, status: job.status, progress: job.progress }),
        });
      } catch (error) {
        // Stopped (Ctrl-C) or a non-transient failure (auth): the journal still says `started`.
        settle(index, { projectId, outcome: 'interrupted', jobId, error: errorOf(error, secrets), fromJournal: false });
        return;
      } finally {
        waitControllers.delete(controller);
      }
      const errors = result.outcome === 'failed' ? firstLines(result.job).map((e) => redact(e, secrets)) : undefined;
      await append({ type: 'outcome', at: now(), projectId, outcome: result.outcome, jobId, ...(errors && { errors }) });
      settle(index, { projectId, outcome: result.outcome, jobId, job: result.job, ...(errors && { errors }), fromJournal: false });
    };

    for (const p of plan) if (p.action === 'wait') wait(p.index, p.projectId, p.jobId!, true);

    const queue = plan.filter((p) => p.action === 'start');
    const startOne = async (p: PlannedProject) => {
      const input = inputs[p.index]!;
      await append({ type: 'intent', at: now(), projectId: p.projectId, config: projectConfig(input) });
      let job: JobSnapshot;
      try {
        // Not given the signal: a mutation on its way is let finish, so that its job id is journaled.
        job = await client.startAutoLabel(input, { allowInsecureEndpoint });
      } catch (error) {
        const e = errorOf(error, secrets);
        if (isLabelkitError(error) && 'mutationOutcomeUnknown' in error && error.mutationOutcomeUnknown) {
          await append({ type: 'unknown', at: now(), projectId: p.projectId, error: e.message });
          settle(p.index, { projectId: p.projectId, outcome: 'outcome-unknown', error: e, fromJournal: false });
        } else {
          await append({ type: 'outcome', at: now(), projectId: p.projectId, outcome: 'not-started', errors: [e.message] });
          settle(p.index, { projectId: p.projectId, outcome: 'not-started', error: e, fromJournal: false });
        }
        return;
      }
      await append({ type: 'started', at: now(), projectId: p.projectId, jobId: job.id });
      emit({ event: 'started', projectId: p.projectId, jobId: job.id });
      wait(p.index, p.projectId, job.id, false);
    };
    const worker = async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        if (journalFailed) return;
        if (options.signal?.aborted) {
          settle(p.index, { projectId: p.projectId, outcome: 'interrupted', error: { code: 'ABORTED', message: 'the run was stopped before this project was started' }, fromJournal: false });
          continue;
        }
        await startOne(p);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, Math.max(queue.length, 1)) }, worker));
    try {
      await Promise.all(toWait.map((w) => waitFor(w.index, w.projectId, w.jobId)));
    } finally {
      options.signal?.removeEventListener('abort', abortWaits);
    }
    return { plan, outcomes: outcomes as ProjectOutcome[], warnings: contents.warnings };
  } finally {
    await journal.close();
  }
}
