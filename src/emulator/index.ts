/**
 * labelkit/emulator: a local emulator of the labeling service (same SDL, real HTTP, a real job
 * runner that calls your model endpoint).
 *
 * @packageDocumentation
 */
export { createEmulator } from './emulator.js';
export type { Emulator, EmulatorOptions } from './emulator.js';
export { startEmulator } from './server.js';
export type { RunningEmulator } from './server.js';
export { DEMO_PROJECT_ID, demoProject } from './demoProject.js';
export { EmulatorStore, labelSetSignature } from './store.js';
export type { StoredDocument, StoredJob, StoredLabelSet, StoredProject, StoredTagItem } from './store.js';
export type { RunnerOptions } from './runner.js';
