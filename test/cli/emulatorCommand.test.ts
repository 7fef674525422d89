import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';

describe('labelkit emulator --cors-origin', () => {
  it('lets browser pages on each given origin call the emulator, besides loopback, when the flag is repeated', async () => {
    const io = fakeIo();
    const run = main(argv('emulator', '--port', '0', '--json', '--cors-origin', 'https://app.example:8443', '--cors-origin', 'http://tools.test'), io);
    await vi.waitFor(() => expect(io.out()).toContain('"url"'), { timeout: 10_000, interval: 20 });
    const { url } = JSON.parse(io.out()) as { url: string };
    const allowOf = async (origin: string) =>
      (await fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } })).headers.get('access-control-allow-origin');
    expect(await allowOf('https://app.example:8443')).toBe('https://app.example:8443');
    expect(await allowOf('http://tools.test')).toBe('http://tools.test');
    expect(await allowOf('http://localhost:5173')).toBe('http://localhost:5173');
    expect(await allowOf('https://app.example')).toBeNull();
    io.interrupt();
    expect(await run).toBe(0);
  });

  it('exits 2 naming every value that is not an origin when --cors-origin is bad', async () => {
    const io = fakeIo();
    expect(await main(argv('emulator', '--port', '0', '--cors-origin', 'https://app.example/', '--cors-origin', 'app.example', '--cors-origin', 'ftp://x.test'), io)).toBe(2);
    const err = io.err();
    expect(err).toMatch(/--cors-origin: "https:\/\/app\.example\/" is not an origin: .*scheme:\/\/host\[:port\].*did you mean https:\/\/app\.example\?/);
    expect(err).toContain('--cors-origin: "app.example" is not an origin');
    expect(err).toContain('--cors-origin: "ftp://x.test" is not an origin');
    expect(io.out()).toBe('');
  });

  it('names the web pages in its start-up lines', async () => {
    const io = fakeIo();
    const run = main(argv('emulator', '--port', '0'), io);
    await vi.waitFor(() => expect(io.out()).toContain('Ctrl-C stops'), { timeout: 10_000, interval: 20 });
    expect(io.out()).toMatch(/^Web pages: http:\/\/127\.0\.0\.1:\d+\/ .* http:\/\/127\.0\.0\.1:\d+\/graphql \(GraphiQL\)$/m);
    io.interrupt();
    expect(await run).toBe(0);
  });
});

describe('labelkit emulator --port', () => {
  it('exits 2 with one line naming the busy port and --port 0 when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const io = fakeIo();
      expect(await main(argv('emulator', '--port', String(port)), io)).toBe(2);
      expect(io.err()).toBe(`labelkit: --port: port ${port} is in use (try --port 0)\n`);
      expect(io.out()).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it.each([6000, 10080, 6666])('refuses port %i, which fetch refuses to call, before listening', async (port) => {
    const io = fakeIo();
    const run = main(argv('emulator', '--port', String(port)), io);
    // Today's code would start listening there: wait for either line, then stop it either way.
    await vi.waitFor(() => expect(io.err() + io.out()).toMatch(/labelkit/), { timeout: 10_000, interval: 20 });
    io.interrupt();
    expect(await run).toBe(2);
    expect(io.err()).toMatch(new RegExp(`^labelkit: --port: ${port} .*fetch refuses.*"bad ports".*0 for a free one`));
    expect(io.out()).toBe('');
  });
});

describe('labelkit emulator --verbose', () => {
  it('logs each request with its operation, request id and the status the client saw, and never the token', async () => {
    const io = fakeIo();
    const run = main(argv('emulator', '--port', '0', '--json', '--verbose'), io);
    await vi.waitFor(() => expect(io.out()).toContain('"url"'), { timeout: 10_000, interval: 20 });
    const { url, token } = JSON.parse(io.out()) as { url: string; token: string };
    const cabinet = (env: Record<string, string>) => main(argv('cabinet', '--project', 'demo-project', '--role', 'LABELER'), fakeIo({ LABELKIT_URL: url, ...env }));
    expect(await cabinet({ LABELKIT_TOKEN: token })).toBe(0);
    expect(await cabinet({ LABELKIT_TOKEN: 'wrong-token-SENTINEL' })).toBe(3);
    io.interrupt();
    expect(await run).toBe(0);
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
    const posts = io.err().split('\n').filter((l) => l.startsWith('POST /graphql'));
    expect(posts[0]).toMatch(new RegExp(`^POST /graphql 200 op=GetCabinet request=${uuid} \\d+ms$`));
    expect(posts.slice(1).length).toBeGreaterThan(0);
    for (const line of posts.slice(1)) expect(line).toMatch(new RegExp(`^POST /graphql 200 Unauthorized request=${uuid} \\d+ms$`));
    expect(io.err()).not.toContain(token);
    expect(io.err()).not.toContain('SENTINEL');
  });
});

describe('labelkit emulator --model-timeout', () => {
  it("gives each model request of a job the time-out it names: a model slower than it fails the job with the time-out's words", async () => {
    const { startModelServer, createSampleModel } = await import('../../src/model/index.js');
    const { createLabelingClient, startAutoLabel, waitForJob } = await import('../../src/client/index.js');
    const sample = createSampleModel();
    // Answers after 2 s: within the default 30 s, past the 300 ms given.
    const model = await startModelServer({ secretKey: 'model-timeout-secret', predict: async (r) => (await new Promise((done) => setTimeout(done, 2000)), sample(r)) });
    const io = fakeIo();
    const run = main(argv('emulator', '--port', '0', '--json', '--model-timeout', '300ms'), io);
    try {
      await vi.waitFor(() => expect(io.out()).toContain('"url"'), { timeout: 10_000, interval: 20 });
      const { url, token } = JSON.parse(io.out()) as { url: string; token: string };
      const client = createLabelingClient({ url, token, poll: { intervalMs: 50, maxIntervalMs: 100 } });
      const job = await startAutoLabel(client, { projectId: 'demo-project', labelerEmail: 'timeout@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint: model.url, secretKey: 'model-timeout-secret' } });
      const outcome = await waitForJob(client, job.id, { timeoutMs: 20_000 });
      client.close();
      expect(outcome.outcome).toBe('failed');
      expect(outcome.job?.errors[0]?.stack).toContain('the model did not answer within 300 ms');
    } finally {
      io.interrupt();
      expect(await run).toBe(0);
      await model.close();
    }
  }, 30_000);

  it('exits 2 naming the flag and its rule when --model-timeout is not a duration within 100ms to 10m', async () => {
    for (const value of ['soon', '50ms', '11m']) {
      const io = fakeIo();
      expect(await main(argv('emulator', '--port', '0', '--model-timeout', value), io)).toBe(2);
      expect(io.err()).toContain('--model-timeout: must be a duration from 100ms to 10m, such as 30s or 90000 (ms)');
    }
  });
});
