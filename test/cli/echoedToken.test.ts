import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs.js';
import { main } from '../../src/cli/main.js';
import { createLabelingClient, getCabinet, getJob, getLabelSets, startAutoLabel, waitForJob } from '../../src/client/index.js';
import { DEMO_PROJECT_ID, startEmulator } from '../../src/emulator/index.js';
import { argv, fakeIo } from '../support/fakeIo.js';

/** Temporary folders of this file, removed after its tests. */
const tempDir = useTempDirs();

// Issue 23 item A: a token whose characters stop a pattern (`:`, `"`, `&`, …) must leave no part
// of itself behind when a server echoes the Authorization header. Every token ends in a tail that
// names it, so a leaked tail is easy to spot: no output may hold `TAIL`.
const CHARS = [':', '"', '&', '/', '+', '=', '%', ' '];
const TOKENS = [...CHARS.map((c, i) => `key-7f${c}abcdefTAIL${i}x`), 'key-7f:a"b&c/d+e=f%g hTAILall'];

/** Every wire form of a text that a leak could take (as sent, JSON-escaped, URI and form encoded). */
function forms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const html = secret.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return [secret, json, html, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
}

/** Fails when `text` holds a tail or any form of the token. */
function expectClean(text: string, token: string, what: string): void {
  expect(text, `${what}: leaks a tail`).not.toContain('TAIL');
  for (const form of forms(token)) expect(text, `${what}: leaks ${form}`).not.toContain(form);
}

/** A service that echoes the Authorization header it got: in a GraphQL error, a 500 text body, or an HTML page. */
interface EchoServer {
  url: string;
  mode: 'graphql' | 'text500' | 'html500';
  close(): Promise<void>;
}

