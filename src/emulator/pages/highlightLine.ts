import { escapeHtml } from './html.js';

/** A span to highlight: characters `[start_char, end_char)` of the line, with its label. */
interface HighlightSpan {
  label: string;
  start_char: number;
  end_char: number;
  confidence_score?: number;
}

/** How a label is drawn: its colour (already safe for a style attribute) and its display name. */
export interface LabelLook {
  name: string;
  color: string;
}

/**
 * Renders one line of a document as HTML with its labelled spans highlighted.
 *
 * @param text - the line (user data: escaped here)
 * @param spans - the line's spans; out-of-range offsets are clamped, empty spans skipped
 * @param lookOf - the colour and display name of a label (names compare case-insensitively)
 * @returns HTML: each covered stretch is a `<mark class="span" data-label="…">` in the colour of
 * the innermost span covering it, and a small tag with the label name follows each span's end
 * @remarks Overlapping and nested spans (several layers) are cut into stretches at every span
 * boundary; a stretch covered by several spans names all of them in `data-label` and `title`.
 * @example
 * ```ts
 * highlightLine('Ada met Bob', [{ label: 'PERSON', start_char: 0, end_char: 3 }], () => ({ name: 'PERSON', color: '#ef4444' }));
 * ```
 */
export function highlightLine(text: string, spans: readonly HighlightSpan[], lookOf: (label: string) => LabelLook): string {
  const clamp = (n: number) => Math.max(0, Math.min(text.length, Math.trunc(Number.isFinite(n) ? n : 0)));
  const live = spans.map((s) => ({ ...s, start: clamp(s.start_char), end: clamp(s.end_char) })).filter((s) => s.start < s.end);
  if (live.length === 0) return escapeHtml(text);
  const cuts = [...new Set([0, text.length, ...live.flatMap((s) => [s.start, s.end])])].sort((a, b) => a - b);
  let html = '';
  for (let i = 0; i < cuts.length - 1; i++) {
    const a = cuts[i]!;
    const b = cuts[i + 1]!;
    const piece = escapeHtml(text.slice(a, b));
    const covering = live.filter((s) => s.start <= a && s.end >= b);
    if (covering.length === 0) html += piece;
    else {
      const inner = covering.reduce((x, y) => (y.end - y.start < x.end - x.start ? y : x));
      const names = covering.map((s) => lookOf(s.label).name);
      const title = covering
        .map((s) => `${lookOf(s.label).name}${s.confidence_score === undefined ? '' : ` ${Math.round(s.confidence_score * 100)}%`}`)
        .join(', ');
      html += `<mark class="span" style="--c:${lookOf(inner.label).color}" data-label="${escapeHtml(names.join(' '))}" title="${escapeHtml(title)}">${piece}</mark>`;
    }
    for (const s of live.filter((x) => x.end === b)) {
      const look = lookOf(s.label);
      html += `<span class="tag" style="--c:${look.color}">${escapeHtml(look.name)}</span>`;
    }
  }
  return html;
}
