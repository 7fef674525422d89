/**
 * The CLI's runners for programmatic use: the same work as the commands, without printing or
 * exit codes. Each takes the command's flags and an {@link ActionContext} (see `runAction`).
 * Published as the package's `labelkit/cli` entry point.
 *
 * @packageDocumentation
 */
export { runCabinet } from './commands/cabinet/runner.js';
export type { CabinetFlags, CabinetResult } from './commands/cabinet/runner.js';
export { runLabelSets } from './commands/labelSets/runner.js';
export type { LabelSetsFlags, LabelSetsHooks, LabelSetsResult } from './commands/labelSets/runner.js';
export { buildAutoLabelInput, runAutoLabel } from './commands/autoLabel/runner.js';
export type { AutoLabelFlags, AutoLabelHooks, AutoLabelResult, DryRunRequest } from './commands/autoLabel/runner.js';
export { isManyRun, manyExitCode, parseProjectsFile, runAutoLabelMany } from './commands/autoLabel/manyRunner.js';
export type { AutoLabelManyFlags, AutoLabelManyRun } from './commands/autoLabel/manyRunner.js';
export { runJobs, waitForAll, outcomesExitCode, statusesExitCode } from './commands/jobs/runner.js';
export type { JobWatcher, JobsFlags, JobsResult } from './commands/jobs/runner.js';
export { runModelCheck, checkRequest } from './commands/modelCheck/runner.js';
export type { ModelCheckFlags, ModelCheckResult, ModelCheckRow } from './commands/modelCheck/runner.js';
export { runSchemaCheck } from './commands/schemaCheck/runner.js';
export type { SchemaChangeRow, SchemaCheckFlags, SchemaCheckResult } from './commands/schemaCheck/runner.js';
export { runEmulator } from './commands/emulator/runner.js';
export type { EmulatorFlags } from './commands/emulator/runner.js';
export { resolveConnection } from './connection.js';
export type { Connection, ConnectionFlags, ConnectionResult } from './connection.js';
export { runAction } from './runAction.js';
export type { ActionContext, CommandTerms, CommonFlags } from './runAction.js';
export { createPrinter, processIo } from './io.js';
export type { Io, Printer } from './io.js';
export { EXIT, exitCodeOf } from './exitCodes.js';
export { CliUsageError } from './usageError.js';
export type { UsageProblem } from './usageError.js';
export { main } from './main.js';
