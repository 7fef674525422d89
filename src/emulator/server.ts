import { serveFetchHandler } from '../model/server.js';
import { createEmulator } from './emulator.js';
import type { Emulator, EmulatorOptions } from './emulator.js';

/** A running emulator. */
export interface RunningEmulator {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  url: string;
  /** The origin, e.g. http://127.0.0.1:4000 (the token URL is `${baseUrl}/api/oauth/token`). */
  baseUrl: string;
  /** A Bearer token the emulator accepts (a local test token). */
  token: string;
  clientId: string;
  clientSecret: string;
  emulator: Emulator;
  /** Stops the job runner, destroys open sockets and frees the port. */
  close(): Promise<void>;
}

/**
 * Starts the emulator over HTTP on loopback.
 *
 * @param options - see {@link EmulatorOptions}; `port: 0` (the default) takes a free port
 * @returns the URL, a token that works, and close()
 * @example
 * ```ts
 * import { startEmulator } from 'labelkit/emulator';
 * const emu = await startEmulator();
 * const client = createLabelingClient({ url: emu.url, token: emu.token });
 * await emu.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = createEmulator(options);
  const served = await serveFetchHandler(emulator.handle, options.port ?? 0, options.host ?? '127.0.0.1');
  return {
    url: `${served.url}/graphql`,
    baseUrl: served.url,
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
