import { describe, expect, it } from 'vitest';
import { LabelkitError } from '../../src/client/index.js';
import { AuthError, GraphQLRequestError, JobFailedError, JobNotFoundError, JobTimeoutError, LabelHierarchyError, NetworkError, ValidationError } from '../../src/client/errors.js';
import { exitCodeOf } from '../../src/cli/exitCodeOf.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import { WaitInterrupted } from '../../src/cli/interrupted.js';
import { CliUsageError } from '../../src/cli/usageError.js';

const job = { id: 'j', status: 'FAILED' as const, progress: 10, errors: [], resultId: null, createdAt: '', updatedAt: '' };

describe('exitCodeOf', () => {
  it('maps each client error class to the exit code of docs/CONTRACTS.md when the command throws it', () => {
    expect(exitCodeOf(new ValidationError([{ path: 'p', message: 'm' }]))).toBe(2);
    expect(exitCodeOf(new AuthError('no'))).toBe(3);
    expect(exitCodeOf(new NetworkError('NETWORK', 'down'))).toBe(4);
    expect(exitCodeOf(new NetworkError('TIMEOUT', 'slow'))).toBe(4);
    expect(exitCodeOf(new NetworkError('ABORTED', 'ctrl-c'))).toBe(130);
    expect(exitCodeOf(new JobFailedError(job))).toBe(5);
    expect(exitCodeOf(new JobTimeoutError('j', null, 1))).toBe(6);
    expect(exitCodeOf(new JobNotFoundError('j'))).toBe(7);
    expect(exitCodeOf(new GraphQLRequestError([{ message: 'x' }]))).toBe(1);
    expect(exitCodeOf(new LabelHierarchyError('s', ['cycle']))).toBe(1);
    expect(exitCodeOf(new LabelkitError('ABORTED', '[Job] aborted'))).toBe(130);
  });

  it('maps the CLI’s own errors and anything else when they are thrown', () => {
    expect(exitCodeOf(new CliUsageError([{ field: '--x', message: 'required' }]))).toBe(EXIT.usage);
    expect(exitCodeOf(new WaitInterrupted(['a']))).toBe(EXIT.interrupted);
    expect(exitCodeOf(new TypeError('boom'))).toBe(EXIT.unexpected);
    expect(exitCodeOf('a string')).toBe(EXIT.unexpected);
  });

  it('gives schema check its own code, distinct from every other', () => {
    expect(EXIT.schemaIncompatible).toBe(8);
    expect(Object.values(EXIT).filter((c) => c === EXIT.schemaIncompatible)).toHaveLength(1);
  });

  it('recognises a labelkit error from another copy of the package by its shape', () => {
    const foreign = Object.assign(new Error('[Auth] refused'), { code: 'AUTH' });
    expect(exitCodeOf(foreign)).toBe(3);
  });
});
