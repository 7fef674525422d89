/**
 * What a client made by `createLabelingClient` keeps out of its public shape but a standalone
 * function of this package needs (today: the service URL, which `autoLabelMany` records in its
 * journal). A WeakMap, so that a function an app does not import costs the app nothing, and the
 * client object shows no extra field.
 */
const urls = new WeakMap<object, string>();

/**
 * Records the service URL of a client (called once by `createLabelingClient`).
 *
 * @param client - the client object
 * @param url - the URL it was created with
 * @returns nothing
 * @remarks Internal: not exported from the package entry.
 * @example
 * ```ts
 * rememberClientUrl(client, options.url);
 * ```
 */
export function rememberClientUrl(client: object, url: string): void {
  urls.set(client, url);
}

/**
 * The service URL a client was created with.
 *
 * @param client - a client from `createLabelingClient`
 * @returns its URL, or undefined for any other object
 * @remarks Internal: not exported from the package entry.
 * @example
 * ```ts
 * const url = clientUrl(client);
 * ```
 */
export function clientUrl(client: object): string | undefined {
  return urls.get(client);
}