async function startEchoServer(): Promise<EchoServer> {
  const state = { mode: 'graphql' as EchoServer['mode'] };
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      if (state.mode === 'graphql') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [{ message: `not allowed: auth=${auth}`, extensions: { code: 'FORBIDDEN', header: `auth=${auth}` } }] }));
      } else if (state.mode === 'html500') {
        const html = auth.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
        res.writeHead(500, '', { 'content-type': 'text/html' });
        res.end(`<html><body><p>auth=${html}</p></body></html>`);
      } else {
        res.writeHead(500, '', { 'content-type': 'text/plain' });
        res.end(`internal error; auth=${auth}&trace=1`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let echo: EchoServer;
let dir: string;
beforeAll(async () => {
  echo = await startEchoServer();
  dir = tempDir('labelkit-echo-');
  writeFileSync(
    join(dir, 'labels.json'),
    JSON.stringify({ projectId: 'p1', role: 'LABELER', labelSets: [{ index: 0, name: 'Entities', labelItems: [{ labelName: 'PERSON' }] }] }),
  );
  writeFileSync(join(dir, 'projects.txt'), 'p1\np2\n');
});
afterAll(async () => {
  await echo?.close();
});

/** Every command that talks to the service, with flags that make it send a request. */
const COMMANDS: Array<[string, string[]]> = [
  ['cabinet', ['cabinet', '--project', 'p1', '--role', 'LABELER']],
  ['label-sets', ['label-sets', '--project', 'p1', '--role', 'LABELER']],
  ['label-sets --cabinet', ['label-sets', '--cabinet', 'p1:labeler']],
  ['label-sets plan', ['label-sets', 'plan', 'FILE']],
  ['label-sets apply', ['label-sets', 'apply', 'FILE', '--yes']],
  ['auto-label', ['auto-label', '--project', 'p1', '--labeler-email', 'a@example.com', '--endpoint', 'https://model.example.com/', '--files-per-request', '1']],
  ['auto-label --wait', ['auto-label', '--project', 'p1', '--labeler-email', 'a@example.com', '--endpoint', 'https://model.example.com/', '--files-per-request', '1', '--wait']],
  ['auto-label (many)', ['auto-label', '--projects', 'PROJECTS', '--labeler-email', 'a@example.com', '--endpoint', 'https://model.example.com/', '--files-per-request', '1']],
  ['jobs', ['jobs', 'job-1']],
  ['jobs --wait', ['jobs', 'job-1', '--wait', '--timeout', 'WAIT']],
  ['schema check', ['schema', 'check']],
];
const FLAG_SETS = [[], ['--verbose'], ['--json'], ['--verbose', '--json']];

describe('a token holding : " & / + = % or spaces, echoed by the service', () => {
  it.each(['graphql', 'text500', 'html500'] as const)('leaves no part of the token in the client’s errors (%s echo)', async (mode) => {
    echo.mode = mode;
    for (const token of TOKENS) {
      const client = createLabelingClient({ url: echo.url, token, retry: { maxAttempts: 1 } });
      for (const call of [() => getCabinet(client, 'p1', 'LABELER'), () => getLabelSets(client, 'c1'), () => getJob(client, 'job-1')]) {
        const error = (await call().then(
          () => new Error('expected a failure'),
          (e: unknown) => e,
        )) as Error;
        const cause = (error as { cause?: Error }).cause;
        const text = [error.message, error.stack, JSON.stringify(error), inspect(error, { depth: 10 }), cause?.message, cause?.stack].join('\n');
        expectClean(text, token, `${mode} ${JSON.stringify(token)}`);
      }
      client.close();
    }
  });

  it.each(['graphql', 'text500', 'html500'] as const)('leaves no part of the token in the output of any command (%s echo)', async (mode) => {
    echo.mode = mode;
    let echoed = 0;
    for (const [name, args] of COMMANDS) {
      // A wait goes through a transient failure (a 500) until its time-out: that case runs once.
      const once = mode !== 'graphql' && args.includes('WAIT');
      // The token with every character runs with all four flag sets; each single-character one with
      // one of them, in turn (each flag set sees two of the eight characters): how a character ends
      // a pattern is the redactor's, the same whichever flags print it.
      const runs: Array<[string, string[]]> = once
        ? [[TOKENS.at(-1)!, ['--verbose']]]
        : [...TOKENS.slice(0, -1).map((token, i): [string, string[]] => [token, FLAG_SETS[i % FLAG_SETS.length]!]), ...FLAG_SETS.map((flags): [string, string[]] => [TOKENS.at(-1)!, flags])];
      for (const [token, flags] of runs) {
        {
          const io = fakeIo({ LABELKIT_URL: echo.url, LABELKIT_TOKEN: token, LABELKIT_MODEL_SECRET: 'model-secret-1234' });
          const line = args.map((a) => (a === 'FILE' ? join(dir, 'labels.json') : a === 'PROJECTS' ? join(dir, 'projects.txt') : a === 'WAIT' ? (once ? '300ms' : '5s') : a));
          const code = await main(argv(...line, '--retries', '0', ...flags), io);
          const printed = io.out() + io.err();
          expect(code, `${name} ${flags.join(' ')}: ${printed}`).not.toBe(0);
          expectClean(printed, token, `${name} ${flags.join(' ')} ${JSON.stringify(token)}`);
          if (printed.includes('auth=Bearer ***')) echoed++;
        }
      }
    }
    // The echo reached the output (redacted), so the test saw what a user sees.
    expect(echoed).toBeGreaterThan(0);
  });
});

describe('the emulator with a token or a model secret holding : " & / + = %', () => {
  it('logs no part of them, and a model that echoes its Authorization leaves none in job errors', async () => {
    const secretKey = 'msk-7f:a"b&c/d+e=fTAILmodel';
    const model = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end(`refused auth=${req.headers.authorization ?? ''}; bye`);
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(model.address() as AddressInfo).port}/`;
    const staticToken = 'key-7f:abc&d/e+f=g%hTAILstatic';
    const lines: string[] = [];
    const emu = await startEmulator({ staticToken, log: (l) => lines.push(l), model: { retries: 0 } }).catch(async (error: unknown) => {
      await new Promise<void>((resolve) => model.close(() => resolve()));
      throw error;
    });
    try {
      // The static token, and wrong tokens holding each character, also as the request id.
      for (const token of [staticToken, ...TOKENS]) {
        await fetch(emu.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(/^[A-Za-z0-9._:-]+$/.test(token) && { 'x-request-id': token }) },
          body: JSON.stringify({ query: '{ __typename }' }),
        }).then((r) => r.text());
      }
      const client = createLabelingClient({ url: emu.url, token: staticToken });
      const job = await startAutoLabel(client, { projectId: DEMO_PROJECT_ID, labelerEmail: 'a@example.com', options: { numberOfFilesPerRequest: 0 }, targetAPI: { endpoint, secretKey } });
      const done = await waitForJob(client, job.id, { intervalMs: 20, timeoutMs: 20_000 }).catch((e: unknown) => e);
      const read = await getJob(client, job.id);
      client.close();
      expect(read?.status).toBe('FAILED');
      const stacks = (read?.errors ?? []).map((e) => e.stack).join('\n');
      expect(stacks).toContain('refused auth=Bearer ***');
      for (const token of [staticToken, secretKey]) {
        expectClean(stacks, token, 'job errors');
        expectClean(inspect(done, { depth: 10 }), token, 'waitForJob');
        expectClean(lines.join('\n'), token, 'emulator log');
      }
      // The job's errors as `labelkit jobs --json` and `--verbose` print them.
      for (const flags of [['--json'], ['--verbose']]) {
        const io = fakeIo({ LABELKIT_URL: emu.url, LABELKIT_TOKEN: staticToken });
        await main(argv('jobs', job.id, ...flags), io);
        for (const token of [staticToken, secretKey]) expectClean(io.out() + io.err(), token, `jobs ${flags.join(' ')}`);
      }
      expect(lines.join('\n')).toMatch(/request=\*\*\*/);
    } finally {
      await emu.close();
      model.closeAllConnections();
      await new Promise<void>((resolve) => model.close(() => resolve()));
    }
  });
});
