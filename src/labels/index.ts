/**
 * labelkit/labels: reading a project back, over the client's public `request`.
 *
 * @remarks A room above the client, shipped in the `labelkit` package: it imports the client by
 * its public names only (`labelkit`, `labelkit/documents`), so an app that never reads labels
 * back neither bundles nor loads it. It holds a project's copies (the reviewer's and each
 * labeler's) and what counts as gold ({@link notGold}), a copy's lines ({@link readCells}), its
 * labels page by page ({@link readDocumentLabels}) and many documents' labels a few at once
 * through the one read-ahead loop ({@link readAhead}), and a label set's hierarchy
 * ({@link buildLabelTree}). Evaluation, export, the label-set plans' applied-label counts and the
 * CLI read through it.
 * @packageDocumentation
 */
export { readAhead, READ_AHEAD } from './readAhead.js';
export type { ReadAheadOptions } from './readAhead.js';
export { readAllLabels, readDocumentLabels, readLabelsOfDocuments } from './readLabels.js';
export type { ReadLabelsOfDocumentsOptions, ReadLabelsOptions, TextCursor, TextLabel } from './readLabels.js';
export { readCells, readLines, spanText, tokenStarts } from './cells.js';
export type { Cell, Line } from './cells.js';
export { CopyNotFoundError, findCopies, notGold, projectCabinets, projectCopy, readCabinets } from './copies.js';
export type { Cabinets, DocumentPair, NotGold, ProjectCopies, ProjectLabel } from './copies.js';
export { listLabels } from './listLabels.js';
export type { LabelRow } from './listLabels.js';
export { buildLabelTree } from './labelTree.js';
export type { LabelNode, LabelTree } from './labelTree.js';
