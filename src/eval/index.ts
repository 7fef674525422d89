/**
 * How good is my model? Read back a job's labels and score the model per label.
 *
 * @remarks A workflow room above the client: the scoring (`scoreLabels`, `Scorer`) is pure
 * functions over spans; the reading (the copies, gold, the labels a few documents ahead) is
 * `labelkit/labels`', over the client's public API only, taking the client as a parameter as
 * `autoLabelMany` and the label-set plans do.
 * @packageDocumentation
 */
export { scoreLabels, Scorer, figuresOf } from './scoreLabels.js';
export type { ScoreOptions } from './scoreLabels.js';
export { compareCursors, matchSpans, overlappingPairs, ScoringError, sortSpans, spansOverlap, tokenUnits } from './matchSpans.js';
export type { DocumentMatch } from './matchSpans.js';
export { maxMatching } from './maxMatching.js';
export type { MatchEdge } from './maxMatching.js';
export { mistakesOf, pairOutcome, schemePairs, schemeScore } from './schemes.js';
export type { SchemeCounts, SchemePairing } from './schemes.js';
export { CONFUSION_CAPTION, CONFUSION_CORNER, MATCH_MODES, SCHEMES } from './types.js';
export type { ConfusionCell, DocumentScore, EvalCursor, EvalLabel, EvalSpan, Figures, LabelScore, MatchMode, Mistake, MistakeKind, SchemeName, SchemeReport, SchemeScore, ScoreReport, ZeroDivision } from './types.js';
export { evaluateProject, toEvalSpan } from './evaluateProject.js';
export type { EvalReport, EvaluateOptions, MistakeRow } from './evaluateProject.js';
export { ConfidenceCollector, precisionRecallCurve } from './prCurve.js';
export type { ConfidenceCurves, PrCurve } from './prCurve.js';
export { bootstrapF1, DEFAULT_RESAMPLES, DocumentCounts, mulberry32 } from './bootstrap.js';
export type { BootstrapOptions, F1Intervals, Interval } from './bootstrap.js';
export { compareReports, readBaselineReport } from './compareReports.js';
export type { BaselineReport, F1Change, ReportComparison } from './compareReports.js';
export { comparisonWarnings, markdownReport, textReport } from './drawReport.js';
export type { MarkdownInput } from './drawReport.js';
