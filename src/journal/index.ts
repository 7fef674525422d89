/**
 * labelkit/journal: the Node-only file backend of the many-project run's journal.
 *
 * @packageDocumentation
 */
export { openFileJournal, parseJournalText } from './fileJournal.js';
export type { FileJournalOptions } from './fileJournal.js';
export { createMemoryJournal, replayJournal } from '../client/journal.js';
export type { Journal, JournalContents, JournalProjectState, JournalRecord } from '../client/journal.js';
