import { isBadPort } from '../shared/badPorts.js';
import { CliUsageError } from './usageError.js';
import type { UsageProblem } from './usageError.js';
import { errorCode } from '../shared/classify.js';

/**
 * Parses a `--port` flag of a command that listens (`emulator`, `model`).
 *
 * @param value - what the user typed (a string), or the default (a number)
 * @param problems - receives a problem when it is not an integer from 0 to 65535, or when it is a
 * port that `fetch` refuses to call (the Fetch standard's "bad ports", `shared/badPorts`)
 * @returns the port
 * @remarks A server on a bad port would start, and then every `fetch` to it (the labelkit
 * client's, a browser's) would fail with a bare network error; so such a port is refused here,
 * before anything listens. 0 (a free port) is never refused: the system hands out ports above
 * every bad one.
 * @example
 * ```ts
 * const problems: UsageProblem[] = [];
 * parsePort('6000', problems); // problems[0].message: "6000 is one of the ports that fetch refuses to call …"
 * ```
 */
export function parsePort(value: string | number, problems: UsageProblem[]): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) problems.push({ field: '--port', message: 'must be an integer from 0 to 65535 (0: a free port)' });
  else if (n !== 0 && isBadPort(n)) {
    problems.push({
      field: '--port',
      message: `${n} is one of the ports that fetch refuses to call (the Fetch standard's "bad ports"); choose another, or 0 for a free one`,
    });
  }
  return n;
}

/**
 * Turns the error of a server that could not listen into a usage error naming the flag, when the
 * flags are at fault: the port is taken, needs privileges, or the address is not on this machine.
 *
 * @param error - what starting the server threw
 * @param listen - the port and host asked for
 * @returns a {@link CliUsageError} (exit 2) for `EADDRINUSE`, `EACCES` and `EADDRNOTAVAIL`; the
 * error itself otherwise (an unexpected error, exit 1)
 * @remarks The system's own message (`listen EADDRINUSE: address already in use 127.0.0.1:4000`)
 * is replaced by one line that says what to do, e.g. `--port: port 4000 is in use (try --port 0)`.
 * @example
 * ```ts
 * try { await startEmulator({ port, host }); } catch (error) { throw listenError(error, { port, host }); }
 * ```
 */
export function listenError(error: unknown, listen: { port: number; host: string }): unknown {
  const code = errorCode(error);
  if (code === 'EADDRINUSE') return new CliUsageError([{ field: '--port', message: `port ${listen.port} is in use (try --port 0)` }], '');
  if (code === 'EACCES') return new CliUsageError([{ field: '--port', message: `port ${listen.port} needs privileges on this system (try a port above 1023, or --port 0)` }]);
  if (code === 'EADDRNOTAVAIL') return new CliUsageError([{ field: '--host', message: `${listen.host} is not an address of this machine (try 127.0.0.1)` }]);
  return error;
}

/**
 * Resolves until `signal` is aborted (Ctrl-C), at once when it already is.
 *
 * @param signal - the run's Ctrl-C signal
 * @returns a promise that resolves on abort
 */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
