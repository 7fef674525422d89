import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startModelServer } from '../../src/model/index.js';
import type { RunningModelServer } from '../../src/model/index.js';
import { MODEL_WRONG_SECRET_MESSAGE } from '../../src/shared/constants.js';
import { argv, fakeIo } from '../support/fakeIo.js';

// Issue 23 item 10: a secret that is a common word must not blank out labelkit's own words
// ("wrong ***: send Authorization: Bearer <***Key>"), and must still be blanked out wherever it
// came from elsewhere (an answer, a URL, a value).
const SECRET = 'secret';

/** The text with labelkit's known wording taken out: what is left came from elsewhere. */
const foreignPart = (text: string) =>
  text
    .split(MODEL_WRONG_SECRET_MESSAGE)
    .join('')
    .replace(/wrong secret: (refused|answered)|secret key shown as|"secretKey"|--secret-key-(env|file)|the secret your model expects|would send the secret in clear|one source of the secret key/g, '');

let sameSecret: RunningModelServer;
let otherSecret: RunningModelServer;
let echoing: Server;
let echoingUrl: string;
beforeAll(async () => {
  sameSecret = await startModelServer({ secretKey: SECRET });
  otherSecret = await startModelServer({ secretKey: 'another-one' });
  // A model that refuses with the sample model's words, and then quotes the Authorization it got.
  echoing = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `${MODEL_WRONG_SECRET_MESSAGE} (you sent ${req.headers.authorization}, key=${SECRET})` }));
    });
  });
  await new Promise<void>((resolve) => echoing.listen(0, '127.0.0.1', resolve));
  echoingUrl = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await sameSecret?.close();
  await otherSecret?.close();
  echoing?.closeAllConnections();
  if (echoing) await new Promise<void>((resolve) => echoing.close(() => resolve()));
});

const run = async (...args: string[]) => {
  const io = fakeIo({ LABELKIT_MODEL_SECRET: SECRET, LABELKIT_URL: 'http://127.0.0.1:9/graphql', LABELKIT_TOKEN: 'tok-1234' });
  const code = await main(argv(...args), io);
  return { code, out: io.out(), err: io.err() };
};

describe('labelkit model check with the secret "secret"', () => {
  it('keeps its own words when the model accepts the secret', async () => {
    const { code, out } = await run('model', 'check', sameSecret.url, '--sizes', '1');
    expect(code).toBe(0);
    expect(out).toContain('wrong secret: refused with 401 (good)');
    expect(out).not.toContain('***');
  });

  it('quotes the sample model’s refusal whole, in text and in JSON', async () => {
    const text = await run('model', 'check', otherSecret.url, '--sizes', '1');
    expect(text.code).toBe(1);
    expect(text.out).toContain(`HTTP: status 401, expected 200: ${MODEL_WRONG_SECRET_MESSAGE}`);
    expect(text.out).toContain('wrong secret: refused with 401 (good)');
    const json = await run('model', 'check', otherSecret.url, '--sizes', '1', '--json');
    const parsed = JSON.parse(json.out) as { rows: { problems: { message: string }[] }[]; wrongSecretStatus: number };
    expect(parsed.rows[0]!.problems[0]!.message).toBe(`status 401, expected 200: ${MODEL_WRONG_SECRET_MESSAGE}`);
    expect(parsed.wrongSecretStatus).toBe(401);
  });

  it('still blanks the secret out of what the model sent around those words', async () => {
    for (const flags of [[], ['--json']]) {
      const { out } = await run('model', 'check', echoingUrl, '--sizes', '1', ...flags);
      expect(out).toContain(MODEL_WRONG_SECRET_MESSAGE);
      expect(out).toContain('(you sent Bearer ***, key=***)');
      expect(foreignPart(out)).not.toContain(SECRET);
    }
  });

  it('says "the secret" in its own usage errors', async () => {
    const { code, err } = await run('model', 'check', 'http://model.example.com/', '--sizes', '1');
    expect(code).toBe(2);
    expect(err).toContain('<url>: plain http on a non-loopback host would send the secret in clear');
  });
});

describe('labelkit auto-label --dry-run with the secret "secret"', () => {
  it('prints the request with its key names whole and the secret as ***, in text and JSON', async () => {
    const args = ['auto-label', '--project', 'p1', '--labeler-email', 'a@example.com', '--endpoint', `http://127.0.0.1:5000/?key=${SECRET}`, '--files-per-request', '1', '--dry-run'];
    const text = await run(...args);
    expect(text.code).toBe(0);
    expect(text.err).toContain('(secret key shown as ***)');
    const shown = JSON.parse(text.out) as { variables: { input: { targetAPI: { secretKey: string; endpoint: string } } } };
    expect(shown.variables.input.targetAPI).toEqual({ endpoint: 'http://127.0.0.1:5000/?key=***', secretKey: '***' });
    expect(text.out).toBe(`${JSON.stringify(shown, null, 2)}\n`);
    const json = await run(...args, '--json');
    const line = JSON.parse(json.out) as { variables: { input: { targetAPI: object } } };
    expect(line.variables.input.targetAPI).toEqual({ endpoint: 'http://127.0.0.1:5000/?key=***', secretKey: '***' });
    for (const out of [text.out + text.err, json.out + json.err]) expect(foreignPart(out)).not.toContain(SECRET);
  });
});

describe('labelkit model with the secret "secret"', () => {
  it('says where the secret comes from in its own words', async () => {
    const io = fakeIo({ LABELKIT_MODEL_SECRET: SECRET });
    const running = main(argv('model', '--port', '0'), io);
    await vi.waitFor(() => expect(io.out()).toContain('listening'), { timeout: 10_000, interval: 20 });
    io.interrupt();
    expect(await running).toBe(0);
    // "secret" is the secret here: the words around the URL must stay, not become ***.
    expect(io.out()).toMatch(/^labelkit sample model listening on http:\/\/127\.0\.0\.1:\d+\/ .*\(secret from LABELKIT_MODEL_SECRET\)/m);
  });
});

describe('labelkit auto-label input problems with the secret "secret"', () => {
  it('keeps the client’s words about the input, and redacts a value of the input it quotes', async () => {
    const base = ['auto-label', '--project', 'p1', '--labeler-email', 'a@example.com', '--files-per-request', '1'];
    const insecure = await run(...base, '--endpoint', 'http://model.example.com/');
    expect(insecure.code).toBe(2);
    expect(insecure.err).toMatch(/^labelkit: --endpoint: .*plain http.*the secret key would travel in clear.*--allow-insecure-endpoint/);
    const scheme = await run(...base, '--endpoint', `${SECRET}://model.example.com/`);
    expect(scheme.err).toContain('labelkit: --endpoint: must use http or https, not ***');
    expect(foreignPart(scheme.err)).not.toContain(SECRET);
  });
});
