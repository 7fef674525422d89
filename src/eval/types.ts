/** A place in a document's text, as the service gives it (`TextCursor`). */
export interface EvalCursor {
  /** The zero-based line (sentence) number. */
  sentenceId: number;
  /** The zero-based token within the sentence. */
  tokenId: number;
  /** The character within the token, counted from the token's start. */
  charId: number;
}

/**
 * One applied label as the scoring reads it: where it is, which label, and what the service
 * says about it.
 *
 * @remarks `start` and `end` are both inclusive (the service's convention: a 7-character token
 * ends at `charId` 6). `labelId` is the label item's id (`TextLabel.l`) and `layer` the index of
 * its label set, so a label is known by the pair.
 */
export interface EvalSpan {
  /**
   * The key that pairs a gold document with a predicted one: the same document in two copies
   * (the reviewer's and the labeler's) has two ids but one `originId`; use that.
   */
  documentId: string;
  start: EvalCursor;
  end: EvalCursor;
  labelId: string;
  layer: number;
  /** The model's confidence, when it gave one. */
  confidenceScore?: number | null;
  /** `AUTO`, `CONFLICT`, `EXTERNAL`, `LABELER`, `PRELABELED`, `REVIEWER`, or absent. */
  labeledBy?: string | null;
}

/** How a predicted span must meet a gold span to count as found. */
export type MatchMode = 'strict' | 'overlap' | 'token';

/** The match modes, in the order the CLI lists them. */
export const MATCH_MODES: readonly MatchMode[] = ['strict', 'overlap', 'token'];

/** A label of a label set, as the report names it. */
export interface EvalLabel {
  /** The label item's id (`TagItem.id`, `TextLabel.l`). */
  id: string;
  /** The label set's index (`TextLabel.layer`). */
  layer: number;
  /** The label's name, or null when no label set of the project has this id at this layer. */
  name: string | null;
}

/** A figure whose denominator was 0: it is reported as 0 and named here. */
export type ZeroDivision = 'precision' | 'recall' | 'f1';

/** Precision, recall and F1, each between 0 and 1. */
export interface Figures {
  precision: number;
  recall: number;
  f1: number;
  /** The figures that had nothing to divide by (reported as 0); empty when none. */
  zeroDivision: ZeroDivision[];
}

/** The counts and figures of one label. */
export interface LabelScore extends EvalLabel, Figures {
  /** Gold spans (tokens, in `token` mode) of this label: the support. */
  gold: number;
  /** Predicted spans (tokens) of this label. */
  predicted: number;
  /** True positives: predictions paired with a gold span of the same label. */
  tp: number;
  /** False positives: `predicted - tp`. */
  fp: number;
  /** False negatives (missed): `gold - tp`. */
  fn: number;
}

/** One cell of the confusion table: how often gold `gold` met prediction `predicted`. */
export interface ConfusionCell {
  /** The gold label, or null for "(none)": a prediction that met no gold span. */
  gold: EvalLabel | null;
  /** The predicted label, or null for "(none)": a gold span no prediction met. */
  predicted: EvalLabel | null;
  count: number;
}

/** What {@link scoreLabels} computed. */
export interface ScoreReport {
  match: MatchMode;
  /** The layer scored, or null for every layer. */
  layer: number | null;
  /** The confidence under which predictions were left out, or null. */
  minConfidence: number | null;
  /** One entry per label that has gold or predicted spans, by layer then label-set order. */
  labels: LabelScore[];
  /** Over all labels: the sums of the counts, and the figures of the sums. */
  micro: Figures & { gold: number; predicted: number; tp: number; fp: number; fn: number };
  /** The mean of the labels' figures. */
  macro: Figures;
  /** The labels' figures weighted by their gold count. */
  weighted: Figures;
  /** Non-zero cells only, gold label order then predicted label order, "(none)" last. */
  confusion: ConfusionCell[];
  /** How many gold spans of each `labeledBy` were scored (`"(unset)"` where absent). */
  goldLabeledBy: Record<string, number>;
  /** Predicted spans left out because their confidence was under `minConfidence`. */
  predictedBelowConfidence: number;
}
