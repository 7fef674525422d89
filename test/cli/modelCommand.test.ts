import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';
import { useTempDirs } from '../support/tempDirs.js';

const tempDir = useTempDirs();

const env = { LABELKIT_MODEL_SECRET: 'model-secret-SENTINEL' };

describe('labelkit model --port', () => {
  it('exits 2 with one line naming the busy port and --port 0 when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const io = fakeIo(env);
      expect(await main(argv('model', '--port', String(port)), io)).toBe(2);
      expect(io.err()).toBe(`labelkit: --port: port ${port} is in use (try --port 0)\n`);
      expect(io.out()).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('refuses a port that fetch refuses to call before listening, and lists it with the other problems', async () => {
    const io = fakeIo(env);
    const run = main(argv('model', '--port', '6000'), io);
    await vi.waitFor(() => expect(io.err() + io.out()).toMatch(/labelkit/), { timeout: 10_000, interval: 20 });
    io.interrupt();
    expect(await run).toBe(2);
    expect(io.err()).toMatch(/^labelkit: --port: 6000 is one of the ports that fetch refuses to call/);
    expect(io.err()).not.toContain('LABELKIT_MODEL_SECRET=');
    expect(io.out()).toBe('');

    const both = fakeIo({});
    expect(await main(argv('model', '--port', '6000'), both)).toBe(2);
    expect(both.err()).toContain('2 problems');
    expect(both.err()).toContain('--port: 6000 is one of the ports that fetch refuses to call');
  });
});

describe('labelkit model check and doctor --model with credentials in the URL', () => {
  it('refuses the URL before any request, and never prints its password', async () => {
    const url = 'http://alice:url-password-SENTINEL@127.0.0.1:9/spans';
    const check = fakeIo(env);
    expect(await main(argv('model', 'check', url, '--sizes', '1'), check)).toBe(2);
    expect(check.err()).toContain('<url>: must not carry credentials in the URL (user:password@); give the secret with --secret-key-env');
    const doctor = fakeIo(env);
    expect(await main(argv('doctor', '--model', url), doctor)).toBe(2);
    expect(doctor.err()).toContain('<url>: must not carry credentials in the URL');
    for (const io of [check, doctor]) expect(io.err() + io.out()).not.toContain('url-password-SENTINEL');
  });
});

describe('labelkit doctor with a bad --model', () => {
  it('refuses it before any check: no request reaches the service of --url, and a bad --dir is named with it', async () => {
    // Before, doctor ran its other checks first (the app's TypeScript compile, its documents, the
    // service of --url) and refused --model only at the end: seconds later, after network calls.
    let requests = 0;
    const service = createHttpServer((_request, response) => {
      requests += 1;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/graphql`;
    try {
      const app = tempDir('labelkit-doctor-model-');
      writeFileSync(join(app, 'package.json'), '{"name":"app","type":"module"}\n');
      const io = fakeIo({ LABELKIT_TOKEN: 't0k' });
      expect(await main(argv('doctor', '--dir', app, '--url', url, '--model', 'ftp://127.0.0.1/spans'), io)).toBe(2);
      expect(io.err()).toContain('<url>: must be an absolute http(s) URL of the model endpoint');
      expect(io.err()).toContain('LABELKIT_MODEL_SECRET is not set');
      expect(io.out()).toBe('');
      expect(requests).toBe(0);

      const both = fakeIo({ LABELKIT_MODEL_SECRET: 's' });
      expect(await main(argv('doctor', '--dir', join(app, 'missing'), '--model', 'http://u:p@127.0.0.1/spans'), both)).toBe(2);
      expect(both.err()).toContain('has no package.json');
      expect(both.err()).toContain('<url>: must not carry credentials in the URL');
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });
});

