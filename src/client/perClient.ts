import type { PollOptions } from './jobPoller.js';
import type { SchemaChangeEvent, SchemaGeneration } from './renameSwitch.js';

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

/**
 * Each client's settings for the helpers, kept beside the client (not on it): `createLabelingClient`
 * sets a client's options the helpers read, and its close signal.
 */
export const clientSettings = new WeakMap<object, ClientSettings>();

/**
 * A helper's state per client (the job poll, the rename switch), kept beside the client and made
 * on its first use from the client's settings.
 *
 * @param make - makes the state of one client from its settings (none, the defaults, for a client
 * not made by `createLabelingClient`)
 * @returns the function that gives a client's state
 * @example
 * ```ts
 * const switchOf = perClient(({ schemaGeneration }) => generationSwitch(schemaGeneration ?? 'tags'));
 * ```
 */
export function perClient<C extends object, T>(make: (settings: ClientSettings, client: C) => T): (client: C) => T {
  const made = new WeakMap<C, T>();
  return (client) => {
    let state = made.get(client);
    if (state === undefined) made.set(client, (state = make(clientSettings.get(client) ?? {}, client)));
    return state;
  };
}
