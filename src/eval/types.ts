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

/**
 * The corner of the confusion table, and its caption: one wording for the CLI's table and the
 * results page's (rows are gold labels, columns predicted ones).
 */
export const CONFUSION_CORNER = 'gold \\ predicted';
/** What the confusion table's rows and columns are, as the CLI and the results page say it. */
export const CONFUSION_CAPTION = 'rows: gold, columns: predicted; "(none)": no span met';

/** The four evaluation schemes of SemEval-2013 task 9.1, as nervaluate names them. */
export type SchemeName = 'strict' | 'exact' | 'partial' | 'ent_type';

/** The schemes, in the order the report and `--scheme` list them. */
export const SCHEMES: readonly SchemeName[] = ['strict', 'exact', 'partial', 'ent_type'];

/**
 * One scheme's counts and figures (SemEval-2013 9.1, as nervaluate computes them).
 *
 * @remarks `possible` = correct + incorrect + partial + missed (the gold spans that count);
 * `actual` = correct + incorrect + partial + spurious (the predictions that count). Precision is
 * correct / actual and recall correct / possible, except in `partial`, where they are
 * (correct + 0.5 × partial) / actual and / possible; F1 is 2PR / (P + R). A figure whose
 * denominator is 0 is 0 and named in `zeroDivision` (`f1` when P + R is 0).
 */
export interface SchemeScore extends Figures {
  correct: number;
  incorrect: number;
  partial: number;
  missed: number;
  spurious: number;
  possible: number;
  actual: number;
}

/**
 * One scheme over the whole evaluation: overall, and per label in the report's label order.
 *
 * @remarks Overall, gold and predicted spans pair whatever their labels. Per label, as
 * nervaluate's per-entity results, each label is scored on its own (its gold spans against its
 * predictions, no other label's): a DATE predicted over a gold TIME is a miss of TIME and a
 * spurious DATE, so the labels' counts do not add up to the overall ones.
 */
export interface SchemeReport {
  overall: SchemeScore;
  labels: (EvalLabel & SchemeScore)[];
}

/**
 * What went wrong with a span, as the SemEval pairing sees it: a gold span no prediction met
 * (`missed`), a prediction that met no gold span (`spurious`), a pair with different labels
 * (`wrong-label`, whatever the boundaries), a pair with the same label and other boundaries
 * (`boundary`).
 */
export type MistakeKind = 'missed' | 'spurious' | 'wrong-label' | 'boundary';

/** One mistake of the model: its kind and the spans it concerns. */
export interface Mistake {
  /** The document (the key pairing the two copies: its `originId`). */
  documentId: string;
  kind: MistakeKind;
  /** The gold span, or null for `spurious`. */
  gold: EvalSpan | null;
  /** The predicted span, or null for `missed`. */
  predicted: EvalSpan | null;
}

/** One document's counts, in the report's match mode. */
export interface DocumentScore extends Figures {
  documentId: string;
  gold: number;
  predicted: number;
  tp: number;
  fp: number;
  fn: number;
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
  /**
   * The four SemEval-2013 9.1 schemes, over spans whatever `match` is (see `schemePairs` for how
   * spans are paired).
   */
  schemes: Record<SchemeName, SchemeReport>;
  /** Each document's counts in `match` mode, in the order the documents were added. */
  perDocument: DocumentScore[];
}
