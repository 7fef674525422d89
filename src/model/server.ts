import { serveFetchHandler } from '../shared/serveFetchHandler.js';
import { createModelHandler } from './handler.js';
import { createSampleModel } from './sampleModel.js';
import type { Predict } from './contract.js';

/** Options of {@link startModelServer}. */
export interface ModelServerOptions {
  /** @defaultValue 0 (a free port) */
  port?: number;
  /** @defaultValue '127.0.0.1' */
  host?: string;
  secretKey: string;
  /** @defaultValue the sample gazetteer model */
  predict?: Predict;
}

/** A running model endpoint. */
export interface RunningModelServer {
  /** The endpoint URL to give as `targetAPI.endpoint`. */
  url: string;
  /** Stops listening, destroys open sockets (keep-alive ones included) and frees the port. */
  close(): Promise<void>;
}

/**
 * Starts a model endpoint of the span contract on loopback.
 *
 * @param options - port, host, secret and prediction function (the sample model by default)
 * @returns the endpoint URL and close()
 * @example
 * ```ts
 * const model = await startModelServer({ secretKey: 'local-secret' });
 * console.log(model.url); // http://127.0.0.1:PORT/
 * await model.close();
 * ```
 */
export async function startModelServer(options: ModelServerOptions): Promise<RunningModelServer> {
  const handler = createModelHandler(options.predict ?? createSampleModel(), { secretKey: options.secretKey });
  const served = await serveFetchHandler(handler, options.port ?? 0, options.host ?? '127.0.0.1');
  return { url: `${served.url}/`, close: served.close };
}
