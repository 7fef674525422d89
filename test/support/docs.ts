// The documentation's pages as the tests read them: README.md, CONTRIBUTING.md, BENCHMARKS.md and
// every docs/*.md, their fenced code blocks, their sections by heading, their links and the anchors
// GitHub makes of their headings. The tests that run or compile the documentation's blocks
// (test/build/readmeShellBlocks.test.ts, test/types/readmeTsBlocks.test.ts, packInstall, …) find
// them here, wherever a block lives, so a section that moves to another page is still tested.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..');

/** Every page of the documentation, as paths from the repository's root: README.md first. */
export const DOC_PAGES: readonly string[] = [
  'README.md',
  'CONTRIBUTING.md',
  'BENCHMARKS.md',
  ...readdirSync(join(repo, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/**
 * The pages for developers of labelkit itself whose code blocks are signatures and diagrams, not
 * samples to run: their links are checked, their blocks are not run or compiled.
 */
export const REFERENCE_PAGES: readonly string[] = ['docs/ARCHITECTURE.md', 'docs/CONTRACTS.md'];

/** A page's text, read when asked (never copied into a test). */
export function readDoc(page: string): string {
  return readFileSync(join(repo, page), 'utf8');
}

export interface CodeBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string: `sh`, `ts`, `js`, `json`, … (empty when none). */
  lang: string;
  /** The block's lines, the indentation of an indented (list item) fence removed. */
  text: string;
}

/** The fenced code blocks of a page's text, in order. */
export function codeBlocks(markdown: string, page = 'README.md'): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j]!.trim() !== '```'; j++) body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    if (j === lines.length) throw new Error(`${page}:${i + 1}: a code block without its closing fence`);
    blocks.push({ page, line: i + 1, lang: open[2]!, text: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** Every page's blocks of one language, page after page (README.md first), but the {@link REFERENCE_PAGES}. */
export function docBlocks(lang: string): CodeBlock[] {
  return DOC_PAGES.filter((page) => !REFERENCE_PAGES.includes(page)).flatMap((page) => codeBlocks(readDoc(page), page).filter((b) => b.lang === lang));
}

/** The lines of a page that are not inside a fenced block, with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  let fenced = false;
  const out: { line: number; text: string }[] = [];
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) out.push({ line: i + 1, text });
  });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (but `-` and `_`), each space a `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export interface Heading {
  line: number;
  level: number;
  text: string;
  anchor: string;
}

/** A page's headings (outside code blocks), each with its anchor; a repeated one gets `-1`, `-2`, … as on GitHub. */
export function headings(markdown: string): Heading[] {
  const seen = new Map<string, number>();
  return proseLines(markdown).flatMap(({ line, text }) => {
    const match = /^(#{1,6}) (.+?)\s*#*\s*$/.exec(text);
    if (!match) return [];
    const base = slug(match[2]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return [{ line, level: match[1]!.length, text: match[2]!, anchor: count === 0 ? base : `${base}-${count}` }];
  });
}

export interface Section {
  page: string;
  /** 1-based line of the heading in its page. */
  line: number;
  /** From the heading to the next heading of the same or a higher level (or the page's end). */
  text: string;
}

/**
 * The section under a heading, found in whichever page holds it (the heading's text without its
 * `#`s, e.g. `Your own operations`). Throws, naming the pages, when no page or several do.
 */
export function docSection(heading: string): Section {
  const found = DOC_PAGES.flatMap((page) => {
    const markdown = readDoc(page);
    return headings(markdown)
      .filter((h) => h.text === heading)
      .map((h) => ({ page, markdown, heading: h }));
  });
  if (found.length !== 1) throw new Error(`the documentation has ${found.length} headings "${heading}" (${found.map((f) => `${f.page}:${f.heading.line}`).join(', ') || DOC_PAGES.join(', ')}); one was expected`);
  const { page, markdown, heading: h } = found[0]!;
  const next = headings(markdown).find((other) => other.line > h.line && other.level <= h.level);
  const lines = markdown.split('\n');
  return { page, line: h.line, text: lines.slice(h.line - 1, next ? next.line - 1 : lines.length).join('\n') };
}

export interface Link {
  page: string;
  line: number;
  target: string;
}

/** The Markdown links and images of a page (outside code blocks and inline code) that point into the repository. */
export function localLinks(markdown: string, page: string): Link[] {
  return proseLines(markdown).flatMap(({ line, text }) =>
    [...text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ page, line, target })),
  );
}
