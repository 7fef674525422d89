import { describe, expect, it } from 'vitest';
import { highlightLine } from '../../src/emulator/pages/highlightLine.js';
import { escapeHtml, safeColor } from '../../src/emulator/pages/html.js';

const looks: Record<string, string> = { person: '#ef4444', org: '#3b82f6' };
const lookOf = (label: string) => ({ name: label.toUpperCase(), color: looks[label.toLowerCase()] ?? '#94a3b8' });

describe('highlightLine', () => {
  it('marks nested spans stretch by stretch in the innermost colour and tags each span at its end', () => {
    const html = highlightLine('Bob of Acme Inc', [
      { label: 'org', start_char: 7, end_char: 15 },
      { label: 'person', start_char: 0, end_char: 3 },
      { label: 'person', start_char: 7, end_char: 11, confidence_score: 0.5 },
    ], lookOf);
    expect(html).toBe(
      '<mark class="span" style="--c:#ef4444" data-label="PERSON" title="PERSON">Bob</mark><span class="tag" style="--c:#ef4444">PERSON</span> of ' +
        '<mark class="span" style="--c:#ef4444" data-label="ORG PERSON" title="ORG, PERSON 50%">Acme</mark><span class="tag" style="--c:#ef4444">PERSON</span>' +
        '<mark class="span" style="--c:#3b82f6" data-label="ORG" title="ORG"> Inc</mark><span class="tag" style="--c:#3b82f6">ORG</span>',
    );
  });

  it('clamps offsets outside the line and skips empty spans', () => {
    expect(highlightLine('a<b', [{ label: 'x', start_char: 2, end_char: 99 }, { label: 'x', start_char: 1, end_char: 1 }], lookOf)).toBe(
      'a&#60;<mark class="span" style="--c:#94a3b8" data-label="X" title="X">b</mark><span class="tag" style="--c:#94a3b8">X</span>',
    );
  });
});

describe('escapeHtml and safeColor', () => {
  it('escapes every character that could open markup or close an attribute', () => {
    expect(escapeHtml(`<a href='x' title="y">&</a>`)).toBe('&#60;a href=&#39;x&#39; title=&#34;y&#34;&#62;&#38;&#60;/a&#62;');
  });

  it('keeps hex colours and colour names and replaces anything else with a palette colour', () => {
    expect(safeColor('#EF4444', 0)).toBe('#EF4444');
    expect(safeColor('teal', 0)).toBe('teal');
    expect(safeColor('red;background:url(//x)', 1)).toBe('#ec4899');
    expect(safeColor(null, 0)).toBe('#8b5cf6');
  });
});
