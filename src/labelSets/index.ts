/**
 * Label sets as code: read a label-set file, plan the changes against a project, apply them.
 *
 * @remarks A workflow room above the client: it uses only what the client's entry
 * (`src/client/index.ts`, package `labelkit`) exports, and takes the client as a parameter, so the
 * client itself carries none of it (as with `autoLabelMany`). Node only (it reads files and hashes
 * with node:crypto).
 * @packageDocumentation
 */
export { planLabelSets } from './planLabelSets.js';
export type { PlanLabelSetsOptions } from './planLabelSets.js';
export { applyLabelSetPlan, assertDestructiveAllowed } from './applyLabelSetPlan.js';
export type { ApplyLabelSetPlanOptions, ApplyLabelSetPlanResult, AppliedWrite, GeneratedLabelId } from './applyLabelSetPlan.js';
export { diffLabelSets } from './diffLabelSets.js';
export type { DiffOptions } from './diffLabelSets.js';
export { readLabelSetsFile } from './readLabelSetsFile.js';
export { isYamlFileName, parseLabelSetsFile } from './parseLabelSetsFile.js';
export type { ParsedLabelSetsFile } from './parseLabelSetsFile.js';
export { checkLabelSets, pathText } from './checkLabelSets.js';
export type { SpecProblem, ValuePath } from './checkLabelSets.js';
export { checkSavedLabelSetPlan } from './checkPlan.js';
export { compareFingerprints, fingerprintLabelSet, itemsHash } from './fingerprint.js';
export { describeStep, describeWrite, formatLabelSetPlan } from './formatPlan.js';
export { destructiveSteps, PLAN_FORMAT, planIsEmpty, savedLabelSetPlan } from './plan.js';
export type { LabelSetFingerprint, LabelSetPlan, PlanItem, PlanStep, PlanStepKind, PlanWrite, SavedLabelSetPlan } from './plan.js';
export { ApplyError, DestructiveStepsError, isLabelSetsAsCodeError, LabelSetsAsCodeError, LabelSetsFileError, LabelSetsPlanError, PlanStaleError } from './errors.js';
export type { FileProblem, LabelSetsAsCodeErrorCode } from './errors.js';
export { canCount, countAppliedLabels, needsCounts } from './countAppliedLabels.js';
export type { CountAppliedLabelsOptions, CountProgress } from './countAppliedLabels.js';
export { writeRequestBytes } from './writeSize.js';
export type {
  AppliedLabelCounts,
  LabelItemSpec,
  LabelItemWrite,
  LabelSetsClient,
  LabelSetSpec,
  LabelSetsFile,
  NewLabelItemWrite,
} from './types.js';
