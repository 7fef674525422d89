// The public types of reading labels back (labelkit/labels) and of the evaluation (labelkit-tools/eval):
// what `labelkit eval --json` documents, pinned.
import { describe, expectTypeOf, it } from 'vitest';
import { readDocumentLabels, readLabelsOfDocuments } from '../../src/labels/index.js';
import type { NotGold, TextCursor, TextLabel } from '../../src/labels/index.js';
import { evaluateProject, scoreLabels } from '../../src/eval/index.js';
import type { ConfidenceCurves, ConfusionCell, DocumentScore, EvalLabel, EvalReport, F1Intervals, LabelScore, MatchMode, MistakeKind, MistakeRow, PrCurve, ReportComparison, SchemeName, SchemeReport, SchemeScore } from '../../src/eval/index.js';

describe('reading labels back', () => {
  it('yields pages of TextLabel, and documents with their labels', () => {
    expectTypeOf(readDocumentLabels).returns.toEqualTypeOf<AsyncGenerator<TextLabel[]>>();
    expectTypeOf(readLabelsOfDocuments).returns.toEqualTypeOf<AsyncGenerator<{ documentId: string; labels: TextLabel[] }>>();
    expectTypeOf<TextLabel['start']>().toEqualTypeOf<TextCursor>();
    expectTypeOf<TextLabel['labeledBy']>().toEqualTypeOf<'AUTO' | 'CONFLICT' | 'EXTERNAL' | 'LABELER' | 'PRELABELED' | 'REVIEWER' | null | undefined>();
    // Fields the service adds come through as unknown.
    expectTypeOf<TextLabel['hashCode']>().toEqualTypeOf<unknown>();
  });
});

describe('the evaluation report (labelkit eval --json)', () => {
  it('has the documented shape', () => {
    expectTypeOf(evaluateProject).returns.resolves.toEqualTypeOf<EvalReport>();
    expectTypeOf<EvalReport['version']>().toEqualTypeOf<1>();
    expectTypeOf<EvalReport['match']>().toEqualTypeOf<MatchMode>();
    expectTypeOf<MatchMode>().toEqualTypeOf<'strict' | 'overlap' | 'token'>();
    expectTypeOf<EvalReport['labels']>().toEqualTypeOf<LabelScore[]>();
    expectTypeOf<Pick<LabelScore, 'id' | 'layer' | 'name' | 'gold' | 'predicted' | 'tp' | 'fp' | 'fn'>>().toEqualTypeOf<{
      id: string;
      layer: number;
      name: string | null;
      gold: number;
      predicted: number;
      tp: number;
      fp: number;
      fn: number;
    }>();
    expectTypeOf<ConfusionCell>().toEqualTypeOf<{ gold: EvalLabel | null; predicted: EvalLabel | null; count: number }>();
    expectTypeOf<EvalReport['goldExcluded']>().toEqualTypeOf<Record<NotGold, number>>();
    expectTypeOf<EvalReport['schemes']>().toEqualTypeOf<Record<SchemeName, SchemeReport>>();
    expectTypeOf<SchemeName>().toEqualTypeOf<'strict' | 'exact' | 'partial' | 'ent_type'>();
    expectTypeOf<Pick<SchemeScore, 'correct' | 'incorrect' | 'partial' | 'missed' | 'spurious' | 'possible' | 'actual'>>().toEqualTypeOf<{
      correct: number;
      incorrect: number;
      partial: number;
      missed: number;
      spurious: number;
      possible: number;
      actual: number;
    }>();
    expectTypeOf<SchemeReport['labels'][number]>().toMatchTypeOf<EvalLabel & SchemeScore>();
    expectTypeOf<EvalReport['perDocument']>().toEqualTypeOf<DocumentScore[]>();
    expectTypeOf<Pick<DocumentScore, 'documentId' | 'gold' | 'predicted' | 'tp' | 'fp' | 'fn'>>().toEqualTypeOf<{ documentId: string; gold: number; predicted: number; tp: number; fp: number; fn: number }>();
    expectTypeOf<MistakeKind>().toEqualTypeOf<'missed' | 'spurious' | 'wrong-label' | 'boundary'>();
    expectTypeOf<MistakeRow['kind']>().toEqualTypeOf<MistakeKind>();
    expectTypeOf(scoreLabels).returns.toMatchTypeOf<Omit<EvalReport, 'version' | 'projectId' | 'labelerEmail' | 'documents' | 'goldExcluded' | 'predictedDeleted' | 'confidence' | 'intervals' | 'comparison'>>();
  });

  it('adds the confidence curves always, the intervals with --ci and the comparison with --baseline', () => {
    expectTypeOf<EvalReport['confidence']>().toEqualTypeOf<ConfidenceCurves>();
    expectTypeOf<PrCurve>().toEqualTypeOf<{ thresholds: number[]; precision: number[]; recall: number[]; best: { threshold: number; precision: number; recall: number; f1: number } | null }>();
    expectTypeOf<EvalReport['intervals']>().toEqualTypeOf<F1Intervals | undefined>();
    expectTypeOf<F1Intervals['micro']>().toEqualTypeOf<[low: number, high: number]>();
    expectTypeOf<EvalReport['comparison']>().toEqualTypeOf<ReportComparison | undefined>();
  });
});
