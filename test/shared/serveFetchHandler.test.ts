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
});
