import { validateAutoLabelInput } from 'labelkit';
import type { AutoLabelInput, ValidationProblem } from 'labelkit';
import { redact } from '../shared/redact.js';
import type { JournalProjectConfig, JournalProjectState } from './journal.js';

/**
 * One entry of a many-project run's worklist: what the run does with one project, decided from
 * its input and the journal before anything is sent. (The CLI's `--dry-run` prints the worklist
 * as "the plan".)
 */
export interface WorklistEntry {
  projectId: string;
  /** Position in the inputs. */
  index: number;
  /** `start` a job, `wait` for the job an earlier run started, or `skip` it. */
  action: 'start' | 'wait' | 'skip';
  /** The project's state in the journal before this run (absent: not in the journal). */
  journalState?: JournalProjectState['state'];
  /** The job an earlier run started, when known. */
  jobId?: string;
  /** With `start`: the attempt this run claims (1 for a project never tried). */
  attempt?: number;
  /** A live worker of a shared journal that holds the project (it starts or waits for it). */
  heldBy?: string;
  /** Why, in words (for `--dry-run` and the summary). */
  reason: string;
}

/** The rerun switches of a many-project run. */
export interface RerunRules {
  /** Start again projects whose last run `failed`, was `not-found` or `not-started`. @defaultValue false */
  retryFailed?: boolean;
  /**
   * Start again projects left at `intent` or `unknown`. This MAY START A SECOND JOB: the
   * mutation may have reached the service the first time. @defaultValue false
   */
  retryUnknown?: boolean;
}

/** The last endpoint redacted, and its secret: a run's projects share one model (100,000 redactions were a second of a dry run). */
let lastRedacted: { endpoint: string; secret: string; text: string } | undefined;
function redactedEndpoint(endpoint: string, secret: string): string {
  if (lastRedacted?.endpoint !== endpoint || lastRedacted.secret !== secret) lastRedacted = { endpoint, secret, text: redact(endpoint, [secret]) };
  return lastRedacted.text;
}

/**
 * The journal's view of one project's settings (never the secret key).
 *
 * @param input - the project's input
 * @returns endpoint, lines per request, labeler e-mail and role
 * @remarks Two runs with the same config per project may share a journal; the secret key is
 * left out on purpose (it may change without changing what the service does).
 * @example
 * ```ts
 * projectConfig(input); // { endpoint: 'https://model.example.com/', numberOfFilesPerRequest: 2, labelerEmail: 'a@example.com', role: null }
 * ```
 */
export function projectConfig(input: AutoLabelInput): JournalProjectConfig {
  return {
    // An endpoint that quotes the secret key (in its query, say) is recorded with it redacted.
    endpoint: redactedEndpoint(input.targetAPI.endpoint, input.targetAPI.secretKey),
    numberOfFilesPerRequest: input.options.numberOfFilesPerRequest,
    labelerEmail: input.labelerEmail,
    role: input.role ?? null,
  };
}

/**
 * Checks every input of a many-project run at once.
 *
 * @param inputs - the inputs
 * @param options - `allowInsecureEndpoint`, and the run's `concurrency`
 * @returns every problem, paths such as `inputs[3].targetAPI.endpoint` and messages naming the project
 * @remarks Each input is checked by `validateAutoLabelInput`; a project listed twice is a problem
 * too (two jobs for one project in one run is what the journal exists to prevent).
 * @example
 * ```ts
 * validateManyInputs([goodInput, { ...goodInput, labelerEmail: 'x' }], {});
 * // [{ path: 'inputs[1].labelerEmail', message: 'must be an e-mail address such as name@example.com (project p1)' }, …]
 * ```
 */
export function validateManyInputs(inputs: unknown, options: { allowInsecureEndpoint?: boolean; concurrency?: unknown }): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const c = options.concurrency;
  if (c !== undefined && (typeof c !== 'number' || !Number.isInteger(c) || c < 1)) {
    problems.push({ path: 'options.concurrency', message: 'must be an integer >= 1' });
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return [...problems, { path: 'inputs', message: 'must be a non-empty list of auto-labeling inputs' }];
  const seen = new Map<string, number>();
  inputs.forEach((input: unknown, i) => {
    const id = (input as { projectId?: unknown } | null)?.projectId;
    const who = typeof id === 'string' && id.trim() !== '' ? ` (project ${id})` : '';
    for (const p of validateAutoLabelInput(input, options)) {
      problems.push({ path: p.path.replace(/^input/, `inputs[${i}]`), message: `${p.message}${who}` });
    }
    if (typeof id === 'string') {
      const first = seen.get(id);
      if (first !== undefined) problems.push({ path: `inputs[${i}].projectId`, message: `project ${id} is also inputs[${first}]: each project once per run` });
      else seen.set(id, i);
    }
  });
  return problems;
}

/** Each setting a journal remembers: the input path that names it (a flag, in the CLI), and its words. */
const CONFIG_FIELDS: readonly { key: keyof JournalProjectConfig; path: string; words: string }[] = [
  { key: 'endpoint', path: 'input.targetAPI.endpoint', words: 'endpoint' },
  { key: 'numberOfFilesPerRequest', path: 'input.options.numberOfFilesPerRequest', words: 'files per request' },
  { key: 'labelerEmail', path: 'input.labelerEmail', words: 'labeler' },
  { key: 'role', path: 'input.role', words: 'role' },
];

/** Up to three project ids, then how many more. */
function someProjects(ids: readonly string[]): string {
  return ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;
}

