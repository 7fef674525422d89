// The documentation's pages hold together: every relative link between them (and to the files
// they name) resolves, every #anchor names a heading of its page, each docs page starts with what
// it is for, and the README stays a front door (at most 300 lines) whose contents reach the page
// of each capability.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, headings, localLinks, readDoc, REFERENCE_PAGES } from '../support/docs.js';
import type { Link } from '../support/docs.js';

const repo = join(import.meta.dirname, '..', '..');

/** What is wrong with one link, or undefined when it resolves. */
function broken(link: Link): string | undefined {
  const [path, anchor] = link.target.split('#') as [string, string | undefined];
  const file = path === '' ? link.page : normalize(join(dirname(link.page), decodeURIComponent(path)));
  if (file.startsWith('..')) return 'points outside the repository';
  if (!existsSync(join(repo, file))) return `${file} does not exist`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md') || statSync(join(repo, file)).isDirectory()) return `#${anchor} on ${file}, which is not a page`;
  return headings(readDoc(file)).some((h) => h.anchor === anchor) ? undefined : `${file} has no heading whose anchor is #${anchor}`;
}

describe('the documentation pages', () => {
  it('link only to files that exist and to headings that exist', () => {
    const links = DOC_PAGES.flatMap((page) => localLinks(readDoc(page), page));
    expect(links.length).toBeGreaterThan(50);
    const problems = links.flatMap((link) => {
      const problem = broken(link);
      return problem ? [`${link.page}:${link.line}: (${link.target}) ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('each docs page starts with its title, then what it is for', () => {
    for (const page of DOC_PAGES.filter((p) => p.startsWith('docs/'))) {
      const lines = readDoc(page).split('\n');
      expect(lines[0], page).toMatch(/^# \S/);
      expect(lines[1], page).toBe('');
      expect(lines[2], `${page}: a paragraph under the title`).toMatch(/^[^#`|>\s-]/);
    }
  });

  it('the README is at most 300 lines, and its contents link to every page of docs/ about using labelkit', () => {
    const readme = readDoc('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const linked = new Set(localLinks(readme, 'README.md').map((l) => l.target.split('#')[0]));
    expect(DOC_PAGES.filter((p) => p.startsWith('docs/') && !REFERENCE_PAGES.includes(p) && !linked.has(p))).toEqual([]);
  });

  it("the README's contents reach, in one click, each of the first things a newcomer looks for", () => {
    const readme = readDoc('README.md');
    const contents = readme.slice(readme.indexOf('## Contents'), readme.indexOf('\n## ', readme.indexOf('## Contents') + 1));
    const targets = localLinks(contents, 'README.md').map((l) => l.target);
    for (const wanted of [
      'docs/typed-documents.md#your-own-operations', // run one own operation
      '#start-a-job-and-wait',
      '#keep-label-sets-in-a-file',
      '#score-a-model',
      'docs/many-projects.md#many-workers',
      '#install',
    ]) {
      expect(targets).toContain(wanted);
    }
  });

  it('the checker finds a broken anchor and a missing file', () => {
    expect(broken({ page: 'README.md', line: 1, target: 'docs/client.md#no-such-heading' })).toMatch(/no heading/);
    expect(broken({ page: 'docs/client.md', line: 1, target: 'missing.md' })).toMatch(/does not exist/);
    expect(broken({ page: 'docs/client.md', line: 1, target: '../README.md' })).toBeUndefined();
  });
});
