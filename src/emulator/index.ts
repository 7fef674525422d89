/**
 * labelkit-tools/emulator: a local emulator of the labeling service — the same schema.graphql over
 * real HTTP, client-credentials auth, and a job runner that calls your model endpoint.
 *
 * @packageDocumentation
 */
export { createEmulator } from './emulator.js';
export type { Emulator, EmulatorOptions } from './emulator.js';
export type { SchemaGeneration } from '../shared/constants.js';
export { startEmulator } from './startEmulator.js';
export type { RunningEmulator } from './startEmulator.js';
export { DEMO_PROJECT_ID, demoProjectId, MAX_DEMO_PROJECTS } from './demoProject.js';
// The type of `emulator.store` (addProject, labelsOf, …); the class itself is not for constructing.
export type { EmulatorStore } from './store.js';
export { LabelSetWriteRefusedError } from './labelSetWrites.js';
export type { LabelSetWriteCode, LabelSetWriteProblem, LabelWriteInput, NewLabelWriteInput, WritePath } from './labelSetWrites.js';
export { EmulatorDataError } from './dataError.js';
export type { DataErrorProblem } from './dataError.js';
export type { ModelOptions } from './jobRunner.js';
export type { ReviewLabelInput } from './types.js';
export type { LabeledBy } from './compactLines.js';
export type { CellJson, FinalReportFigures, Page, PageInput, TextCursorJson, TextLabelJson } from './labelReads.js';
export type {
  DocumentInput,
  JobSource,
  StoredCabinet,
  LabelClassType,
  LabelInput,
  LabelSetInput,
  LabeledCopy,
  ProjectInput,
  StoredDocument,
  StoredJob,
  StoredJobError,
  StoredLabel,
  StoredLabelSet,
  StoredProject,
  StoredSpan,
  StoredTextDocument,
} from './types.js';
