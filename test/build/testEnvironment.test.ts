// What the environment tells the tests (test/support/testEnvironment.ts): CI as CI services set it,
// and the one factor that scales every time limit.
import { describe, expect, it } from 'vitest';
import { isCi, timeFactor, TIME_FACTOR_VARIABLE } from '../support/testEnvironment.js';

describe('isCi', () => {
  it('is CI for CI=true and CI=1 (and any other value), not for CI=false, 0, empty or unset', () => {
    for (const on of ['true', '1', 'TRUE', 'yes', 'woodpecker']) expect(isCi({ CI: on }), on).toBe(true);
    for (const off of ['false', 'FALSE', '0', '', ' ']) expect(isCi({ CI: off }), JSON.stringify(off)).toBe(false);
    expect(isCi({})).toBe(false);
  });
});

describe('timeFactor', () => {
  it('is 1 unless LABELKIT_TEST_TIME_FACTOR says more', () => {
    expect(timeFactor({})).toBe(1);
    expect(timeFactor({ [TIME_FACTOR_VARIABLE]: '' })).toBe(1);
    expect(timeFactor({ [TIME_FACTOR_VARIABLE]: '2.5' })).toBe(2.5);
  });

  it('refuses, naming the variable, what is not a number of at least 1', () => {
    for (const bad of ['0.5', '0', '-2', 'fast', 'Infinity']) {
      expect(() => timeFactor({ [TIME_FACTOR_VARIABLE]: bad }), bad).toThrow(`${TIME_FACTOR_VARIABLE}=${bad}: must be a number of at least 1`);
    }
  });
});
