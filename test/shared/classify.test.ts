import { describe, expect, it } from 'vitest';
import { classifyDatabaseFailure, classifyFailure, isTransientStatus } from '../../src/shared/classify.js';

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

describe('classifyDatabaseFailure', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('takes a dropped connection without a code, a refused or reset socket and a restarting server as connection failures (exit 4)', () => {
    expect(classifyDatabaseFailure(new Error('Connection terminated unexpectedly'))).toBe('connection');
    expect(classifyDatabaseFailure(new Error('Connection terminated due to connection timeout'))).toBe('connection');
    expect(classifyDatabaseFailure(new Error('timeout exceeded when trying to connect'))).toBe('connection');
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', '08006', '57P01', '57P03', '53300']) expect(classifyDatabaseFailure(withCode(code)), code).toBe('connection');
  });
  it('takes a refused login as auth (3), a missing database or missing rights as setup (2), and anything else as other', () => {
    expect(classifyDatabaseFailure(withCode('28P01'))).toBe('auth');
    expect(classifyDatabaseFailure(withCode('28000'))).toBe('auth');
    for (const code of ['3D000', '3F000', '42501']) expect(classifyDatabaseFailure(withCode(code)), code).toBe('setup');
    expect(classifyDatabaseFailure(withCode('23505', 'duplicate key'))).toBe('other');
    expect(classifyDatabaseFailure(new Error('syntax error'))).toBe('other');
    expect(classifyDatabaseFailure('terminated')).toBe('other');
  });
});
