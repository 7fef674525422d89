/**
 * Exports of labels as training data: one copy of a project as CoNLL, JSON lines or spaCy, streamed,
 * atomic and resumable from a checkpoint.
 *
 * @module labelkit-tools/export
 */
export * from '../../src/export/index.js';
