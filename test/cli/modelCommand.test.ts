import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';

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
