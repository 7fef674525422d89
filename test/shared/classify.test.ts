import { describe, expect, it } from 'vitest';
import { classifyFailure, isTransientStatus } from '../../src/shared/classify.js';

describe('classifyFailure', () => {
  it.each([408, 429, 500, 502, 503, 504])('calls HTTP %i transient', (status) => {
    expect(classifyFailure({ status })).toBe('transient');
    expect(isTransientStatus(status)).toBe(true);
  });
  it.each([400, 403, 404, 405, 413, 422])('calls HTTP %i refused', (status) => {
    expect(classifyFailure({ status })).toBe('refused');
    expect(isTransientStatus(status)).toBe(false);
  });
  it('calls HTTP 401 an auth failure', () => expect(classifyFailure({ status: 401 })).toBe('auth'));
  it('calls a failure without any answer transient', () => expect(classifyFailure({})).toBe('transient'));
});
