import type { PollOptions } from './jobPoller.js';
import type { SchemaChangeEvent, SchemaGeneration } from './labelSetDocuments.js';

/** The options of `createLabelingClient` that only the helpers read (the job poll, the label-set documents). */
export interface HelperOptions {
  /** How often waiting for jobs asks the service (`waitForJob` and the other waits). */
  poll?: PollOptions | undefined;
  /**
   * Which generation of the service's schema the label-set query is written for: `tags` (today's
   * production, `tagItems`/`tagName`) or `labels` (after the service's rename). A `tags` client
   * switches to `labels` on its own, once, when the service refuses `tagItems`/`tagName`.
   * @defaultValue 'tags' (today's production; a service already renamed costs one extra request, once)
   */
  schemaGeneration?: SchemaGeneration | undefined;
  /** Called once when the label-set helpers switch this client to the renamed documents (see `schemaGeneration`). */
  onSchemaChange?: ((event: SchemaChangeEvent) => void) | undefined;
}

/** What the helpers read of a client made by `createLabelingClient` (a stand-in client has none). */
export interface ClientSettings extends HelperOptions {
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
