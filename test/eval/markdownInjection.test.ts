/* eslint-disable no-control-regex -- the test compares with values that hold control characters */
// Issue 40 item 4: the markdown report of `labelkit eval --format markdown` (a pull-request
// comment) cannot be rewritten by a value in it. Each report is rendered by a real CommonMark
// renderer with GFM tables, strikethrough and autolinks (markdown-it, raw HTML on, linkify on:
// the most a renderer does with a text) and must hold exactly the elements the report wrote: the
// same report with every value replaced by a plain word renders to the same elements, and each
// hostile value comes back as its text.
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { describe, expect, it } from 'vitest';
import { compareReports, markdownReport, readBaselineReport } from '../../src/eval/index.js';
import type { BaselineReport, MarkdownInput } from '../../src/eval/index.js';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const md = new MarkdownIt({ html: true, linkify: true }).enable(['table', 'strikethrough']);

/** What a reader of the comment would be shown or sent to, per value. */
const HOSTILE = [
  'CR\r# Injected heading https://evil.example/x',
  'LF\n## Heading\n| a | b |',
  'CRLF\r\n<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<details open><summary>x</summary>',
  '[phish](http://evil.example/login)',
  '![pixel](http://evil.example/p.png)',
  'http://evil.example/?a=1',
  'www.evil.example',
  'victim@evil.example',
  '<http://evil.example>',
  'A|B',
  '`code` **bold** _em_ ~~gone~~',
  '&lt;b&gt; &#60;i&#62;',
  'back\\slash\\',
  'NUL\u0000ESC\u001b[2J',
];

const figures = { precision: 1, recall: 0.5, f1: 2 / 3, zeroDivision: [], gold: 2, predicted: 1 };

/** A report with every value from elsewhere taken from `values` (cycled). */
function input(values: readonly string[]): MarkdownInput {
  let i = 0;
  const next = () => values[i++ % values.length]!;
  const labels = HOSTILE.map((_, k) => ({ id: `id${k}`, layer: 0, name: next(), ...figures }));
  const baseline: BaselineReport = { version: 1, projectId: next(), labelerEmail: next(), match: 'overlap', layer: 2, documents: 7, micro: { f1: 0.5 }, labels: labels.map((l) => ({ id: l.id, layer: 0, name: l.name, f1: 0.9 })) };
  const current = { projectId: next(), labelerEmail: next(), match: 'strict' as const, layer: null, documents: 3, micro: { f1: 0.6 }, labels: labels.map((l) => ({ ...l, f1: 0.6 })) };
  const comparison = compareReports(current, baseline, { maxDrop: 0.02, path: `/runner/${next()}` });
  return { ...current, micro: { ...figures, f1: 0.6 }, labels, comparison };
}

/** The elements a rendering holds, in order: every token but text (its content is the values). */
function elements(markdown: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type !== 'text' && t.type !== 'text_special' && t.type !== 'softbreak') out.push(`${t.type}${t.type === 'heading_open' ? t.tag : ''}`);
      if (t.children) walk(t.children);
    }
  };
  walk(md.parse(markdown, {}));
  return out;
}

/** The plain text a rendering shows. */
const shownText = (markdown: string) => md.render(markdown).replace(/<[^>]*>/g, '');

describe('markdownReport renders to the elements it wrote, whatever the values', () => {
  const hostile = markdownReport(input(HOSTILE)).join('\n');
  /** As many plain words as there are hostile values, each different (the notes compare them). */
  const PLAIN = HOSTILE.map((_, k) => `plain${k}`);
  const plain = markdownReport(input(PLAIN)).join('\n');
  const withoutBaseline = (values: readonly string[]) => {
    const { comparison: _comparison, ...rest } = input(values);
    return markdownReport(rest).join('\n');
  };

  it('with a baseline: the same elements as with plain values (one heading, one table, no link, image, code or HTML)', () => {
    expect(elements(hostile)).toEqual(elements(plain));
    expect(elements(hostile).filter((e) => /^(link|image|html|heading_openh[1-35-6]|code|em_|s_)/.test(e))).toEqual([]);
  });

  it('without a baseline: the same elements as with plain values', () => {
    expect(elements(withoutBaseline(HOSTILE))).toEqual(elements(withoutBaseline(PLAIN)));
  });

  it('shows each value as its text (line breaks and control characters as spaces)', () => {
    const text = shownText(hostile).replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    for (const value of HOSTILE) expect(text).toContain(value.replace(/\r\n?|[\u0000-\u001f]/g, ' '));
  });
});

describe('a baseline is checked before anything is printed', () => {
  it('refuses a match that is not a mode and documents that are not a number', () => {
    const report = { version: 1, projectId: 'p', labelerEmail: null, match: 'strict <img src=x onerror=alert(1)> [phish](http://evil.example)', layer: null, documents: '<details open>', micro: { f1: 0.5 }, labels: [] };
    expect(readBaselineReport(report).problems).toEqual(['its "match" is not one of strict, overlap, token', 'its "documents" is not a whole number of documents']);
    expect(readBaselineReport({ ...report, match: 'token', documents: 3, labelerEmail: 5, layer: -1, labels: [{ id: 'a', layer: 0, f1: 1, name: ['x'] }] }).problems).toEqual([
      'its "labelerEmail" is not a text or null',
      'its "layer" is not a layer index or null',
      'its "labels[0]" lacks an id, a layer or an f1 from 0 to 1, or has a name that is not a text',
    ]);
  });

  it('labelkit eval --baseline exits 2 naming --baseline, before any request, with nothing on stdout', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'labelkit-baseline-'));
    try {
      const file = join(tmp, 'baseline.json');
      await writeFile(file, JSON.stringify({ version: 1, projectId: 'p', labelerEmail: null, match: 'strict <img src=x>', layer: null, documents: '<details open>', micro: { f1: 0.5 }, labels: [] }));
      // Nothing listens on port 9 of 127.0.0.1: a request would fail with another code.
      const io = fakeIo({ LABELKIT_URL: 'http://127.0.0.1:9/graphql', LABELKIT_TOKEN: 'token-1234' });
      const code = await main(argv('eval', '--project', 'p', '--baseline', file, '--format', 'markdown'), io);
      expect({ code, out: io.out() }).toEqual({ code: 2, out: '' });
      expect(io.err()).toContain('--baseline');
      expect(io.err()).toContain('its "match" is not one of strict, overlap, token');
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
