/**
 * The package version, sent with every request as `labelkit/<version>`.
 *
 * @remarks Given once, in `src/shared/constants.ts`, which the CLI reads too.
 */
export { VERSION } from '../shared/constants.js';
