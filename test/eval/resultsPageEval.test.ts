// The results page and labelkit eval say the same things about the fixture of evalFixture.ts (over
// real HTTP): the gold labels left out and why, the precision-recall curves over the model's
// confidences with their best thresholds, and one wording of the confusion table's corner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { PAGE_COOKIE } from '../../src/emulator/pages/pageAccess.js';
import { CONFUSION_CORNER } from '../../src/eval/index.js';
import type { EvalReport } from '../../src/eval/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { MODEL, PROJECT, startEvalFixture } from '../support/evalFixture.js';

let fixture: Awaited<ReturnType<typeof startEvalFixture>>;
let html: string;
let cli: (...args: string[]) => Promise<{ code: number; out: string }>;

beforeAll(async () => {
  fixture = await startEvalFixture();
  const env = { LABELKIT_URL: fixture.emu.url, LABELKIT_TOKEN: fixture.emu.token };
  cli = async (...args) => {
    const io = fakeIo(env);
    const code = await main(argv(...args), io);
    return { code, out: io.out() };
  };
  // A visit as a browser makes it: the home page sets the page cookie.
  const home = await fetch(`${fixture.emu.baseUrl}/`, { redirect: 'manual', headers: { accept: 'text/html' } });
  const cookie = home.headers.getSetCookie().find((c) => c.startsWith(`${PAGE_COOKIE}=`))!.split(';')[0]!;
  const page = await fetch(`${fixture.emu.baseUrl}/emulator/projects/${PROJECT}/results?job=${fixture.jobId}`, { headers: { accept: 'text/html', cookie } });
  expect(page.status).toBe(200);
  html = await page.text();
}, 30_000);

afterAll(async () => {
  await fixture?.close();
});

describe('the results page beside labelkit eval', () => {
  it('names the gold labels left out and why, beside the figures, with the counts the CLI prints', async () => {
    const leftOut = /<p class="leftout" id="gold-left-out"[^>]*>(.*?)<\/p>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
    expect(leftOut).toBe('Gold labels left out: 1 CONFLICT (a disagreement nobody settled), 0 rejected (by the reviewer), 1 deleted (no longer a label) — not scored: the model is not counted wrong for them.');
    // Beside the figures: right after the micro line, before the per-label table.
    expect(html.indexOf('id="gold-left-out"')).toBeGreaterThan(html.indexOf('data-micro="f1"'));
    expect(html.indexOf('id="gold-left-out"')).toBeLessThan(html.indexOf('<table class="scores">'));
    const text = await cli('eval', '--project', PROJECT, '--labeler', MODEL);
    expect(text.out).toContain('left out: 1 CONFLICT, 0 rejected, 1 deleted');
  });

  it('gives the curves over confidence in --json and draws them on the page, each best threshold marked', async () => {
    const { code, out } = await cli('eval', '--project', PROJECT, '--labeler', MODEL, '--json');
    expect(code).toBe(0);
    const { confidence } = JSON.parse(out) as EvalReport;
    // Strict: LOC 0.95 right, PERSON 0.9 right, ORG 0.8 wrong boundary, PERSON 0.4 wrong label, ORG 0.3 spurious; 5 gold.
    // As scikit-learn's precision_recall_curve([1, 1, 0, 0, 0], [0.95, 0.9, 0.8, 0.4, 0.3]), recall over the 5 gold spans.
    expect(confidence.micro).toEqual({
      thresholds: [0.3, 0.4, 0.8, 0.9, 0.95],
      precision: [2 / 5, 2 / 4, 2 / 3, 1, 1, 1],
      recall: [0.4, 0.4, 0.4, 0.4, 0.2, 0],
      best: { threshold: 0.9, precision: 1, recall: 0.4, f1: 4 / 7 },
    });
    expect(confidence.labels.map((l) => [l.name, l.curve?.thresholds, l.curve?.best?.threshold ?? null])).toEqual([
      ['PERSON', [0.4, 0.9], 0.9],
      ['ORG', [0.3, 0.8], null],
      ['LOC', [0.95], 0.95],
    ]);
    const figures = [...html.matchAll(/<figure data-curve="([^"]+)" data-points="(\d+)"(?: data-best-threshold="([^"]+)")?>/g)].map((m) => [m[1], Number(m[2]), m[3] ?? null]);
    expect(figures).toEqual([
      ['micro', 6, '0.9'],
      ['PERSON', 3, '0.9'],
      ['ORG', 3, null],
      ['LOC', 2, '0.95'],
    ]);
    expect(html).toContain('best F1 0.571 at confidence ≥ 0.9');
    expect(html).toContain('no threshold gives an F1 above 0');
    expect(html.match(/<circle data-best /g)).toHaveLength(3);
  });

  it('says "gold \\ predicted" at the corner of the confusion table, as the CLI does', async () => {
    expect(CONFUSION_CORNER).toBe('gold \\ predicted');
    expect(html).toContain(`<table class="confusion"><tr><th>${CONFUSION_CORNER}</th>`);
    expect(html).toContain('(rows: gold, columns: predicted; &#34;(none)&#34;: no span met)');
    const text = await cli('eval', '--project', PROJECT, '--labeler', MODEL);
    expect(text.out).toMatch(/^gold \\ predicted +PERSON +ORG +LOC +\(none\)$/m);
    expect(text.out).toContain('Confusion (rows: gold, columns: predicted; "(none)": no span met):');
    for (const said of [html, text.out]) expect(said).not.toContain('gold \\ model');
  });
});
