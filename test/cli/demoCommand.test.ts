import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';

describe('labelkit demo --keep', () => {
  it('prints the results page URL and keeps the emulator serving it until Ctrl-C when --keep is given', async () => {
    const io = fakeIo();
    const run = main(argv('demo', '--keep'), io);
    await vi.waitFor(() => expect(io.out()).toContain('Ctrl-C stops'), { timeout: 30_000, interval: 50 });
    const results = /^results {3}(http:\/\/127\.0\.0\.1:\d+\/emulator\/projects\/demo-project\/results\?job=job-1)$/m.exec(io.out())?.[1];
    expect(results).toBeDefined();
    // As a browser opens it: redirected to the home page, which sets the cookie and sends it back.
    const first = await fetch(results!, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const home = await fetch(new URL(first.headers.get('location')!, results), { redirect: 'manual' });
    const cookie = home.headers.getSetCookie()[0]!.split(';')[0]!;
    const page = await fetch(new URL(home.headers.get('location')!, results), { headers: { cookie } });
    const html = await page.text();
    expect(html).toContain('data-status="DELIVERED"');
    expect(html).toContain('data-label="PERSON"');
    io.interrupt();
    expect(await run).toBe(0);
    await expect(fetch(results!)).rejects.toThrow(); // the port is closed after Ctrl-C
  });

  it('prints the results page URL saying to rerun with --keep, and stops everything at the end, when --keep is not given', async () => {
    const io = fakeIo();
    expect(await main(argv('demo'), io)).toBe(0);
    // The line says the URL is dead by the time it is opened, and how to keep it alive.
    const results = /^results {3}(http:\S+) \(the emulator stops with the demo: rerun with --keep to open it\)$/m.exec(io.out())?.[1];
    expect(results).toMatch(/\/emulator\/projects\/demo-project\/results\?job=job-1$/);
    expect(io.out()).not.toContain('keeping');
    await expect(fetch(results!)).rejects.toThrow();
  });

  it('exits 2 before starting anything when --keep is combined with --json', async () => {
    const io = fakeIo();
    expect(await main(argv('demo', '--keep', '--json'), io)).toBe(2);
    expect(io.err()).toContain('--keep: cannot be combined with --json');
    expect(io.out()).toBe('');
  });
});
