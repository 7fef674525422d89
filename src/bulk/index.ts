/**
 * labelkit-tools/bulk: auto-labeling of many projects, each job started exactly once, with a
 * journal that survives a crash (Node only for the file journal). Built on the public client of
 * `labelkit`: pass it a client from `createLabelingClient`.
 *
 * @packageDocumentation
 */
export { autoLabelMany } from './autoLabelMany.js';
export type { AutoLabelManyOptions, AutoLabelManyResult, ManyEvent, ManyOutcomeKind, ProjectOutcome } from './autoLabelMany.js';
export type { PlannedProject, RerunRules } from './manyPlan.js';
export { createMemoryJournal } from './journal.js';
export type { Journal, JournalContents, JournalProjectConfig, JournalProjectState, JournalRecord } from './journal.js';
export { openFileJournal } from './fileJournal.js';
export type { FileJournalOptions } from './fileJournal.js';
