import { Agent, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { serveFetchHandler } from '../../src/shared/serveFetchHandler.js';

describe('serveFetchHandler', () => {
  it('answers a generic JSON 500 without the error text when the handler throws', async () => {
    const served = await serveFetchHandler(async () => {
      throw new Error('boom with token SENTINEL-leak');
    }, 0, '127.0.0.1');
    try {
      const res = await fetch(served.url);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ errors: [{ message: 'internal error of the server' }] });
      expect(text).not.toContain('SENTINEL');
    } finally {
      await served.close();
    }
  });

  it('lets the handler answer from the headers without the body having arrived', async () => {
    const served = await serveFetchHandler(async (request) => new Response(`declared ${request.headers.get('content-length')}`), 0, '127.0.0.1');
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(served.url, { method: 'POST', headers: { 'content-length': '1000000' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => {
            resolve(body);
            req.destroy();
          });
        });
        req.on('error', reject);
        req.flushHeaders(); // headers only: not one byte of the promised body
      });
      expect(text).toBe('declared 1000000');
    } finally {
      await served.close();
    }
  });

  it('frees the port and ends a kept-alive connection when closed', async () => {
    const served = await serveFetchHandler(async () => new Response('ok'), 0, '127.0.0.1');
    const closed = new Promise<void>((resolve) => {
      const req = httpRequest(served.url, { agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.socket.once('close', () => resolve());
        res.on('end', () => void served.close());
      });
      req.end();
    });
    await closed;
    const again = await serveFetchHandler(async () => new Response('again'), served.port, '127.0.0.1');
    expect(await (await fetch(again.url)).text()).toBe('again');
    await again.close();
  });

  it('streams the body of a Response that is not Node\'s own, reading it through getReader alone', async () => {
    // graphql-yoga answers with @whatwg-node/fetch's ponyfill; a bare look-alike proves the contract.
    const chunks = ['{"data":', '{"ok":true}}'].map((t) => new TextEncoder().encode(t));
    const lookAlike = {
      status: 201,
      headers: new Headers({ 'content-type': 'application/json', 'x-kind': 'ponyfill' }),
      body: {
        getReader: () => ({
          read: async () => (chunks.length > 0 ? { done: false, value: chunks.shift()! } : { done: true, value: undefined }),
          cancel: async () => undefined,
        }),
        cancel: async () => undefined,
      },
    } as unknown as Response;
    const served = await serveFetchHandler(async () => lookAlike, 0, '127.0.0.1');
    try {
      const res = await fetch(served.url);
      expect([res.status, res.headers.get('x-kind'), await res.json()]).toEqual([201, 'ponyfill', { data: { ok: true } }]);
    } finally {
      await served.close();
    }
  });

  it('sends each Set-Cookie header apart and gives the handler the Host-based URL and the body when it reads it', async () => {
    const served = await serveFetchHandler(async (request) => {
      const headers = new Headers({ 'content-type': 'text/plain' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response(`${request.method} ${request.url} ${await request.text()}`, { headers });
    }, 0, '127.0.0.1');
    try {
      const res = await fetch(`${served.url}/x?y=1`, { method: 'POST', body: 'hello' });
      expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(await res.text()).toBe(`POST ${served.url}/x?y=1 hello`);
    } finally {
      await served.close();
    }
  });
});
