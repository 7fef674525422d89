/**
 * Get the labels out: one copy of a project (the reviewer's by default) as training data, in
 * CoNLL (IOB2), JSON lines (`tokens`, `ner_tags`) or spaCy's (`text`, `entities`) format.
 *
 * @remarks A workflow room above the client: it reads through the client's public API only
 * (`getProjectCabinets`, `getCells`, `getLabelsPaginated`, through `labelkit/labels`' copy finding and reads),
 * a few documents ahead, and writes a document at a time: memory stays flat. `writeExport` is
 * atomic and resumable (a checkpoint beside the output); `exportDocuments` yields the documents.
 * @packageDocumentation
 */
export { exportDocuments, planExport } from './exportDocuments.js';
export type { ExportCopyOptions, ExportDocumentsOptions, ExportPlan, ExportReadOptions, PlannedDocument } from './exportDocuments.js';
export { flattenDocument, labelDepths } from './flattenDocument.js';
export type { FlattenOptions } from './flattenDocument.js';
export { CONLL_DOCSTART, formatDocument, tagList, unwritable } from './formats.js';
export { ExportError, ExportInterrupted, StrictExportError } from './errors.js';
export type { ExportErrorCode } from './errors.js';
export { outputProblem, writeExport } from './writeExport.js';
export type { ExportSummary, WriteExportOptions } from './writeExport.js';
export type { PartialFile } from './checkpoint.js';
export { EXPORT_FORMATS, LEFT_OUT_REASONS, noneLeftOut, STRICT_REASONS } from './types.js';
export type { ExportedDocument, ExportedLine, ExportedSpan, ExportFormat, LeftOut, LeftOutReason } from './types.js';
export { documentPoint, parseSplits, quotas, splitOf } from './splits.js';
export type { SplitShare } from './splits.js';
export { createStratifier } from './stratify.js';
export type { Stratifier, StratifierOptions } from './stratify.js';
export { DOCUMENT_STATUSES, documentStatus, filterPlan, keepLabels, parseDocumentIds, parseLabelNames, parseStatuses } from './filters.js';
export type { DocumentFilters, DocumentStatus, FilteredPlan } from './filters.js';
export { createReleaseBuilder, deltaMismatches, deltaSlices, documentHash, keyOf, RELEASE_FILES, splitFileName } from './manifest.js';
export type { DocumentKey, FileSlice, JournalEntry, ManifestDocument, PlacedDocument, ReleaseBuilder, ReleaseBuilderOptions, ReleaseDelta, ReleaseDropped, ReleaseFile, ReleaseManifest, ReleaseOptions } from './manifest.js';
export { datasetCard } from './card.js';
export { manifestText, readManifest, releaseOutputProblem, today, writeRelease } from './writeRelease.js';
export type { ReleaseSummary, WriteReleaseOptions } from './writeRelease.js';
export { applyDelta } from './applyDelta.js';
