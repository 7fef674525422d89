/**
 * labelkit-tools/bulk: auto-labeling of many projects, each job started exactly once, with a
 * journal that survives a crash (Node only for the file journal). Built on the public client of
 * `labelkit`: pass it a client from `createLabelingClient`.
 *
 * @packageDocumentation
 */
export { autoLabelMany } from './autoLabelMany.js';
export type { AutoLabelManyOptions, AutoLabelManyResult, ManyEvent, ManyOutcomeKind, ProjectOutcome, RunLimitsNow } from './autoLabelMany.js';
export type { RerunRules, WorklistEntry } from './worklist.js';
export { createMemoryJournal } from './journal.js';
export type { ClaimOptions, ClaimQueue, ClaimResult, IntentRecord, Journal, JournalContents, JournalProjectConfig, JournalProjectState, JournalRecord, JournalWorker, OtherRun, QueuedProject, RunLimits, RunLimitSettings } from './journal.js';
export { openFileJournal } from './fileJournal.js';
export { openOutbox, recordOutbox } from './outbox.js';
export type { Outbox, OutboxStart } from './outbox.js';
export type { FileJournalOptions } from './fileJournal.js';
export { DEFAULT_JOURNAL_RETRY_MS, displayDatabaseUrl, isPostgresUrl, MAX_JOURNAL_RETRY_MS, openPostgresJournal, POSTGRES_JOURNAL_VERSION } from './postgresJournal.js';
export type { PostgresJournal, PostgresJournalOptions, PrunedRun } from './postgresJournal.js';