/**
 * Finds where a journal was written by another run configuration than this one.
 *
 * @param url - the service this run talks to
 * @param journal - the journal's service URL and project states
 * @param inputs - this run's inputs
 * @returns one problem per difference, whatever the number of projects it touches: the service
 * URL (path `journal`), and each changed setting (its input path, e.g.
 * `input.options.numberOfFilesPerRequest`) with its old and new value, how many projects and
 * which (the first three); empty when the journal fits
 * @remarks Compares the service URL of the latest `run` record, and for each project of this run
 * the config of its latest `intent` (endpoint, files per request, labeler, role). One flag
 * changed over a hundred projects is one problem, not a hundred.
 * @example
 * ```ts
 * configMismatches('https://a/graphql', { url: 'https://b/graphql', projects: new Map() }, []);
 * // [{ path: 'journal', message: 'was written for the service at https://b/graphql; this run uses https://a/graphql' }]
 * ```
 */
export function configMismatches(
  url: string,
  journal: { url?: string; projects: ReadonlyMap<string, JournalProjectState> },
  inputs: readonly AutoLabelInput[],
): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  if (journal.url !== undefined && journal.url !== url) {
    problems.push({ path: 'journal', message: `was written for the service at ${journal.url}; this run uses ${url}` });
  }
  // By setting and by (old, new) value: the projects that differ that way.
  const changes = new Map<string, { field: (typeof CONFIG_FIELDS)[number]; before: unknown; now: unknown; projects: string[] }>();
  for (const input of inputs) {
    const before = journal.projects.get(input.projectId)?.config;
    if (!before) continue;
    const now = projectConfig(input);
    for (const field of CONFIG_FIELDS) {
      if (now[field.key] === before[field.key]) continue;
      const key = JSON.stringify([field.key, before[field.key], now[field.key]]);
      const change = changes.get(key) ?? { field, before: before[field.key], now: now[field.key], projects: [] };
      change.projects.push(input.projectId);
      changes.set(key, change);
    }
  }
  for (const { field, before, now, projects } of changes.values()) {
    const n = projects.length;
    const shown = (v: unknown) => (v === null ? 'the default' : String(v));
    problems.push({
      path: field.path,
      message: `${n} project${n === 1 ? '' : 's'} of the journal (${someProjects(projects)}) ${n === 1 ? 'was' : 'were'} run with ${field.words} ${shown(before)}; this run uses ${shown(now)}`,
    });
  }
  return problems;
}

/**
 * Decides, for each input, whether to start a job, wait for an earlier one or skip it.
 *
 * @param inputs - the (valid) inputs
 * @param states - each project's state in the journal
 * @param rules - `retryFailed`, `retryUnknown`
 * @param isAlive - for a shared journal: whether a worker still runs (its heartbeat); a journal
 * one run holds alone has no other live worker
 * @returns one worklist entry per input, in order
 * @remarks The rerun rules: not in the journal → start; `started` (or `timed-out`, which has a
 * job) → wait for that job, never start another; `delivered` → skip; `failed`, `not-found`,
 * `not-started` → skip unless `retryFailed`; `intent`, `unknown` → skip and report unless
 * `retryUnknown` (which may start a second job). Where a live worker holds the project (its
 * intent or its job) it is skipped whatever the rules: that worker starts it or waits for it.
 * @example
 * ```ts
 * buildWorklist([input], new Map([[input.projectId, { state: 'intent', attempts: 1 }]]), {})[0]!.action; // 'skip'
 * ```
 */
export function buildWorklist(
  inputs: readonly AutoLabelInput[],
  states: ReadonlyMap<string, JournalProjectState>,
  rules: RerunRules,
  isAlive: (worker: string) => boolean = () => false,
): WorklistEntry[] {
  // A loop that builds each entry field by field, in the order the plan prints them (projectId,
  // index, journalState, jobId, attempt, action, heldBy, reason): spreads were most of a
  // 100,000-project worklist's time.
  const worklist: WorklistEntry[] = new Array(inputs.length);
  for (let index = 0; index < inputs.length; index++) {
    const projectId = inputs[index]!.projectId;
    const s = states.get(projectId);
    const entry = (action: WorklistEntry['action'], reason: string, attempt?: number, heldBy?: string) => {
      const e = { projectId, index } as WorklistEntry;
      if (s) e.journalState = s.state;
      if (s?.jobId) e.jobId = s.jobId;
      if (attempt !== undefined) e.attempt = attempt;
      e.action = action;
      if (heldBy !== undefined) e.heldBy = heldBy;
      e.reason = reason;
      return e;
    };
    if (!s) {
      worklist[index] = entry('start', 'not in the journal', 1);
      continue;
    }
    const next = s.attempts + 1;
    const holder = s.worker !== undefined && isAlive(s.worker) ? s.worker : undefined;
    switch (s.state) {
      case 'delivered':
        worklist[index] = entry('skip', 'delivered in an earlier run');
        break;
      case 'started':
      case 'timed-out':
        worklist[index] =
          holder && s.state === 'started'
            ? entry('skip', `job ${s.jobId} started by the live worker ${holder}, which waits for it`, undefined, holder)
            : entry('wait', `job ${s.jobId} started in an earlier run: waited for, not started again`);
        break;
      case 'failed':
      case 'not-found':
      case 'not-started':
        worklist[index] = rules.retryFailed
          ? entry('start', `${s.state} in an earlier run; started again (retry failed)`, next)
          : entry('skip', `${s.state} in an earlier run; retry failed to start it again`);
        break;
      case 'intent':
      case 'unknown':
        worklist[index] = holder
          ? entry('skip', `claimed by the live worker ${holder} (${s.state})`, undefined, holder)
          : rules.retryUnknown
            ? entry('start', 'outcome unknown in an earlier run; started again (retry unknown: may start a second job)', next)
            : entry('skip', `outcome unknown in an earlier run (${s.state}): a job may have started; not started again without retry unknown`);
        break;
    }
  }
  return worklist;
}
