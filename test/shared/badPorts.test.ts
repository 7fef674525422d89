import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BAD_PORTS, isBadPort } from '../../src/shared/badPorts.js';

/** Why this Node's fetch refused a URL, or 'called' when it reached the network. */
async function fetchRefusal(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return 'called';
  } catch (error) {
    return String((error as { cause?: { message?: unknown } }).cause?.message ?? error);
  }
}

describe('isBadPort', () => {
  it('lists only ports that Node’s fetch refuses as "bad port", before any socket (port 0 aside: the standard added it after Node 20’s undici)', async () => {
    for (const port of BAD_PORTS.filter((p) => p !== 0)) {
      expect([port, await fetchRefusal(`http://127.0.0.1:${port}/`)]).toEqual([port, 'bad port']);
      expect(isBadPort(port)).toBe(true);
    }
  });

  it('lets fetch call a port off the list (a real server on a free port answers)', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(isBadPort(port)).toBe(false);
      expect(await fetchRefusal(`http://127.0.0.1:${port}/`)).toBe('called');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads a URL’s port string: the default port ("") and ordinary ports are not bad', () => {
    expect(isBadPort(new URL('http://127.0.0.1:6000/graphql').port)).toBe(true);
    expect(isBadPort(new URL('https://api.example.com/graphql').port)).toBe(false);
    expect(isBadPort(new URL('http://api.example.com:80/').port)).toBe(false);
    expect(isBadPort('4000')).toBe(false);
    expect(isBadPort('10080')).toBe(true);
    expect(isBadPort('6000x')).toBe(false);
    expect([80, 443, 4000, 5000, 6664, 6670, 8080, 10079, 10081, 65535].filter((p) => isBadPort(p))).toEqual([]);
  });

  it('holds the Fetch standard’s ranges and recent additions, sorted and without duplicates', () => {
    expect(BAD_PORTS).toEqual([...new Set(BAD_PORTS)].sort((a, b) => a - b));
    for (const port of [0, 1, 6000, 6665, 6666, 6667, 6668, 6669, 6697, 4190, 6679, 10080]) expect(isBadPort(port)).toBe(true);
    expect(BAD_PORTS).toHaveLength(83);
  });
});
