import type { Role } from 'labelkit';

/** The settings of one project's run that a journal remembers; never the model's secret key. */
export interface JournalProjectConfig {
  /** The model endpoint the service was told to call. */
  endpoint: string;
  /** `options.numberOfFilesPerRequest`. */
  numberOfFilesPerRequest: number;
  labelerEmail: string;
  /** null when the service chose. */
  role: Role | null;
}

/**
 * One line of a journal. A project goes `intent` → `started` (with the job id) or `unknown` →
 * `outcome`; a `run` record opens each run and names the service it talked to.
 *
 * @remarks No record holds a secret: not the access token, not the model's `secretKey`
 * (error texts are redacted before they are written).
 */
export type JournalRecord =
  | { type: 'run'; at: string; url: string }
  | { type: 'intent'; at: string; projectId: string; config: JournalProjectConfig }
  | { type: 'started'; at: string; projectId: string; jobId: string }
  | { type: 'unknown'; at: string; projectId: string; error: string }
  | {
      type: 'outcome';
      at: string;
      projectId: string;
      outcome: 'delivered' | 'failed' | 'timed-out' | 'not-found' | 'not-started';
      jobId?: string;
      errors?: string[];
    };

/** What {@link Journal.open} reads back. */
export interface JournalContents {
  /** Every record, oldest first. */
  records: JournalRecord[];
  /** Things the backend repaired or tolerated, e.g. an incomplete last line after a crash. */
  warnings: string[];
}

/**
 * Where a many-project run remembers, per project, what it did: the run logic only opens,
 * appends and reads back, so a file, a database or memory can hold it.
 *
 * @remarks `append` resolves only once the record is durable (the file backend fsyncs): the run
 * writes `intent` and waits for it before it sends a mutation. The file backend is
 * `openFileJournal` from `labelkit-tools/bulk` (Node only); {@link createMemoryJournal} is for
 * tests and browsers.
 * @example
 * ```ts
 * const journal = createMemoryJournal();
 * await autoLabelMany(client, inputs, { journal });
 * ```
 */
export interface Journal {
  /**
   * Reads back every record written so far and readies the journal for appends.
   * @returns the records and any warning
   * @throws a labelkit error of code `VALIDATION` when the journal is corrupt (naming the line)
   */
  open(): Promise<JournalContents>;
  /**
   * Adds one record; resolves once it is durable.
   * @param record - the record
   */
  append(record: JournalRecord): Promise<void>;
  /** Releases the journal (the run calls it at its end). */
  close(): Promise<void>;
}

/**
 * A journal in memory (tests, browsers, or a run that needs no memory across processes).
 *
 * @param records - records to start with (as a previous run would have left them)
 * @returns the journal; its `records` array is live
 * @example
 * ```ts
 * const journal = createMemoryJournal();
 * await autoLabelMany(client, inputs, { journal });
 * console.log(journal.records.filter((r) => r.type === 'started').length);
 * ```
 */
export function createMemoryJournal(records: JournalRecord[] = []): Journal & { records: JournalRecord[] } {
  return {
    records,
    open: async () => ({ records: [...records], warnings: [] }),
    append: async (record) => void records.push(record),
    close: async () => undefined,
  };
}

/** Where a project stands according to a journal: its last record. */
export interface JournalProjectState {
  /** `intent`, `started`, `unknown`, or a final outcome. */
  state: 'intent' | 'started' | 'unknown' | 'delivered' | 'failed' | 'timed-out' | 'not-found' | 'not-started';
  jobId?: string;
  /** The config of its latest intent. */
  config?: JournalProjectConfig;
  /** Error texts (job errors, or why it did not start / is unknown). */
  errors?: string[];
}

/**
 * Folds a journal's records into the state of each project (the last record wins).
 *
 * @param records - the records, oldest first
 * @returns the state of each project, and the service URL of the latest run record
 * @remarks `timed-out` keeps its job id (a rerun waits for that job); the config is that of the
 * project's latest `intent`.
 * @example
 * ```ts
 * const { projects } = replayJournal(contents.records);
 * projects.get('p1')?.state; // 'started'
 * ```
 */
export function replayJournal(records: readonly JournalRecord[]): { url?: string; projects: Map<string, JournalProjectState> } {
  let url: string | undefined;
  const projects = new Map<string, JournalProjectState>();
  for (const r of records) {
    if (r.type === 'run') {
      url = r.url;
      continue;
    }
    const before = projects.get(r.projectId);
    const config = r.type === 'intent' ? r.config : before?.config;
    const base = config ? { config } : {};
    if (r.type === 'intent') projects.set(r.projectId, { state: 'intent', ...base });
    else if (r.type === 'started') projects.set(r.projectId, { state: 'started', jobId: r.jobId, ...base });
    else if (r.type === 'unknown') projects.set(r.projectId, { state: 'unknown', errors: [r.error], ...base });
    else projects.set(r.projectId, { state: r.outcome, ...(r.jobId && { jobId: r.jobId }), ...(r.errors && { errors: r.errors }), ...base });
  }
  return { ...(url !== undefined && { url }), projects };
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const OUTCOMES = new Set(['delivered', 'failed', 'timed-out', 'not-found', 'not-started']);

/**
 * Checks that a parsed value is a {@link JournalRecord} (for backends that read text back).
 *
 * @param value - a parsed JSON value
 * @returns a problem text, or undefined when the value is a record
 * @remarks Checks the fields the run reads (type, time, project, job id, outcome); extra fields
 * are allowed, so that later versions may add some.
 * @example
 * ```ts
 * checkJournalRecord({ type: 'started', at: '2026-01-01T00:00:00Z', projectId: 'p1' }); // 'a started record needs "projectId" and "jobId"'
 * ```
 */
export function checkJournalRecord(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a JSON object';
  const r = value as Record<string, unknown>;
  if (!isStr(r.at)) return 'has no "at" time';
  switch (r.type) {
    case 'run':
      return isStr(r.url) ? undefined : 'a run record needs "url"';
    case 'intent': {
      const c = r.config as Record<string, unknown> | undefined;
      const ok = isStr(r.projectId) && c && isStr(c.endpoint) && typeof c.numberOfFilesPerRequest === 'number' && isStr(c.labelerEmail);
      return ok ? undefined : 'an intent record needs "projectId" and "config" (endpoint, numberOfFilesPerRequest, labelerEmail)';
    }
    case 'started':
      return isStr(r.projectId) && isStr(r.jobId) ? undefined : 'a started record needs "projectId" and "jobId"';
    case 'unknown':
      return isStr(r.projectId) && isStr(r.error) ? undefined : 'an unknown record needs "projectId" and "error"';
    case 'outcome':
      return isStr(r.projectId) && isStr(r.outcome) && OUTCOMES.has(r.outcome) ? undefined : 'an outcome record needs "projectId" and a known "outcome"';
    default:
      return `has an unknown "type" (${JSON.stringify(r.type ?? null)})`;
  }
}
