import { createEmulator } from './emulator.js';
import type { Emulator, EmulatorOptions } from './emulator.js';
import { serveFetchHandler } from '../shared/serveFetchHandler.js';

/** A running emulator. */
export interface RunningEmulator {
  /** The GraphQL endpoint, e.g. `http://127.0.0.1:4000/graphql`. */
  url: string;
  /** The origin, e.g. `http://127.0.0.1:4000`; the token URL is `${baseUrl}/api/oauth/token`. */
  baseUrl: string;
  /** A Bearer token the emulator accepts (a local test token). */
  token: string;
  /** The client id accepted at `/api/oauth/token`. */
  clientId: string;
  /** The client secret accepted at `/api/oauth/token` (a local test secret: do not print it). */
  clientSecret: string;
  /** The emulator itself: `store` holds the data. */
  emulator: Emulator;
  /** Stops the job runner, destroys open sockets and frees the port. */
  close(): Promise<void>;
}

/**
 * Starts the emulator over HTTP.
 *
 * @param options - see {@link EmulatorOptions}; `port: 0` (the default) takes a free port on `127.0.0.1`
 * @returns the URL, a token that works, the client credentials, the emulator and `close()`
 * @throws {@link EmulatorDataError} for a bad data folder; a listen error (e.g. EADDRINUSE)
 * @example
 * ```ts
 * import { startEmulator } from 'labelkit/emulator';
 * import { createLabelingClient, getCabinet } from 'labelkit';
 *
 * const emu = await startEmulator();
 * const client = createLabelingClient({ url: emu.url, token: emu.token });
 * console.log(await getCabinet(client, 'demo-project', 'LABELER')); // { id: 'demo-project:labeler' }
 * client.close();
 * await emu.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = createEmulator(options);
  let served;
  try {
    served = await serveFetchHandler(emulator.handle, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (error) {
    await emulator.close();
    throw error;
  }
  options.log?.(`emulator listening on ${served.url}/graphql`);
  const origin = served.url;
  return {
    url: `${origin}/graphql`,
    baseUrl: origin,
    token: emulator.token,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    emulator,
    close: async () => {
      await emulator.close();
      await served.close();
    },
  };
}
