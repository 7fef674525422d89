// The results page's evaluation in real Chromium: the fixture of test/support/evalFixture.ts (known
// gold, a model with a wrong boundary, a wrong label, a missed and a spurious span) scored on the
// page as labelkit eval scores it, with the counts computed by hand in test/eval/evalCommand.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT, startEvalFixture } from '../support/evalFixture.js';
import { findChromium } from './chromium.js';

const OUTPUT = join(import.meta.dirname, 'output');
// Undefined (skip, with a line saying why) only off CI: under CI (CI=true, CI=1) a missing Chromium fails the file.
const chromiumPath = findChromium();

describe.skipIf(!chromiumPath)('the results page scores the job against gold (real Chromium)', () => {
  let browser: Browser;
  let fixture: Awaited<ReturnType<typeof startEvalFixture>>;
  let page: Page;
  const url = (query: string) => `${fixture.emu.baseUrl}/emulator/projects/${PROJECT}/results?job=${fixture.jobId}${query}`;
  /** A label's row: [gold, predicted, TP, FP, FN], and its bars' values and widths. */
  const row = async (label: string) => {
    const tr = page.locator(`table.scores tr[data-label="${label}"]`);
    const counts = (await tr.locator('td.num').allTextContents()).map(Number);
    const bars = await tr.locator('svg rect').evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-figure'), Number(r.getAttribute('data-value')), r.getBoundingClientRect().width]));
    return { counts, bars };
  };

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    fixture = await startEvalFixture();
    browser = await chromium.launch({ executablePath: chromiumPath!, args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  it('shows per-label counts with precision, recall and F1 as SVG bars, and the confusion table, in strict mode', async () => {
    await page.goto(url('')); // no cookie yet: via the home page and back
    expect(await page.locator('#evaluation').getAttribute('data-match')).toBe('strict');
    expect(await page.locator('[data-micro]').allTextContents()).toEqual(['0.400', '0.400', '0.400']);
    // PERSON 2 gold / 2 predicted / TP 1; ORG 1 / 2 / 0; LOC 2 / 1 / 1 (evalCommand.test.ts).
    const person = await row('PERSON');
    expect(person.counts).toEqual([2, 2, 1, 1, 1]);
    expect(person.bars.map(([k, v]) => [k, v])).toEqual([['precision', 0.5], ['recall', 0.5], ['f1', 0.5]]);
    expect((await row('ORG')).counts).toEqual([1, 2, 0, 2, 1]);
    const loc = await row('LOC');
    expect(loc.counts).toEqual([2, 1, 1, 0, 1]);
    expect(loc.bars.map(([k, v]) => [k, v])).toEqual([['precision', 1], ['recall', 0.5], ['f1', 0.667]]);
    // The bars are drawn to scale: 120 units for 1, the SVG at its natural size.
    expect(loc.bars.map(([, , w]) => Math.round(w as number))).toEqual([120, 60, 80]);
    const confusion = await page.locator('table.confusion tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(confusion).toEqual([
      ['gold \\ predicted', 'PERSON', 'ORG', 'LOC', '(none)'],
      ['PERSON', '1', '0', '0', '1'],
      ['ORG', '0', '0', '0', '1'],
      ['LOC', '1', '0', '1', '0'],
      ['(none)', '0', '2', '0', ''],
    ]);
    // The gold left out, named beside the figures; the curves over confidence, each best threshold a dot.
    expect(await page.locator('#gold-left-out [data-left-out]').allTextContents()).toEqual(['1 CONFLICT', '0 rejected', '1 deleted']);
    expect(await page.locator('#curves figure').evaluateAll((fs) => fs.map((f) => [f.getAttribute('data-curve'), f.getAttribute('data-best-threshold')]))).toEqual([
      ['micro', '0.9'],
      ['PERSON', '0.9'],
      ['ORG', null],
      ['LOC', '0.95'],
    ]);
    const dot = await page.locator('#curves figure[data-curve="micro"] circle[data-best]').boundingBox();
    expect(dot!.width).toBeGreaterThan(4);
  });

  it('follows the overlap link: the short boundary is found there', async () => {
    await page.locator('[data-match-link="overlap"]').click();
    expect(page.url()).toBe(url('&match=overlap&view=labels'));
    expect(await page.locator('[data-micro]').allTextContents()).toEqual(['0.600', '0.600', '0.600']);
    expect((await row('ORG')).counts).toEqual([1, 2, 1, 1, 0]);
  });

  it('fits a summary in the first screen of 1280 × 800 with links down, labels the curves\' axes 0 to 1, and shows missed gold in the default view', async () => {
    const first = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    try {
      await first.goto(url('')); // the default view: by label
      // The summary, whole, within the first screen: the job, the micro figures, the counts.
      const summary = (await first.locator('#summary').boundingBox())!;
      expect(summary.y).toBeGreaterThanOrEqual(0);
      expect(summary.y + summary.height).toBeLessThanOrEqual(800);
      expect(await first.locator('#summary [data-micro]').allTextContents()).toEqual(['0.400', '0.400', '0.400']);
      expect(await first.locator('#summary [data-missed-count]').textContent()).toBe('3');
      expect(await first.locator('#summary .status').textContent()).toContain('DELIVERED');
      // Links down to each part, every one to an element of the page; the documents link takes the reader there.
      const jumps = await first.locator('#summary nav.jump a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
      expect(jumps.map(([, href]) => href)).toEqual(['#missed', '#scores', '#confusion', '#curves-heading', '#job', '#labels', '#documents']);
      for (const [, href] of jumps) expect(await first.locator(href!).count(), href!).toBe(1);
      expect(jumps.at(-1)![0]).toBe('documents (1)');
      await first.locator('#summary nav.jump a[href="#documents"]').click();
      const documents = (await first.locator('#documents').boundingBox())!;
      expect(documents.y).toBeGreaterThanOrEqual(0);
      expect(documents.y).toBeLessThan(800);
      // Missed gold in the default view: listed, each linking to its line, and on a row under the line.
      expect(await first.locator('#missed li[data-missed-gold]').evaluateAll((lis) => lis.map((li) => [li.querySelector('a')!.getAttribute('href'), li.querySelector('mark')!.textContent]))).toEqual([
        ['#d0-l0', 'Acme Corp'],
        ['#d0-l0', 'London'],
        ['#d0-l1', 'Grace Hopper'],
      ]);
      const missedRow = first.locator('li[data-line="1"] [data-missed] mark[data-outcome="fn"]');
      expect(await missedRow.textContent()).toBe('Grace Hopper');
      await missedRow.scrollIntoViewIfNeeded();
      expect(await missedRow.isVisible()).toBe(true);
      expect(await first.locator('li[data-line="0"] > .t > mark.span').count()).toBeGreaterThan(0); // still marked by label
      // Every precision-recall curve: both axes named, with their 0 and 1 ticks, inside the drawing.
      const axes = await first.locator('#curves figure svg').evaluateAll((svgs) =>
        svgs.map((svg) => {
          const box = svg.getBoundingClientRect();
          const inside = (el: Element | null) => {
            const b = el?.getBoundingClientRect();
            return b !== undefined && b.width > 0 && b.left >= box.left - 0.5 && b.right <= box.right + 0.5 && b.top >= box.top - 0.5 && b.bottom <= box.bottom + 0.5;
          };
          const ticks = (axis: string) => [...svg.querySelectorAll(`text[data-tick="${axis}"]`)].map((t) => t.textContent);
          return {
            recall: svg.querySelector('text[data-axis="recall"]')?.textContent,
            precision: svg.querySelector('text[data-axis="precision"]')?.textContent,
            labelsInside: inside(svg.querySelector('text[data-axis="recall"]')) && inside(svg.querySelector('text[data-axis="precision"]')),
            recallTicks: ticks('recall'),
            precisionTicks: ticks('precision'),
            ticksInside: [...svg.querySelectorAll('text[data-tick]')].every(inside),
          };
        }),
      );
      expect(axes).toHaveLength(4);
      for (const a of axes) expect(a).toEqual({ recall: 'recall', precision: 'precision', labelsInside: true, recallTicks: ['0', '.25', '.5', '.75', '1'], precisionTicks: ['0', '.25', '.5', '.75', '1'], ticksInside: true });
      // The 1 of precision is above its 0, the 1 of recall right of its 0.
      const tick = (axis: string, text: string) => first.locator(`#curves figure[data-curve="micro"] text[data-tick="${axis}"]`).filter({ hasText: new RegExp(`^${text.replace('.', '\\.')}$`) }).boundingBox();
      expect((await tick('precision', '1'))!.y).toBeLessThan((await tick('precision', '0'))!.y);
      expect((await tick('recall', '1'))!.x).toBeGreaterThan((await tick('recall', '0'))!.x);
      await first.locator('#curves').screenshot({ path: join(OUTPUT, 'results-curves.png') });
      await first.evaluate(() => window.scrollTo(0, 0));
      await first.screenshot({ path: join(OUTPUT, 'results-first-screen.png') });
    } finally {
      await first.context().close();
    }
  });

  it('marks the text by outcome: found, false positive and, on a row of its own, the gold missed', async () => {
    await page.goto(url('&view=outcomes'));
    const marks = async (selector: string) =>
      page.locator(selector).evaluateAll((els) => els.map((el) => [el.getAttribute('data-outcome'), el.textContent, el.getAttribute('data-label')]));
    expect(await marks('li[data-line="0"] > .t > mark')).toEqual([
      ['tp', 'Ada Lovelace', 'PERSON'],
      ['fp', 'Acme', 'ORG'],
      ['fp', 'London', 'PERSON'],
    ]);
    expect(await marks('li[data-line="0"] [data-missed] mark')).toEqual([
      ['fn', 'Acme Corp', 'ORG'],
      ['fn', 'London', 'LOC'],
    ]);
    expect(await marks('li[data-line="1"] > .t > mark')).toEqual([['tp', 'Paris', 'LOC']]);
    expect(await marks('li[data-line="1"] [data-missed] mark')).toEqual([['fn', 'Grace Hopper', 'PERSON']]);
    expect(await marks('li[data-line="2"] > .t > mark')).toEqual([['fp', 'weather', 'ORG']]);
    expect(await page.locator('li[data-line="2"] [data-missed]').count()).toBe(0);
    // Told apart by colour, not only by attribute.
    const colour = (outcome: string) => page.locator(`li mark[data-outcome="${outcome}"]`).first().evaluate((el) => getComputedStyle(el).backgroundColor);
    const colours = [await colour('tp'), await colour('fp'), await colour('fn')];
    expect(new Set(colours).size).toBe(3);
    expect(await page.locator('li[data-line="0"] mark[data-outcome="fp"]').first().getAttribute('title')).toBe('ORG: false positive');
    expect(await page.locator('li[data-line="0"] mark[data-outcome="fp"]').nth(1).getAttribute('title')).toBe('PERSON: false positive (gold: LOC)');
    await page.screenshot({ path: join(OUTPUT, 'results-eval.png'), fullPage: true });
  });
});
