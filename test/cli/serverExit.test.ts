// `labelkit emulator` and `labelkit model` stop at Ctrl-C: the built binary, spawned, gets SIGINT
// while clients hold connections open (an idle keep-alive one, one with half a request sent), and
// must close them and exit 0, with nothing left that keeps the process alive
// (test/support/exitWatch.mjs names what would).
import { request } from 'node:http';
import type { Agent } from 'node:http';
import { Agent as HttpAgent } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killStarted, startCli } from '../support/spawnCli.js';

const WATCH = { NODE_OPTIONS: `--import=${pathToFileURL(join(import.meta.dirname, '..', 'support', 'exitWatch.mjs')).href}` };

/** A GET over a keep-alive agent, answered and read: its socket stays open, idle, in the agent. */
function keepAliveGet(url: string, agent: Agent): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(req.socket as Socket));
    });
    req.once('error', reject);
    req.end();
  });
}

/** A socket that sent half a request's headers and waits. */
function halfRequest(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET / HTTP/1.1\r\nHost: ${hostname}\r\n`);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

afterAll(() => killStarted());

describe('Ctrl-C on a server command', () => {
  it.each([
    ['emulator', ['emulator', '--port', '0'], {}, /export LABELKIT_URL=(\S+)\/graphql/, 'labelkit: emulator stopped\n'],
    ['model', ['model', '--port', '0'], { LABELKIT_MODEL_SECRET: 'exit-test-secret' }, /listening on (\S+?)\/? /, ''],
  ] as const)('labelkit %s closes open connections and exits 0, with nothing left keeping it alive', async (_name, args, env, urlPattern, last) => {
    const server = startCli([...args], { ...env, ...WATCH });
    await server.waitFor(/Ctrl-C stops/);
    const url = urlPattern.exec(server.stdout())![1]!;
    const agent = new HttpAgent({ keepAlive: true });
    try {
      const idle = await keepAliveGet(`${url}/`, agent);
      const half = await halfRequest(url);
      half.on('error', () => undefined);
      expect(idle.destroyed).toBe(false);
      server.child.kill('SIGINT');
      // Whichever comes first: the exit, or the watch naming what keeps the process running.
      const stuck = server.waitFor(/exit-watch: .*\n/, 20_000).then(() => server.stderr());
      const first = await Promise.race([server.exited.then(() => undefined), stuck.catch(() => undefined)]);
      expect(first, 'what kept the process running after SIGINT').toBeUndefined();
      const run = await server.exited;
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(last);
      // The server closed both connections; neither kept it running.
      await Promise.all([closed(idle), closed(half)]);
    } finally {
      agent.destroy();
    }
  });
});
