import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/shared/isLoopbackHost.js';

const host = (url: string) => new URL(url).hostname;

describe('isLoopbackHost', () => {
  it.each(['http://localhost:8080/', 'http://127.0.0.1/', 'http://127.8.9.10:1/', 'http://[::1]:9000/', 'http://127.1/'])('accepts %s when the host is this machine', (url) => {
    expect(isLoopbackHost(host(url))).toBe(true);
  });

  it.each(['http://10.1.2.3/', 'http://localhost.example.com/', 'http://127.0.0.1.nip.io/', 'http://[::2]/', 'http://128.0.0.1/', 'http://example.com/'])(
    'refuses %s when the host may be another machine',
    (url) => {
      expect(isLoopbackHost(host(url))).toBe(false);
    },
  );
});
