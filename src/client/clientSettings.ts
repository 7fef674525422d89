import type { PollOptions } from './jobPoller.js';
import type { SchemaChangeEvent, SchemaGeneration } from './labelSetDocuments.js';

/** What the helpers read of a client made by `createLabelingClient` (a stand-in client has none). */
export interface ClientSettings {
  /** How often waiting for jobs asks the service (the client's `poll`). */
  poll?: PollOptions | undefined;
  /** The label-set documents' generation to send first (the client's `schemaGeneration`). */
  schemaGeneration?: SchemaGeneration | undefined;
  /** Told once when the client switches to the renamed documents. */
  onSchemaChange?: ((event: SchemaChangeEvent) => void) | undefined;
  /** Aborts when the client is closed: a helper's per-client state (the job poll) ends with it. */
  closed?: AbortSignal | undefined;
}

const settings = new WeakMap<object, ClientSettings>();

/**
 * Keeps a client's settings for the helpers, beside the client (not on it).
 *
 * @param client - a client made by `createLabelingClient`
 * @param given - its options the helpers read, and its close signal
 */
export function keepSettings(client: object, given: ClientSettings): void {
  settings.set(client, given);
}

/**
 * The settings of a client, read by a helper when it first serves it.
 *
 * @param client - the client a helper was given
 * @returns its settings; none (the defaults) for a client not made by `createLabelingClient`
 */
export function settingsOf(client: object): ClientSettings {
  return settings.get(client) ?? {};
}
