/**
 * The package version, sent with every request as `labelkit/<version>`.
 *
 * @remarks A constant rather than a read of package.json, so that the browser build needs no
 * JSON import; `test/client/version.test.ts` checks that it equals package.json's version.
 */
export const VERSION = '0.1.0';
