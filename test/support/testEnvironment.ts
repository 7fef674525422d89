// What the environment tells the tests, read in one place: whether CI requires the tests that need
// a program of the machine (Chromium, PostgreSQL) to run rather than skip, and how much longer than
// written a time limit may take on this machine.

/**
 * Whether the environment is CI: `CI` set to anything but '', `0` or `false` (any case), as CI
 * services set it (`true`, `1`) and as the `ci-info` package reads it.
 *
 * @param env - the environment
 */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** The variable that scales every time limit of the tests (CONTRIBUTING.md). */
export const TIME_FACTOR_VARIABLE = 'LABELKIT_TEST_TIME_FACTOR';

/**
 * The factor by which the tests' time limits grow on a slow or loaded machine:
 * `LABELKIT_TEST_TIME_FACTOR` (a number of at least 1; 1 when unset).
 *
 * @param env - the environment
 * @throws naming the variable, when it is not a number of at least 1
 */
export function timeFactor(env: NodeJS.ProcessEnv = process.env): number {
  const given = env[TIME_FACTOR_VARIABLE];
  if (given === undefined || given.trim() === '') return 1;
  const factor = Number(given);
  if (!Number.isFinite(factor) || factor < 1) throw new Error(`${TIME_FACTOR_VARIABLE}=${given}: must be a number of at least 1 (it multiplies every time limit of the tests)`);
  return factor;
}

/**
 * A time limit of a test, in milliseconds, scaled by {@link timeFactor}: the limits are written for
 * a quiet two-core machine; a loaded one sets the factor once instead of raising each.
 *
 * @param ms - the limit as written
 */
export function within(ms: number): number {
  return Math.round(ms * timeFactor());
}
