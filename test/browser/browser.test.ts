import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Labelkit from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';
import { findChromium } from './chromium.js';
import { serveStaticSite } from './staticSite.js';
import type { StaticSite } from './staticSite.js';

const root = join(import.meta.dirname, '..', '..');
/** Screenshots go here (gitignored); the copies in docs/ are picked from them by hand. */
const OUTPUT = join(import.meta.dirname, 'output');
const SECRET = 'browser-model-SENTINEL-31ab';
const VIEWPORT = { width: 1280, height: 800 }; // a laptop screen
const XSS_LINE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> & more';

// Undefined (skip, with a line saying why) only off CI: under CI (CI=true, CI=1) a missing Chromium fails the file.
const chromiumPath = findChromium();

/** What the page reports back from the client flow. */
interface FlowResult {
  origin: string;
  labelSetNames: string[];
  labelNames: string[];
  jobId: string;
  outcome: string;
  progress: [string, number][];
}

describe.skipIf(!chromiumPath)('in real Chromium (playwright-core, the system browser)', () => {
  let browser: Browser;
  let emu: RunningEmulator;
  let strictEmu: RunningEmulator;
  let model: { url: string; close(): Promise<void> };
  let site: StaticSite;
  let jobId = '';

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    const bundle = await build({
      entryPoints: [join(root, 'src', 'client', 'index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    site = await serveStaticSite({
      '/': ['text/html', `<!doctype html><title>app</title><script type="module">import * as labelkit from '/client.js'; window.labelkit = labelkit; window.labelkitReady = true;</script>`],
      '/client.js': ['text/javascript', bundle.outputFiles[0]!.text],
    });
    emu = await startEmulator();
    strictEmu = await startEmulator({ corsOrigins: ['https://only.example'] });
    model = await startModelServer({ secretKey: SECRET, predict: createSampleModel() });
    // --no-sandbox: CI runs as root. Every name resolves to nothing except loopback addresses,
    // so a page that needed the internet would fail here.
    browser = await chromium.launch({ executablePath: chromiumPath!, args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
  });
  afterAll(async () => {
    await browser?.close();
    await model?.close();
    await strictEmu?.close();
    await emu?.close();
    await site?.close();
  });

  const newPage = async (context?: BrowserContext) => (context ?? (await browser.newContext({ viewport: VIEWPORT }))).newPage();

  it('runs getProjectLabelSets, startAutoLabel and waitForJob with onProgress when the bundled client runs on a page of another origin', async () => {
    const page = await newPage();
    await page.goto(`${site.origin}/`);
    await page.waitForFunction(() => (window as unknown as { labelkitReady?: boolean }).labelkitReady === true);
    const result = await page.evaluate(
      async ({ url, token, modelUrl, secretKey }) => {
        const { createLabelingClient, getProjectLabelSets, startAutoLabel, waitForJob } = (window as unknown as { labelkit: typeof Labelkit }).labelkit;
        const client = createLabelingClient({ url, token, poll: { intervalMs: 50, maxIntervalMs: 200 } });
        try {
          const sets = await getProjectLabelSets(client, 'demo-project', 'LABELER');
          const job = await startAutoLabel(
            client,
            { projectId: 'demo-project', labelerEmail: 'browser@example.com', options: { numberOfFilesPerRequest: 1 }, targetAPI: { endpoint: modelUrl, secretKey } },
            { allowInsecureEndpoint: true },
          );
          const progress: [string, number][] = [];
          const outcome = await waitForJob(client, job.id, { timeoutMs: 30_000, onProgress: (j) => progress.push([j.status, j.progress]) });
          return {
            origin: location.origin,
            labelSetNames: sets.map((s) => s.name),
            labelNames: sets[0]!.labelItems.map((i) => i.labelName),
            jobId: job.id,
            outcome: outcome.outcome,
            progress,
          } satisfies FlowResult;
        } finally {
          client.close();
        }
      },
      { url: emu.url, token: emu.token, modelUrl: model.url, secretKey: SECRET },
    );
    expect(result.origin).toBe(site.origin);
    expect(result.origin).not.toBe(emu.baseUrl);
    expect(result.labelSetNames).toEqual(['Entities']);
    expect(result.labelNames).toEqual(['ENTITY', 'PERSON', 'ORGANIZATION', 'LOCATION', 'DATE']);
    expect(result.outcome).toBe('delivered');
    expect(result.progress.length).toBeGreaterThan(0);
    const values = result.progress.map(([, p]) => p);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(result.progress.at(-1)).toEqual(['DELIVERED', 100]);
    expect(emu.emulator.store.labelsOf(DEMO_PROJECT_ID)[0]?.labelerEmail).toBe('browser@example.com');
    // CORS exposes the request id: the page can read it from a cross-origin answer.
    const seenId = await page.evaluate(async (url) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'page-req-7' }, body: '{"query":"{ __typename }"}' });
      return res.headers.get('x-request-id');
    }, emu.url);
    expect(seenId).toBe('page-req-7');
    jobId = result.jobId;
    await page.context().close();
  });

  it('says the network error can be a CORS refusal when the emulator does not allow the page origin', async () => {
    const page = await newPage();
    await page.goto(`${site.origin}/`);
    await page.waitForFunction(() => (window as unknown as { labelkitReady?: boolean }).labelkitReady === true);
    const failure = await page.evaluate(
      async ({ url, token }) => {
        const { createLabelingClient, getCabinet } = (window as unknown as { labelkit: typeof Labelkit }).labelkit;
        const client = createLabelingClient({ url, token, retry: { maxAttempts: 1 } });
        try {
          await getCabinet(client, 'demo-project', 'LABELER');
          return { name: 'none', message: 'no error' };
        } catch (error) {
          return { name: (error as Error).name, message: (error as Error).message };
        } finally {
          client.close();
        }
      },
      { url: strictEmu.url, token: strictEmu.token },
    );
    expect(failure.name).toBe('NetworkError');
    expect(failure.message).toContain(`could not reach ${strictEmu.url} (in a browser this can also be a CORS refusal)`);
    expect(failure.message).not.toContain(strictEmu.token);
    await page.context().close();
  });

  it('shows the job spans in label colours with per-document counts when the demo results page is opened', async () => {
    expect(jobId).not.toBe('');
    const page = await newPage();
    const resultsUrl = `${emu.baseUrl}/emulator/projects/${DEMO_PROJECT_ID}/results?job=${jobId}`;
    await page.goto(resultsUrl); // no cookie yet: via the home page and back
    expect(page.url()).toBe(resultsUrl);
    await expect(page.locator('[data-status]').first().textContent()).resolves.toBe('DELIVERED');
    const ada = page.locator('section[data-document="doc-1"] mark.span[data-label="PERSON"]').first();
    expect(await ada.textContent()).toBe('Ada Lovelace');
    expect(await ada.evaluate((el) => getComputedStyle(el).borderBottomColor)).toBe('rgb(239, 68, 68)');
    const [copy] = emu.emulator.store.labelsOf(DEMO_PROJECT_ID);
    for (const doc of copy!.documents) {
      const stored = doc.lines.reduce((n, l) => n + l.entities.length, 0);
      const section = page.locator(`section[data-document="${doc.id}"]`);
      expect(Number(await section.locator('[data-count]').textContent())).toBe(stored);
      expect(await section.locator('mark.span').count()).toBeGreaterThanOrEqual(stored > 0 ? 1 : 0);
      expect(await section.locator('.tag').count()).toBe(stored);
    }
    expect(await page.locator('[data-legend-label="PERSON"] .swatch').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(239, 68, 68)');
    expect(await page.content()).not.toContain(SECRET);
    await page.screenshot({ path: join(OUTPUT, 'results.png') });
    await page.goto(`${emu.baseUrl}/`);
    expect(await page.locator(`tr[data-job="${jobId}"] [data-status]`).textContent()).toBe('DELIVERED');
    await page.screenshot({ path: join(OUTPUT, 'home.png') });
    await page.context().close();
  });

  it('shows document text as text, never as markup, when a document holds <script> and <img onerror>', async () => {
    const store = emu.emulator.store;
    store.addProject({ id: 'xss', labelSets: [{ name: 'S', labels: [{ id: 'a', name: 'CODE', color: '#0ea5e9' }] }], documents: [{ id: 'd1', lines: [XSS_LINE] }] });
    const job = store.createJob({ projectId: 'xss', labelerEmail: 'x@example.com', role: 'LABELER' });
    store.setLineLabels('xss', { labelerEmail: 'x@example.com', role: 'LABELER' }, 'd1', 0, [{ label: 'CODE', start_char: 0, end_char: XSS_LINE.indexOf(' &'), layer: 0 }]);
    store.updateJob(job, { status: 'DELIVERED', progress: 100 });
    const page = await newPage();
    await page.goto(`${emu.baseUrl}/emulator/projects/xss/results`);
    expect(await page.locator('section[data-document="d1"] .t').evaluate((el) => el.firstChild?.textContent ?? '')).toBe(XSS_LINE.slice(0, XSS_LINE.indexOf(' &')));
    expect(await page.locator('section[data-document="d1"] .t').textContent()).toBe(XSS_LINE.replace(' &', 'CODE &'));
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.context().close();
  });

  it('loads GraphiQL with every request on loopback and runs the pre-filled query with the pre-set token', async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.goto(emu.url);
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('.graphiql-editor-tool').innerText(), { timeout: 10_000 }).toContain('Bearer');
    await run.click();
    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 20_000 }).toContain('demo-project:labeler');
    await page.screenshot({ path: join(OUTPUT, 'graphiql.png') });
    expect(requests.length).toBeGreaterThan(1);
    const outside = requests.filter((u) => !/^(blob|data):/.test(u) && new URL(u).host !== new URL(emu.url).host);
    expect(outside).toEqual([]);
    await context.close();
  });
});
