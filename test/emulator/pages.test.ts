import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, startAutoLabel, waitForJobOrThrow } from '../../src/client/index.js';
import { createEmulator, DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { PAGE_COOKIE } from '../../src/emulator/pages/pageAccess.js';
import { createSampleModel, startModelServer } from '../../src/model/index.js';

const SECRET = 'pages-model-SENTINEL-7c2f';
const XSS = '<script>alert("x")</script>';
const RAW_SCRIPT = /<script>alert/;

/** A visit as a browser makes it: no redirects followed, the cookie passed on by hand. */
const visit = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers: { accept: 'text/html', ...headers } });
/** A GET with a Host header of our choice (fetch does not let a caller set Host). */
const getWithHost = (url: string, host: string) =>
  new Promise<{ status: number; setCookie: string[]; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { headers: { host, accept: 'text/html' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [], body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
const cookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith(`${PAGE_COOKIE}=`))?.split(';')[0];

describe('the emulator web pages over HTTP', () => {
  let emu: RunningEmulator;
  let cookie: string;
  beforeAll(async () => {
    emu = await startEmulator({ staticToken: 'pages-dev-token-1234' });
    cookie = cookieOf(await visit(`${emu.baseUrl}/`))!;
  });
  afterAll(async () => {
    await emu.close();
  });

  it('shows the GraphQL URL and dev token and sets an HttpOnly SameSite=Strict cookie when the home page is visited from this machine', async () => {
    const res = await visit(`${emu.baseUrl}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`${emu.baseUrl}/graphql`);
    expect(html).toContain('pages-dev-token-1234');
    expect(html).toContain('href="/emulator/projects/demo-project/results"');
    const set = res.headers.getSetCookie().join('\n');
    expect(set).toMatch(new RegExp(`^${PAGE_COOKIE}=[A-Za-z0-9_-]+; Path=/; HttpOnly; SameSite=Strict$`));
    expect(set).not.toContain('pages-dev-token-1234'); // the cookie is a page key, not the token
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('leaves out the token and sets no cookie when the Host header names another site (DNS rebinding)', async () => {
    const res = await getWithHost(`${emu.baseUrl}/?next=${encodeURIComponent('/emulator/projects/demo-project/results')}`, 'attacker.example:4000');
    expect(res.status).toBe(200);
    expect(res.body).toContain('Open this page as <code>localhost</code>');
    expect(res.body).not.toContain('pages-dev-token-1234');
    expect(res.setCookie).toEqual([]);
    const graphiql = await getWithHost(emu.url, 'attacker.example:4000');
    expect(graphiql.body).toContain('YogaGraphiQL');
    expect(graphiql.body).not.toContain('pages-dev-token-1234');
    const local = await getWithHost(emu.url, 'localhost:4000');
    expect(local.body).toContain('Bearer pages-dev-token-1234');
  });

  it('sends a results visit without the cookie to the home page, which sets the cookie and sends it back', async () => {
    const path = '/emulator/projects/demo-project/results?job=job-9';
    const first = await visit(`${emu.baseUrl}${path}`);
    expect(first.status).toBe(303);
    const home = first.headers.get('location')!;
    expect(home).toBe(`/?next=${encodeURIComponent(path)}`);
    const second = await visit(`${emu.baseUrl}${home}`);
    expect([second.status, second.headers.get('location')]).toEqual([303, path]);
    expect(cookieOf(second)).toBeDefined();
    const third = await visit(`${emu.baseUrl}${path}`, { cookie: cookieOf(second)! });
    expect(third.status).toBe(404); // the page itself: no job-9 in this project
    expect(await third.text()).toContain('has no job with the id');
  });

  it('never sends the browser elsewhere when next is not a results path', async () => {
    for (const next of ['https://evil.example/', '//evil.example', '/graphql', '/emulator/projects/x/labels']) {
      const res = await visit(`${emu.baseUrl}/?next=${encodeURIComponent(next)}`);
      expect(res.status).toBe(200);
    }
  });

  it('refuses the page cookie in place of the Bearer header on GraphQL and the JSON route', async () => {
    const gql = await fetch(`${emu.url}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ getJob(jobId: "x") { id } }' }),
    });
    expect(await gql.json()).toMatchObject({ errors: [{ message: 'Unauthorized', extensions: { type: 'AuthenticationError' } }] });
    const labels = await fetch(`${emu.baseUrl}/emulator/projects/demo-project/labels`, { headers: { cookie } });
    expect(labels.status).toBe(401);
  });

  it('serves GraphiQL from the package with the token pre-set and no outside script, style or font', async () => {
    const res = await visit(`${emu.url}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    expect(html).toContain('Bearer pages-dev-token-1234');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|fonts\.googleapis/);
    // A GET that is not a page visit still never runs a query.
    expect((await fetch(`${emu.url}?query=${encodeURIComponent('{__typename}')}`, { headers: { accept: 'text/html' } })).status).toBe(405);
  });

  it('exposes Retry-After and the echoed x-request-id and varies by Origin when a browser origin calls', async () => {
    const res = await fetch(emu.url, { method: 'POST', headers: { origin: 'http://localhost:5173', 'content-type': 'application/json', 'x-request-id': 'req-42' }, body: '{}' });
    expect(res.headers.get('x-request-id')).toBe('req-42');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After, x-request-id');
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    const refused = await fetch(emu.url, { method: 'POST', headers: { origin: 'https://elsewhere.example', 'content-type': 'application/json' }, body: '{}' });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('vary')).toMatch(/\bOrigin\b/);
  });
});

describe('extraCorsOrigins', () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('allows the extra origins besides the loopback ones when extraCorsOrigins is given', async () => {
    emu = await startEmulator({ extraCorsOrigins: ['https://app.example:8443'] });
    const allowOf = async (origin: string) =>
      (await fetch(emu!.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } })).headers.get('access-control-allow-origin');
    expect(await allowOf('https://app.example:8443')).toBe('https://app.example:8443');
    expect(await allowOf('http://127.0.0.1:9999')).toBe('http://127.0.0.1:9999');
    expect(await allowOf('https://app.example')).toBeNull();
  });
});

describe('the results page', () => {
  let emu: RunningEmulator;
  let model: { url: string; close(): Promise<void> };
  let cookie: string;
  beforeAll(async () => {
    emu = await startEmulator();
    model = await startModelServer({ secretKey: SECRET, predict: createSampleModel() });
    cookie = cookieOf(await visit(`${emu.baseUrl}/`))!;
  });
  afterAll(async () => {
    await model.close();
    await emu.close();
  });
  const page = async (path: string) => {
    const res = await visit(`${emu.baseUrl}${path}`, { cookie });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('highlights each stored span in its label colour, counts spans per document and stops reloading when the job is delivered', async () => {
    const client = createLabelingClient({ url: emu.url, token: emu.token, poll: { intervalMs: 10, maxIntervalMs: 50 } });
    try {
      const job = await startAutoLabel(client, 
        { projectId: DEMO_PROJECT_ID, labelerEmail: 'pages@example.com', options: { numberOfFilesPerRequest: 2 }, targetAPI: { endpoint: model.url, secretKey: SECRET } },
        { allowInsecureEndpoint: true },
      );
      await waitForJobOrThrow(client, job.id, { timeoutMs: 20_000 });
      const html = await page(`/emulator/projects/${DEMO_PROJECT_ID}/results?job=${job.id}`);
      expect(html).toContain('data-status="DELIVERED"');
      expect(html).not.toContain('http-equiv="refresh"');
      expect(html).toContain('<mark class="span" style="--c:#ef4444" data-label="PERSON" title="PERSON');
      expect(html).toContain('>Ada Lovelace</mark><span class="tag" style="--c:#ef4444">PERSON</span>');
      const [copy] = emu.emulator.store.labelsOf(DEMO_PROJECT_ID);
      for (const doc of copy!.documents) {
        const n = doc.lines.reduce((sum, l) => sum + l.entities.length, 0);
        expect(html).toContain(`data-document="${doc.id}" data-spans="${n}"`);
      }
      expect(html).toContain('data-legend-label="PERSON"');
      expect(html).not.toContain(SECRET);
      const home = await page('/');
      expect(home).toContain(`href="/emulator/projects/demo-project/results?job=${job.id}"`);
      expect(home).not.toContain(SECRET);
    } finally {
      client.close();
    }
  });

  it('escapes <script> in document text, names, label names and colours on every page', async () => {
    const store = emu.emulator.store;
    store.addProject({
      id: 'xss',
      name: `P ${XSS}`,
      labelSets: [{ name: `S ${XSS}`, labels: [{ id: 'a', name: `L${XSS}`, color: `red"><script>alert(1)</script>`, desc: XSS }] }],
      documents: [{ id: 'd<1>', name: `N ${XSS}`, lines: [`Hello ${XSS} world`] }],
    });
    const job = store.createJob({ projectId: 'xss', labelerEmail: `e${XSS}@example.com`, role: 'LABELER' });
    store.setLineLabels('xss', { labelerEmail: `e${XSS}@example.com`, role: 'LABELER' }, 'd<1>', 0, [{ label: `L${XSS}`, start_char: 6, end_char: 6 + XSS.length, layer: 0 }]);
    store.updateJob(job, { status: 'DELIVERED', progress: 100 });
    const results = await page(`/emulator/projects/xss/results`);
    const home = await page('/');
    for (const html of [results, home]) {
      expect(html).not.toMatch(RAW_SCRIPT);
      expect(html).not.toContain('"><script>');
    }
    expect(results).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;</mark>');
    expect(results).toContain('Hello <mark class="span" style="--c:#8b5cf6"'); // a colour that is not a colour is replaced
    expect(home).toContain('P &#60;script&#62;');
  });

  it('shows a failed job with each error where and why, redacted, and reloads while a job runs', async () => {
    const store = emu.emulator.store;
    const job = store.createJob({ projectId: DEMO_PROJECT_ID, labelerEmail: 'f@example.com', role: 'REVIEWER' });
    store.updateJob(job, { status: 'IN_PROGRESS', progress: 40 });
    const running = await page(`/emulator/projects/${DEMO_PROJECT_ID}/results?job=${job.id}`);
    expect(running).toContain('<meta http-equiv="refresh" content="1">');
    expect(running).toContain('<progress max="100" value="40">');
    expect(await page('/')).toContain('http-equiv="refresh"');
    job.errors.push({
      id: `${job.id}-e1`,
      stack: 'document "doc-2" lines 2-3: the model answered HTTP 500: echo Authorization: Bearer leaked-SENTINEL-token',
      args: { documentId: 'doc-2', firstLine: 2, lastLine: 3, httpStatus: 500, secretKey: 'args-SENTINEL-secret' },
    });
    store.updateJob(job, { status: 'FAILED' });
    const failed = await page(`/emulator/projects/${DEMO_PROJECT_ID}/results?job=${job.id}`);
    expect(failed).toContain('data-status="FAILED"');
    expect(failed).not.toContain('http-equiv="refresh"');
    expect(failed).toContain('<td>document doc-2, lines 2–3</td>');
    expect(failed).toContain('the model answered HTTP 500');
    expect(failed).toContain('&#34;httpStatus&#34;:500');
    expect(failed).not.toContain('SENTINEL');
  });
});

describe('the home page with many projects', () => {
  it('lists the first 200 projects and says how many more there are when there are more', async () => {
    const emulator = createEmulator({ demoProject: false });
    try {
      for (let i = 0; i < 203; i++) {
        emulator.store.addProject({ id: `p${i}`, labelSets: [{ name: 'S', labels: [{ id: 'a', name: 'A' }] }], documents: [{ id: 'd', lines: ['x'] }] });
      }
      const html = await (await emulator.handle(new Request('http://127.0.0.1:4000/'))).text();
      expect(html.match(/<tr><td><a href="\/emulator\/projects\/p\d+\/results">/g)).toHaveLength(200);
      expect(html).toContain('… and 3 more projects');
    } finally {
      await emulator.close();
    }
  });
});
