import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from './fakeIo.js';

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
    expect(err).toContain('--cors-origin: "https://app.example/" is not an origin: write scheme://host[:port] with http or https, no path or trailing slash; did you mean https://app.example?');
    expect(err).toContain('--cors-origin: "app.example" is not an origin');
    expect(err).toContain('--cors-origin: "ftp://x.test" is not an origin');
    expect(io.out()).toBe('');
  });

  it('names the web pages in its start-up lines', async () => {
    const io = fakeIo();
    const run = main(argv('emulator', '--port', '0'), io);
    await vi.waitFor(() => expect(io.out()).toContain('Ctrl-C stops'), { timeout: 10_000, interval: 20 });
    expect(io.out()).toMatch(/^Web pages: http:\/\/127\.0\.0\.1:\d+\/ \(home: token, projects, jobs, results\) and http:\/\/127\.0\.0\.1:\d+\/graphql \(GraphiQL\)$/m);
    io.interrupt();
    expect(await run).toBe(0);
  });
});
