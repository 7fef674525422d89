// Issue 40 item 9: a key in the service URL's query string (`?api_key=…`, or under any name) is
// never printed: not in the client's errors, not in any CLI output. Over real HTTP on 127.0.0.1:
// a port nothing listens on, and a server that answers 502 quoting the request's URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabelingClient, getCabinet } from '../../src/client/index.js';
import { main } from '../../src/cli/main.js';
import { argv, fakeIo } from '../support/fakeIo.js';

const KEY = 'SENTINEL-query-key-5e1d';
const SHORT = 'q7z'; // shorter than any secret the redactor looks for in free text
let closedPort: number;
let echo: ReturnType<typeof createServer>;
let echoUrl: string;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  // A proxy's error page that quotes the URL it was asked for.
  echo = createServer((req, res) => void res.writeHead(502, { 'content-type': 'text/plain' }).end(`bad gateway for ${req.url}`));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await new Promise((resolve) => echo?.close(resolve));
});

const withQuery = (base: string) => `${base}?api_key=${KEY}&tenant=${SHORT}`;

describe('the service URL’s query values', () => {
  it('are left out of the client’s error when the service cannot be reached', async () => {
    const client = createLabelingClient({ url: withQuery(`http://127.0.0.1:${closedPort}/graphql`), token: 'token-for-test', retry: { maxAttempts: 1 } });
    try {
      const error = await getCabinet(client, 'p', 'REVIEWER').then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error!.message).toContain(`/graphql?api_key=***&tenant=***`);
      const everything = JSON.stringify({ ...error, message: error!.message, stack: error!.stack });
      expect(everything).not.toContain(KEY);
      expect(everything).not.toContain(`tenant=${SHORT}`);
    } finally {
      client.close();
    }
  });

  for (const [name, base] of [
    ['a port nothing listens on', () => `http://127.0.0.1:${closedPort}/graphql`],
    ['a server whose error page quotes the URL', () => echoUrl],
  ] as const) {
    it(`are printed by no CLI output (${name}), from --url or LABELKIT_URL`, async () => {
      for (const [args, env] of [
        [['--url', withQuery(base())], { LABELKIT_TOKEN: 'token-for-test' }],
        [[], { LABELKIT_URL: withQuery(base()), LABELKIT_TOKEN: 'token-for-test' }],
      ] as const) {
        for (const verbose of [[], ['--verbose']]) {
          const io = fakeIo({ ...env });
          const code = await main(argv('label-sets', '--project', 'p', '--role', 'REVIEWER', '--retries', '0', ...verbose, ...args), io);
          expect(code).not.toBe(0);
          const printed = io.out() + io.err();
          // The URL as labelkit prints it has no query value, however short.
          expect(printed).toMatch(/127\.0\.0\.1:\d+\/graphql\?api_key=\*\*\*&tenant=\*\*\* /);
          // A value long enough to be told from ordinary words is gone everywhere, also where the
          // service's own error page quoted it (a 3-letter one there is as likely any word).
          expect(printed).not.toContain(KEY);
        }
      }
    });
  }
});
