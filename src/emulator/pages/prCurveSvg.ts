import type { ConfidenceCurves, PrCurve } from '../../eval/prCurve.js';
import { escapeHtml } from './html.js';

/** Most points a curve's SVG draws (evenly picked, the ends and the best point kept). */
const MAX_CURVE_POINTS = 400;

/** The ticks of both axes: precision and recall run from 0 to 1. */
const TICKS = [0, 0.25, 0.5, 0.75, 1] as const;

const threePlaces = (n: number) => n.toFixed(3);
const tickText = (t: number) => (t === 0 || t === 1 ? String(t) : String(t).replace(/^0/, ''));

/**
 * One precision-recall curve as inline SVG: recall across, precision up, both axes from 0 to 1 with
 * ticks (0, .25, .5, .75, 1) and their names, the best threshold as a dot.
 *
 * @param name - what the curve is of (a label, or micro)
 * @param curve - the curve
 * @returns HTML: a figure with the SVG and a caption naming the best threshold
 * @remarks The axis names are `text` elements marked `data-axis="recall"` and
 * `data-axis="precision"`, the ticks' numbers `data-tick`.
 */
export function curveSvg(name: string, curve: PrCurve): string {
  // Plot area: from (left, top) to (right, bottom); room on the left and below for ticks and names.
  const [w, h] = [200, 160];
  const [left, right, top, bottom] = [38, w - 8, 8, h - 34];
  const x = (r: number) => (left + r * (right - left)).toFixed(1);
  const y = (p: number) => (bottom - p * (bottom - top)).toFixed(1);
  const n = curve.precision.length;
  const bestAt = curve.best ? curve.thresholds.indexOf(curve.best.threshold) : -1;
  const step = Math.max(1, Math.ceil(n / MAX_CURVE_POINTS));
  const picked = [...new Set([...Array.from({ length: Math.ceil(n / step) }, (_, k) => k * step), n - 1, ...(bestAt >= 0 ? [bestAt] : [])])].sort((a, b) => a - b);
  const points = picked.map((i) => `${x(curve.recall[i]!)},${y(curve.precision[i]!)}`).join(' ');
  const best = curve.best
    ? `<circle data-best cx="${x(curve.best.recall)}" cy="${y(curve.best.precision)}" r="3.5" fill="#dc2626"><title>confidence ≥ ${curve.best.threshold}: precision ${threePlaces(curve.best.precision)}, recall ${threePlaces(curve.best.recall)}, F1 ${threePlaces(curve.best.f1)}</title></circle>`
    : '';
  const grid = TICKS.map(
    (t) =>
      `<path d="M${x(t)} ${bottom}v4M${left} ${y(t)}h-4" stroke="#64748b"/>` +
      (t > 0 ? `<path d="M${x(t)} ${top}V${bottom}M${left} ${y(t)}H${right}" stroke="#e2e8f0"/>` : '') +
      `<text data-tick="recall" x="${x(t)}" y="${bottom + 14}" font-size="9" text-anchor="middle">${tickText(t)}</text>` +
      `<text data-tick="precision" x="${left - 6}" y="${(Number(y(t)) + 3).toFixed(1)}" font-size="9" text-anchor="end">${tickText(t)}</text>`,
  ).join('');
  const axes =
    `<path d="M${left} ${top}V${bottom}H${right}" fill="none" stroke="#64748b"/>` +
    `<text data-axis="recall" x="${(left + right) / 2}" y="${h - 4}" font-size="10" text-anchor="middle">recall</text>` +
    `<text data-axis="precision" x="10" y="${(top + bottom) / 2}" font-size="10" text-anchor="middle" transform="rotate(-90 10 ${(top + bottom) / 2})">precision</text>`;
  const caption = curve.best ? `best F1 ${threePlaces(curve.best.f1)} at confidence ≥ ${curve.best.threshold}` : 'no threshold gives an F1 above 0';
  return `<figure data-curve="${escapeHtml(name)}" data-points="${n}"${curve.best ? ` data-best-threshold="${curve.best.threshold}"` : ''}><svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="precision-recall curve of ${escapeHtml(name)}: ${escapeHtml(caption)}">${grid}${axes}<polyline points="${points}" fill="none" stroke="#2563eb" stroke-width="1.5"/>${best}</svg><figcaption><strong>${escapeHtml(name)}</strong><br>${escapeHtml(caption)}</figcaption></figure>`;
}

/**
 * The precision-recall curves of a report over the model's confidences, micro first.
 *
 * @param curves - the curves
 * @returns HTML (a heading with `id="curves-heading"`, then the figures in `#curves`), or an empty
 * string when no prediction carries a confidence
 */
export function curvesHtml(curves: ConfidenceCurves): string {
  if (!curves.micro) return '';
  const figures = [curveSvg('micro', curves.micro), ...curves.labels.filter((l) => l.curve).map((l) => curveSvg(l.name ?? l.id, l.curve!))];
  const unscored = curves.unscored > 0 ? ` ${curves.unscored} prediction${curves.unscored === 1 ? '' : 's'} without a confidence count at every threshold.` : '';
  return `<h3 id="curves-heading">Precision and recall over the model's confidence</h3>
<p class="small muted">Each point: the predictions whose confidence is at least a threshold (as scikit-learn's <code>precision_recall_curve</code>; recall over every gold span); the red dot: the threshold with the best F1 (<code>labelkit eval --json</code>: <code>confidence</code>).${unscored}</p>
<div class="curves" id="curves">${figures.join('')}</div>`;
}
